/**
 * The step registry: one handler per kind, looked up by the kind key of a step. Adding a kind = one file
 * exporting a StepHandler + its name in STEP_KINDS (scenario/types.ts) + one line here (the compiler asks
 * for it) + its $defs entry in schemas/scenario.schema.json (test/harness/step-kinds.test.ts asks for it).
 */
import { STEP_KINDS, type SourceLocation, type Step, type StepKind } from '../../scenario/types.js';
import { ENGINE_ERROR_CODES, StepError } from '../errors.js';
import type { StepHandler } from '../types.js';
import { authorizeStep } from './authorize.js';
import { captureStep } from './capture.js';
import { clockStep } from './clock.js';
import { expectStep } from './expect.js';
import { failIfStep } from './fail-if.js';
import { listenStep } from './listen.js';
import { listStep } from './list.js';
import { paginateStep } from './paginate.js';
import { parallelStep } from './parallel.js';
import { pollStep } from './poll.js';
import { repeatStep } from './repeat.js';
import { requestStep } from './request.js';
import { setStep } from './set.js';
import { skipIfStep } from './skip-if.js';
import { useStep } from './use.js';
import { waitStep } from './wait.js';

type StepOf<K extends StepKind> = Extract<Step, Record<K, unknown>>;

const HANDLERS: { readonly [K in StepKind]: StepHandler<StepOf<K>> } = {
  request: requestStep,
  expect: expectStep,
  capture: captureStep,
  set: setStep,
  paginate: paginateStep,
  poll: pollStep,
  list: listStep,
  parallel: parallelStep,
  repeat: repeatStep,
  use: useStep,
  clock: clockStep,
  fail_if: failIfStep,
  skip_if: skipIfStep,
  listen: listenStep,
  wait: waitStep,
  authorize: authorizeStep,
};

const REGISTRY: ReadonlyMap<string, StepHandler> = new Map(STEP_KINDS.map((k) => [k, HANDLERS[k] as unknown as StepHandler]));

export function stepHandler(kind: string, at?: SourceLocation): StepHandler<Step> {
  const handler = REGISTRY.get(kind);
  if (!handler) throw new StepError(ENGINE_ERROR_CODES.step, `unknown step kind '${kind}'`, { hint: `known: ${stepKinds().join(', ')}`, ...(at ? { at } : {}) });
  return handler;
}

export function stepKinds(): string[] {
  return [...REGISTRY.keys()];
}

/**
 * The step registry: one handler per kind, looked up by the kind key of a step. Adding a kind = one file
 * exporting a StepHandler + one line here + its $defs entry in schemas/scenario.schema.json.
 */
import type { SourceLocation, Step } from '../../scenario/types.js';
import { ENGINE_ERROR_CODES, StepError } from '../errors.js';
import type { StepHandler } from '../types.js';
import { authorizeStep } from './authorize.js';
import { captureStep } from './capture.js';
import { clockStep } from './clock.js';
import { expectStep } from './expect.js';
import { failIfStep } from './fail-if.js';
import { listenStep } from './listen.js';
import { paginateStep } from './paginate.js';
import { parallelStep } from './parallel.js';
import { pollStep } from './poll.js';
import { requestStep } from './request.js';
import { setStep } from './set.js';
import { useStep } from './use.js';
import { waitStep } from './wait.js';

const HANDLERS = [requestStep, expectStep, captureStep, setStep, paginateStep, pollStep, parallelStep, useStep, clockStep, failIfStep, listenStep, waitStep, authorizeStep] as const;

const REGISTRY: ReadonlyMap<string, StepHandler> = new Map(HANDLERS.map((h) => [h.kind, h as unknown as StepHandler]));

export function stepHandler(kind: string, at?: SourceLocation): StepHandler<Step> {
  const handler = REGISTRY.get(kind);
  if (!handler) throw new StepError(ENGINE_ERROR_CODES.step, `unknown step kind '${kind}'`, { hint: `known: ${stepKinds().join(', ')}`, ...(at ? { at } : {}) });
  return handler;
}

export function stepKinds(): string[] {
  return [...REGISTRY.keys()];
}

/**
 * The in-process hostile sweep: every YAML scenario of the catalogue through the real engine (runScenario,
 * undici transport, recorder, redactor, auth client, schema registry: engine/in-process.ts, what
 * specs/fixtures.ts wires minus Playwright) against one stub mode. Playwright replaces a worker after every failed test (~2 s each), so a
 * Playwright run of one mode takes 60-100 s; in process a mode takes about as long as its slowest bounds.
 * Scenarios run concurrently (a pool), each under an outer watchdog; process-level unhandled rejections and
 * uncaught exceptions are collected while the mode runs.
 */
import { performance } from 'node:perf_hooks';
import { runScenario } from '../../src/harness/engine/run.js';
import { NotApplicable } from '../../src/harness/engine/errors.js';
import { inProcessEngine } from '../../src/harness/engine/in-process.js';
import { createUndiciTransport } from '../../src/harness/http/undici-transport.js';
import { targetView } from '../../src/harness/engine/target-view.js';
import { missingRoles, missingRolesReason, scenarioRoles } from '../../src/harness/scenario/roles.js';
import type { Scenario, SourceLocation } from '../../src/harness/scenario/types.js';
import type { SchemaRegistry } from '../../src/harness/schemas/types.js';
import { missingCapabilities, withMutationGuard } from '../../src/harness/target/capabilities.js';
import type { ResolvedTarget } from '../../src/harness/target/types.js';
import { FtfError } from '../../src/shared/errors.js';

export interface ScenarioResult {
  id: string;
  /** passed = ended without an error (a defect against garbage); hung = the watchdog fired first. */
  status: 'failed' | 'passed' | 'skipped' | 'hung';
  elapsedMs: number;
  /** The error as a report would show it: message, then `at <scenario file>:<line>` when known. */
  text: string;
  /** The thrown value is an FtfError (anything else escaped the engine's error handling). */
  typed: boolean;
  skipReason?: string;
}

export interface SweepRun {
  results: ScenarioResult[];
  wallMs: number;
  /** unhandledRejection / uncaughtException seen while the mode ran (and shortly after). */
  unhandled: string[];
  /** The transport did not close within the watchdog margin (a connection kept alive by the target). */
  disposeHung: boolean;
}

export interface SweepOptions {
  target: ResolvedTarget;
  schemas: SchemaRegistry;
  scenarios: readonly Scenario[];
  concurrency: number;
  /** Outer watchdog of one scenario (the profile's scenario bound + a margin). */
  watchdogMs: number;
}

const HUNG = Symbol('hung');

/** Message plus the scenario line (the error's own location, else the innermost failing step's), like the Playwright report. */
export function reportText(err: unknown, stepAt: SourceLocation | undefined): string {
  const message = err instanceof Error ? err.message : String(err);
  const loc = err instanceof FtfError && err.location?.file ? err.location : stepAt;
  return loc?.file ? `${message}\n    at ${loc.file}:${loc.line ?? 0}` : message;
}

async function runOne(scenario: Scenario, opts: SweepOptions, transport: ReturnType<typeof createUndiciTransport>): Promise<ScenarioResult> {
  // The runner's own skip (specs/conformance.spec.ts) and production guard (specs/fixtures.ts), no opt-in.
  const target = withMutationGuard(opts.target, false);
  const missing = missingCapabilities(target, scenario.needs);
  if (missing.length > 0) return { id: scenario.id, status: 'skipped', elapsedMs: 0, text: '', typed: true, skipReason: `needs ${missing.join(', ')}` };
  // Like the runner: a role the profile leaves out (e.g. credentials.short_lived of a clock-less form) is a skip.
  const absent = missingRoles(targetView(target), scenarioRoles(scenario));
  if (absent.length > 0) return { id: scenario.id, status: 'skipped', elapsedMs: 0, text: '', typed: true, skipReason: missingRolesReason(absent) };

  // The engine as `dev` wires it (engine/in-process.ts): write guard, recorder, redactor, auth client.
  const { engine, failedAt } = inProcessEngine({ target, schemas: opts.schemas, wire: transport, cliAllowsMutations: false, runIdPrefix: 'sweep' });
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const watchdog = new Promise<typeof HUNG>((resolve) => (timer = setTimeout(() => resolve(HUNG), opts.watchdogMs)));
  const run = runScenario(scenario, engine).then(
    () => ({ ok: true as const }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  const outcome = await Promise.race([run, watchdog]);
  clearTimeout(timer);
  const elapsedMs = Math.round(performance.now() - started);
  if (outcome === HUNG) return { id: scenario.id, status: 'hung', elapsedMs, text: `still running after ${opts.watchdogMs} ms`, typed: false };
  if (outcome.ok) return { id: scenario.id, status: 'passed', elapsedMs, text: '', typed: true };
  // A `skip_if` that held (the target lacks the data the scenario needs): the runner skips it with this reason.
  if (outcome.error instanceof NotApplicable) return { id: scenario.id, status: 'skipped', elapsedMs, text: '', typed: true, skipReason: outcome.error.message };
  return { id: scenario.id, status: 'failed', elapsedMs, text: reportText(outcome.error, failedAt()), typed: outcome.error instanceof FtfError };
}

/** Runs every scenario against the target (the stub must be up); never rejects. */
export async function sweep(opts: SweepOptions): Promise<SweepRun> {
  const unhandled: string[] = [];
  const onRejection = (reason: unknown): void => void unhandled.push(`unhandledRejection: ${reason instanceof Error ? reason.stack ?? reason.message : String(reason)}`);
  const onException = (err: Error): void => void unhandled.push(`uncaughtException: ${err.stack ?? err.message}`);
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  const transport = createUndiciTransport();
  const started = performance.now();
  const results: ScenarioResult[] = new Array<ScenarioResult>(opts.scenarios.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < opts.scenarios.length; i = next++) {
      const scenario = opts.scenarios[i] as Scenario;
      // runOne catches the scenario's own errors; this catches a throw while wiring it (also a finding).
      results[i] = await runOne(scenario, opts, transport).catch((e: unknown) => ({ id: scenario.id, status: 'failed' as const, elapsedMs: 0, text: `wiring failed: ${reportText(e, undefined)}`, typed: false }));
    }
  };
  await Promise.all(Array.from({ length: Math.min(opts.concurrency, opts.scenarios.length) }, worker));
  const wallMs = Math.round(performance.now() - started);
  let closeTimer: NodeJS.Timeout | undefined;
  const disposed = await Promise.race([
    (transport.dispose?.() ?? Promise.resolve()).then(() => true, () => true),
    new Promise<boolean>((resolve) => (closeTimer = setTimeout(() => resolve(false), opts.watchdogMs))),
  ]);
  clearTimeout(closeTimer);
  // A rejection nobody handled is reported on a later turn: give stragglers a moment before listening stops.
  await new Promise((resolve) => setTimeout(resolve, 50));
  process.off('unhandledRejection', onRejection);
  process.off('uncaughtException', onException);
  return { results, wallMs, unhandled, disposeHung: !disposed };
}

/**
 * The engine wired outside Playwright: wireEngine (wiring.ts), as specs/fixtures.ts wires a test (the production
 * write guard, the recorder, the redactor, the auth client, the schema registry), minus Playwright's attachments,
 * HAR and test.step. Used where a Playwright worker is the cost to avoid: the author's loop (`ftf-conformance dev`)
 * and the in-process hostile sweep (test/hostile/sweep.ts). A scenario runs here through the same
 * runScenario, the same checks and the same outcome record (report/record-outcome.ts) as in a `run`.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { CheckResult } from '../checks/types.js';
import type { Transport } from '../http/types.js';
import { markStep, outcomeFromError, passedOutcome, skippedOutcome } from '../report/records/record-outcome.js';
import { redactError } from '../report/redaction/redact-error.js';
import type { OutcomeRecord } from '../report/records/outcome.js';
import { redactStructural } from '../report/redaction/structural-redaction.js';
import { planScenario } from '../scenario/plan.js';
import type { Scenario, SourceLocation } from '../scenario/types.js';
import type { SchemaRegistry } from '../schemas/types.js';
import { withMutationGuard } from '../target/capabilities.js';
import type { ResolvedTarget } from '../target/types.js';
import { NotApplicable } from './errors.js';
import { runScenario } from './run.js';
import { targetView } from './target-view.js';
import type { EngineContext } from './types.js';
import { wireEngine } from './wiring.js';

export interface InProcessOptions {
  target: ResolvedTarget;
  schemas: SchemaRegistry;
  /** The raw transport (undici); shared by the runs, not closed here. */
  wire: Transport;
  /** The command line's own opt-in to writes on a production target (target/guard.ts); the profile's is in `target`. */
  cliAllowsMutations: boolean;
  /** Prefix of the run id (checkpoint names, idempotency keys). */
  runIdPrefix?: string;
}

export interface InProcessEngine {
  engine: EngineContext;
  /** Every check the engine recorded, passed or not. */
  checks: CheckResult[];
  /** The innermost step that failed (where a report points). */
  failedAt(): SourceLocation | undefined;
}

/** One engine context per scenario run: its own redactor, recorder, auth client (token cache) and checks. */
export function inProcessEngine(opts: InProcessOptions): InProcessEngine {
  const checks: CheckResult[] = [];
  let failedAt: SourceLocation | undefined;
  // THE wiring (wiring.ts), without Playwright's sinks: write guard, recorder, redactor, auth client.
  const wired = wireEngine({ target: opts.target, schemas: opts.schemas, wire: opts.wire, writeGuard: { allowMutations: opts.cliAllowsMutations }, redactAfter: redactStructural });
  const engine: EngineContext = wired.context({
    runId: `${opts.runIdPrefix ?? 'p'}-${randomBytes(4).toString('hex')}`,
    onCheck: (r) => checks.push(r),
    // A plain call; the innermost failing step's line is kept (what the Playwright fixture puts on the stack).
    runStep: (title, fn, location) =>
      fn().catch((e: unknown) => {
        failedAt ??= location;
        markStep(e, title, location);
        throw e;
      }),
  });
  return { engine, checks, failedAt: () => failedAt };
}

export interface InProcessResult {
  scenario: Scenario;
  /** The clock-less form that ran in the scenario's place. */
  via?: string;
  record: OutcomeRecord;
  /** The error the scenario ended with (already redacted), for the message a reader sees. */
  message?: string;
  failedAt?: SourceLocation;
  durationMs: number;
}

/**
 * Plans (scenario/plan.ts: the clock-less form, the skip), guards (a production target without both opt-ins
 * skips mutating scenarios) and runs one scenario; never rejects.
 */
export async function runInProcess(scenario: Scenario, byId: ReadonlyMap<string, Scenario>, opts: InProcessOptions): Promise<InProcessResult> {
  const target = withMutationGuard(opts.target, opts.cliAllowsMutations);
  const plan = planScenario(scenario, byId, { capabilities: target.capabilities, view: targetView(target) });
  const via = plan.via !== undefined ? { via: plan.via } : {};
  if (plan.skip !== undefined) return { scenario, ...via, record: skippedOutcome(plan.skip, false), durationMs: 0 };
  const { engine, checks, failedAt } = inProcessEngine({ ...opts, target });
  const context = { covers: scenario.covers, evidence: { exchanges: [] }, checks };
  const started = performance.now();
  try {
    await runScenario(plan.runs, engine);
    return { scenario, ...via, record: passedOutcome(context), durationMs: Math.round(performance.now() - started) };
  } catch (error) {
    const durationMs = Math.round(performance.now() - started);
    if (error instanceof NotApplicable) return { scenario, ...via, record: skippedOutcome(error.message, true), durationMs };
    // Redacted before the record is made of it (as the runner does, specs/scenario-tests.ts).
    const redact = engine.redact ?? ((text: string) => text);
    redactError(error, redact);
    const message = redact(error instanceof Error ? error.message : String(error));
    const at = failedAt();
    return { scenario, ...via, record: outcomeFromError(error, context), message, ...(at ? { failedAt: at } : {}), durationMs };
  }
}

/**
 * Contracts of the engine. The engine gets everything injected (target, transport, auth, schemas, a step
 * runner): in Playwright the runner is test.step, in unit tests a plain call. No module-level state.
 */
import type { AuthClient } from '../auth/types.js';
import type { CheckResult } from '../checks/types.js';
import type { HttpRequest, HttpResponse, RaceLane, RaceSettled } from '../http/types.js';
import type { LocatedStep, RequestSpec, SourceLocation, Step, StepKind } from '../scenario/types.js';
import type { SchemaRegistry } from '../schemas/types.js';
import type { ResolvedTarget } from '../target/types.js';

/** The RecordingTransport surface the engine uses (label = the step title, for reports). */
export interface EngineTransport {
  send(request: HttpRequest, label?: string): Promise<HttpResponse>;
  /** The `race` barrier (RecordingTransport.race); absent: the parallel step's `race` option errors readably. */
  race?(lanes: RaceLane[], label?: string): Promise<RaceSettled[]>;
}

/** Runs one step body under a title; Playwright: test.step(title, fn, { box: true, location }). */
export type StepRunner = <T>(title: string, fn: () => Promise<T>, location?: SourceLocation) => Promise<T>;

export interface EngineContext {
  target: ResolvedTarget;
  transport: EngineTransport;
  auth: Pick<AuthClient, 'authorization' | 'forgetAll' | 'clientAuthorization'> & Partial<Pick<AuthClient, 'authorizeCode'>>;
  schemas: SchemaRegistry;
  runStep: StepRunner;
  /** Initial variables (merged under the scenario's own `vars`). */
  vars?: Record<string, unknown>;
  /** Unique per scenario run: use it in checkpoint names etc. so parallel workers and shards never collide. */
  runId: string;
  /** Redacts secrets from text placed in failure messages (RecordingTransport.redactor.redactText). */
  redact?: (text: string) => string;
  /** Every check result, passed or not (reports, warnings). */
  onCheck?: (result: CheckResult) => void;
  /**
   * Attaches a short text (already redacted) to the running step, e.g. a `repeat` step's summary; Playwright:
   * a text attachment of the step. Absent: dropped.
   */
  note?: (name: string, text: string) => Promise<void>;
  /**
   * Runs `fn` with its exchanges recorded in summary (a `repeat` step's iterations): failing ones, a sample and
   * the last ones written, the rest counted (Playwright: the bounded recording's summarised mode, http/sinks.ts).
   * Absent: every exchange is recorded.
   */
  summarised?: <T>(fn: () => Promise<T>) => Promise<T>;
  /** Injectable clock for bounded waits (tests). */
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

/** A response as scenarios see it: `last.status`, `sub.body.uid`, `page.headers['content-type']`. */
export interface ResponseRecord {
  method: string;
  url: string;
  base: 'api' | 'auth' | 'control';
  /** Path relative to the base (what the operation map matches). */
  path: string;
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON; the text when the body is not JSON; null when empty. */
  body: unknown;
  text: string;
  duration_ms: number;
  json_error?: string;
}

export interface SendOptions {
  /** Extra variables visible while interpolating the request (e.g. `i` in parallel). */
  extra?: Record<string, unknown>;
  /** Upper bound for this exchange (poll deadlines shorten it). */
  maxTimeoutMs?: number;
  /** Assert the automatic checks (schema check + response rules; default true); parallel collects them itself. */
  assertSchema?: boolean;
  /** Query parameters set after the template's own (paginate's cursor). */
  query?: Record<string, string>;
  /** Update `last` (default true). */
  setLast?: boolean;
  /** The recorded exchange's label (attachment name, HAR comment); default the step title. */
  label?: string;
}

export interface StepContext {
  readonly engine: EngineContext;
  /** The live variable scope (mutable: steps define variables here). */
  readonly vars: Record<string, unknown>;
  /** The step being run (with its resolved step group for `use`). */
  readonly located: LocatedStep;
  readonly location: SourceLocation;
  readonly title: string;
  /** vars plus extras, for evaluating expressions. */
  scope(extra?: Record<string, unknown>): Record<string, unknown>;
  /** Build, send, record; asserts the auto schema check and the response rules unless disabled. Transport failures throw readable errors. */
  send(spec: RequestSpec, opts?: SendOptions): Promise<{ response: ResponseRecord; schema?: CheckResult; rules: CheckResult[] }>;
  /** Record results; throws CheckFailure when a `must` result failed. */
  assert(results: Array<CheckResult | undefined>): void;
  /** A boolean expression (where/until/fail_if); non-booleans fail readably. */
  truth(expression: string, extra?: Record<string, unknown>): boolean;
  /** Run nested steps (step groups) with the same variables. */
  runSteps(steps: LocatedStep[]): Promise<void>;
  redact(text: string): string;
  /** Sleeps at most the scenario's time left; throws FTF_E_BOUND_EXCEEDED when none is left. */
  sleep(ms: number): Promise<void>;
  now(): number;
  /** What is left of the scenario bound (timeouts.scenario_ms): looping steps take their budget from it. */
  remainingMs(): number;
  /** Run `fn` when the scenario ends, passed or failed (last registered first): closes listeners. */
  defer(fn: () => Promise<void>): void;
}

export interface StepHandler<S extends Step = Step> {
  kind: StepKind;
  /** Readable default title (the step's `name:` wins). */
  title(step: S): string;
  run(step: S, ctx: StepContext): Promise<void>;
}

export interface ScenarioOutcome {
  checks: CheckResult[];
  warnings: CheckResult[];
  vars: Record<string, unknown>;
}

/**
 * TypeScript view of schemas/scenario.schema.json (the schema is the source of truth; keep both in step).
 * Field names are the YAML names. Loaded scenarios also carry where they came from, so steps can point at
 * the YAML line in Playwright reports and errors.
 */
import type { ListKey, RequestShapeKey } from '../target/paging.js';
import type { Capability } from '../target/types.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';
export type Base = 'api' | 'auth' | 'control';
/**
 * Credential name | special mode | {bearer: expr} | where an OAuth client's credentials go at the token endpoint:
 * `basic` = HTTP Basic header, `form` = client_id + client_secret form fields (both may be given).
 */
export type AuthSpec = string | { basic: string; form?: string } | { form: string; basic?: string } | { bearer: string };
export type StatusSet = number | number[];
export type Expressions = string | string[];

export interface RequestSpec {
  method: HttpMethod;
  base?: Base;
  path: string;
  /** A map, or one whole `${expr}` giving a map (also for headers and form). */
  query?: Record<string, string | number | boolean | null> | string;
  headers?: Record<string, string | number> | string;
  json?: unknown;
  /** Send `json` only when this expression is true (a request shape the target profile decides). */
  json_if?: string | boolean;
  form?: Record<string, string | number | boolean> | string;
  body?: string;
  content_type?: string;
  auth?: AuthSpec;
  /** auto (default) | none | schema name or $id */
  schema?: string;
  /** A request shape the spec leaves open: the profile's shapes.<of> says where `value` goes (engine/shapes.ts). */
  shape?: { of: RequestShapeKey; value: string };
  timeout_ms?: number;
}

export interface ResponseExpectation {
  status?: StatusSet;
  schema?: string;
  json?: unknown;
  header?: Record<string, string | null>;
  detail?: string | string[];
}

export interface CountExpectation {
  status?: StatusSet;
  where?: string;
  equals?: number;
  min?: number;
  max?: number;
  /** The clause(s) this count judges instead of the step's (a parallel step checking rules of several clauses). */
  clause?: string | string[];
}

export interface StepCommon {
  name?: string;
  /**
   * The clause(s) this step's checks judge (a `use:` step: the group's checks that name none); `in_doubt`: a
   * failure shows that one of these clauses broke, not which.
   */
  clause?: string | string[] | { in_doubt: string[] };
}

/** What a step's `clause:` says: the clauses its checks judge, and whether a failure leaves them in doubt. */
export interface ClauseLabel {
  clauses: string[];
  /** A failure shows that one of `clauses` is broken, not which (verdict "in doubt between A and B"). */
  doubt: boolean;
}

/** The label a step gives with `clause:` (none: undefined). */
export function stepLabel(step: Step): ClauseLabel | undefined {
  const c = (step as StepCommon).clause;
  if (c === undefined) return undefined;
  if (typeof c === 'object' && !Array.isArray(c)) return { clauses: [...c.in_doubt], doubt: true };
  return { clauses: [c].flat(), doubt: false };
}

/** The clauses a step names with `clause:` (none: undefined). */
export function stepClauses(step: Step): string[] | undefined {
  return stepLabel(step)?.clauses;
}

export interface RequestStep extends StepCommon { request: RequestSpec & { as?: string } }
export interface ExpectStep extends StepCommon {
  expect: ResponseExpectation & { of?: string; where?: Expressions; severity?: 'must' | 'should' };
}
/** variable -> JSON pointer into the response body; `of` names the response (default last). */
export interface CaptureStep extends StepCommon { capture: Record<string, string> & { of?: string } }
export interface SetStep extends StepCommon { set: Record<string, unknown> }
export interface PaginateStep extends StepCommon {
  paginate: { request: RequestSpec; cursor: string; cursor_param?: string; items?: string; until: string; max_pages: number; as?: string };
}
export interface PollStep extends StepCommon {
  poll: { request: RequestSpec; until: string; interval_ms?: number; deadline_ms?: number; as?: string };
}
/**
 * `list`: every page of a list the spec does not lay out, as the profile's paging.<of> pages it (issue 25).
 * `find` (sees `entry`) stops at the first page holding the record; `for_each` walks per element (`item`,
 * `i`); `until` (sees `list`, `attempt`) walks again every interval until it holds.
 */
export interface ListStep extends StepCommon {
  list: {
    /** A list name, or a `${}` template giving one (a step group's parameter). */
    of: ListKey | string;
    request: RequestSpec;
    find?: string;
    for_each?: string;
    until?: string;
    interval_ms?: number;
    /** Milliseconds, or a `${}` template giving them (from the profile). */
    deadline_ms?: number | string;
    /** With until: reaching the deadline is no failure (the state watched for must not come). */
    watch?: boolean;
    status?: StatusSet;
    as?: string;
  };
}
export interface ParallelStep extends StepCommon {
  parallel: {
    count?: number;
    /** One copy of `request` per element of the list this expression gives; the template sees `item` and `i`. */
    for_each?: string;
    request?: RequestSpec;
    branches?: RequestSpec[];
    as?: string;
    expect_all?: ResponseExpectation;
    expect_count?: CountExpectation | CountExpectation[];
    where?: Expressions;
    race?: RaceOptions;
  };
}
/**
 * `parallel` as a race: warmed connections, a barrier, `rounds` repetitions (the checks hold in every round).
 * `next`: variables set after each round from its `results` (a fresh key, the version the winner left).
 */
export interface RaceOptions {
  rounds?: number;
  next?: Record<string, unknown>;
}
/**
 * `repeat`: one request sent sequentially `times` times or once per element of `for_each` (the template sees
 * `i` and `item`), each answer judged like a request step's (schema, response rules) plus `expect` and
 * `capture`; reported as one step.
 */
/** Iterations of one `repeat` step (the scenario schema's `times.maximum`; test/harness/engine-repeat.test.ts keeps them equal). */
export const MAX_REPEAT = 1000;
/** `as:` keeps every response in memory: at most this many iterations (parallel's bound). */
export const MAX_REPEAT_KEPT = 100;
export interface RepeatStep extends StepCommon {
  repeat: {
    times?: number;
    for_each?: string;
    request: RequestSpec;
    expect?: ResponseExpectation & { where?: Expressions; severity?: 'must' | 'should' };
    capture?: Record<string, string>;
    deadline_ms?: number;
    as?: string;
  };
}
export interface UseStep extends StepCommon { use: string; with?: Record<string, unknown> }
export interface ClockStep extends StepCommon { clock: { seconds?: number; minutes?: number; hours?: number; days?: number; to?: string } }
export interface FailIfStep extends StepCommon { fail_if: string; message?: string }
export interface SkipIfStep extends StepCommon { skip_if: string; message?: string }
/** A bounded loopback HTTP listener; `as` gets {url, requests}. */
export interface ListenStep extends StepCommon { listen: { as: string; max_ms?: number } }
/** Wait up to `ms`, less once `until` is true. */
/** `ms`: a number, or a `${}` template computing it (from target.timing): 1..60000 when the step runs. */
export interface WaitStep extends StepCommon { wait: { ms: number | string; until?: string } }

/** Consent only (PKCE S256) for a credential; `as` gets {code, code_verifier, redirect_uri, state, client_id}. */
export interface AuthorizeStep extends StepCommon { authorize: { credential?: string; redirect_uri?: string; as: string } }

/**
 * The step kinds, in the order the docs list them: the ONE list. The engine's step registry is keyed by it (the
 * compiler refuses a kind without a handler); schemas/scenario.schema.json and the README repeat it as data,
 * and test/harness/step-kinds.test.ts keeps those equal.
 */
export const STEP_KINDS = ['request', 'expect', 'capture', 'set', 'paginate', 'poll', 'list', 'parallel', 'repeat', 'use', 'clock', 'fail_if', 'skip_if', 'listen', 'wait', 'authorize'] as const;
export type StepKind = (typeof STEP_KINDS)[number];

export type Step = RequestStep | ExpectStep | CaptureStep | SetStep | PaginateStep | PollStep | ListStep | ParallelStep | RepeatStep | UseStep | ClockStep | FailIfStep | SkipIfStep | ListenStep | WaitStep | AuthorizeStep;

/** Where a node of a YAML file is (1-based line and column). */
export interface SourceLocation {
  file: string;
  line: number;
  column: number;
}

/** A step plus its position; `kind` is the step's kind key. Group steps are expanded at run time. */
export interface LocatedStep {
  kind: string;
  step: Step;
  location: SourceLocation;
  /** For `use` steps: the step group, resolved at load time. */
  group?: StepGroup;
}

export interface ScenarioDocument {
  id: string;
  title: string;
  description?: string;
  covers: string[];
  tags?: string[];
  needs?: Capability[];
  family?: string;
  vars?: Record<string, unknown>;
  steps: Step[];
  clockless_form?: string;
  no_clockless_form?: string;
}

/** A loaded, validated scenario. */
export interface Scenario {
  id: string;
  title: string;
  description?: string;
  covers: string[];
  tags: string[];
  /** Declared needs united with the covered clauses' needs. */
  needs: Capability[];
  /** The covered clauses whose catalogue entry names an environment (scenario/environment.ts namesEnvironment). */
  environmentClauses: string[];
  family: string;
  vars: Record<string, unknown>;
  steps: LocatedStep[];
  /** Worst level of the covered clauses: a scenario covering only `should` clauses reports warnings. */
  level: 'must' | 'should';
  source: SourceLocation;
  /** Id of the scenario that runs in this one's place on a target without clock (or funding) control (issue 13). */
  clocklessForm?: string;
  /** Why a clock scenario has no clock-less form (its skip reason on a target without clock control). */
  noClocklessForm?: string;
  /** Set on a clock-less form: the scenario it stands in for (it is not a test of its own). */
  formOf?: string;
  /** `clock`/`funding` the scenario needs by its own declaration or clock steps, not by its clauses (absent: none). */
  ownClockNeeds?: Capability[];
}

export interface StepGroup {
  name: string;
  params: Record<string, unknown>;
  /** Parameters without a default must be passed with `with:`. */
  required: string[];
  steps: LocatedStep[];
  source: SourceLocation;
}

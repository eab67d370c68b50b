/**
 * The outcome of one scenario run, as data. The conformance entry writes it once, where the scenario ends
 * (specs/scenario-tests.ts, through record-outcome.ts), as a test annotation of type `ftf-outcome` whose
 * description is the JSON record. readOutcome is the one reader: every consumer (verdicts, console summary,
 * certificate, JUnit, Allure, the mutation matrix) gets the record from it, and no consumer looks inside error
 * text to decide anything. Playwright's own status wins where the test never reached the entry's catch: a
 * timeout, an interrupted run or a crashed worker becomes `errored` with the reason.
 */
import { ERROR_KINDS, kindOf, type ErrorKind } from './error-codes.js';

export type OutcomeStatus = 'passed' | 'failed' | 'errored' | 'skipped' | 'not-applicable' | 'waived';

export const OUTCOME_ANNOTATION = 'ftf-outcome';

/** How one check ended. `errored`: the check could not be judged (its input broke); `not-applicable`: it had nothing to judge. */
export type CheckStatus = 'passed' | 'failed' | 'errored' | 'not-applicable';
export const CHECK_STATUSES: readonly CheckStatus[] = ['passed', 'failed', 'errored', 'not-applicable'];
export type CheckLevel = 'must' | 'should';

/**
 * One check of the scenario, as data: the clause(s) it judges, their level (which decides pass / warn / fail)
 * and how it ended, with its evidence (the YAML location, the step, the exchanges recorded by then). Passed
 * checks are kept once per (check, clauses, level) with a count; every failed one is kept on its own.
 */
export interface CheckOutcome {
  check: string;
  clauses: string[];
  level: CheckLevel;
  status: CheckStatus;
  /** How many checks this entry stands for (passed checks of the same kind and clauses). */
  count?: number;
  message?: string;
  expected?: string;
  actual?: string;
  /** The YAML position of the check (file:line:col). */
  location?: string;
  step?: string;
  /** Attachment names of the exchanges recorded when it failed (the last one is the one judged). */
  exchanges?: string[];
  /** Its failure shows that one of `clauses` is broken, not which: each is "in doubt" with the others. */
  inDoubt?: boolean;
}

/** A should-level check that failed in a scenario that otherwise ran to its end. */
export interface OutcomeWarning {
  check: string;
  message: string;
  clauses: string[];
}

export interface OutcomeRecord {
  status: OutcomeStatus;
  /** The FtfError code that ended the scenario (FTF_E_INTERNAL for an untyped error). */
  code?: string;
  kind?: ErrorKind;
  /** One line: the skip reason, or the first line of the failure. */
  reason?: string;
  /** Clause ids of the failing checks (status failed); empty otherwise. */
  clauses: string[];
  /** Kinds of the failing checks (`status`, `schema`, …). */
  checks: string[];
  /** Title of the innermost step the error left. */
  step?: string;
  /** Its YAML position, file:line:col. */
  location?: string;
  /** Attachment names of the recorded exchanges, in order. */
  exchanges: string[];
  /** The test's HAR file (redacted). */
  har?: string;
  warnings: OutcomeWarning[];
  /** Values of the profile's `implementation.version_header` in the test's responses (implementation.ts). */
  implementationVersions?: string[];
  /** Every check the scenario ran (passed ones aggregated): what clause verdicts are made of. */
  outcomes?: CheckOutcome[];
}

/** What the reader needs from a Playwright test, whichever API it came through (JSON report or reporter). */
export interface TestFacts {
  /** Annotations of the test and of its last attempt. */
  annotations: ReadonlyArray<{ type: string; description?: string }>;
  /** Status of the last attempt: passed, failed, timedOut, skipped, interrupted (undefined: never ran). */
  lastStatus: string | undefined;
  /** The Playwright timeout of the test, for the reason of a timeout. */
  timeoutMs?: number;
  /** First line of Playwright's error, shown as the reason when no record exists (never parsed). */
  firstErrorLine?: string;
}

export function encodeOutcome(record: OutcomeRecord): { type: string; description: string } {
  return { type: OUTCOME_ANNOTATION, description: JSON.stringify(record) };
}

/**
 * The record's facts as the last line of the error's stack (`outcome: failed non-conformance FTF_E_CHECK_FAILED
 * checks=status clauses=RES-HEALTH`): tools that only see error text (Allure categories, allure.ts) match this
 * harness-written line, anchored at the end of the trace where no response body can put text.
 */
export function outcomeLine(r: OutcomeRecord): string {
  const doubt = doubtOf(r);
  return `outcome: ${r.status} ${r.kind ?? '-'} ${r.code ?? '-'} checks=${r.checks.join(',')} clauses=${r.clauses.join(',')}${doubt.length ? ` in_doubt=${doubt.map((d) => d.clauses.join('/')).join(',')}` : ''}`;
}

/** The failed checks of a record that leave their clauses in doubt (one of them broke, not known which). */
export function doubtOf(r: Pick<OutcomeRecord, 'outcomes'>): CheckOutcome[] {
  return (r.outcomes ?? []).filter((o) => o.status === 'failed' && o.inDoubt === true);
}

const EMPTY = { clauses: [], checks: [], exchanges: [], warnings: [], outcomes: [] } satisfies Partial<OutcomeRecord>;

const OUTCOME_STATUSES: ReadonlySet<string> = new Set<OutcomeStatus>(['passed', 'failed', 'errored', 'skipped', 'not-applicable', 'waived']);
const isStrings = (v: unknown): boolean => Array.isArray(v) && v.every((x) => typeof x === 'string');

/** The record's shape holds (a record whose structure was altered on its way is no record: errored, never a crash). */
function wellFormed(r: Partial<OutcomeRecord>): boolean {
  return typeof r.status === 'string' && OUTCOME_STATUSES.has(r.status)
    && (r.kind === undefined || ERROR_KIND_SET.has(r.kind))
    && isStrings(r.clauses ?? []) && isStrings(r.checks ?? []) && isStrings(r.exchanges ?? [])
    && Array.isArray(r.warnings ?? []) && Array.isArray(r.outcomes ?? [])
    && (r.outcomes ?? []).every((o) => typeof o === 'object' && o !== null && CHECK_STATUS_SET.has(o.status) && isStrings(o.clauses) && (o.level === 'must' || o.level === 'should'));
}

const ERROR_KIND_SET: ReadonlySet<string> = new Set(ERROR_KINDS);
const CHECK_STATUS_SET: ReadonlySet<string> = new Set(CHECK_STATUSES);

/** The last record of the test: `unreadable` when one was written but does not parse into a record. */
function recorded(facts: TestFacts): OutcomeRecord | 'unreadable' | undefined {
  const last = [...facts.annotations].reverse().find((a) => a.type === OUTCOME_ANNOTATION && a.description);
  if (!last) return undefined;
  try {
    const parsed = JSON.parse(last.description!) as Partial<OutcomeRecord>;
    if (typeof parsed !== 'object' || parsed === null || !wellFormed(parsed)) return 'unreadable';
    return { ...EMPTY, ...parsed } as OutcomeRecord;
  } catch {
    return 'unreadable';
  }
}

/**
 * Keys of the record whose values are the harness's own vocabulary (statuses, kinds, codes, clause ids, check
 * names, levels), each with the shape it must have. The redacting reporter leaves a value of that shape as it
 * is (a target cannot write into it, and a secret that happens to spell `failed` or a clause id reveals nothing
 * by the word printed there); every other string of the record is free text and is redacted on its own. So a
 * secret's value can never alter the record's structure (issue 29).
 */
const VOCABULARY: Readonly<Record<string, RegExp>> = {
  status: /^(passed|failed|errored|skipped|not-applicable|waived)$/,
  kind: /^(non-conformance|target|input|internal)$/,
  code: /^FTF_E_[A-Z0-9_]+$/,
  clauses: /^[A-Z][A-Z0-9_]*(-[A-Z0-9_]+)*$/,
  checks: /^[a-z][a-z0-9_]*(:[a-z0-9][a-z0-9_.-]*)?$/,
  check: /^[a-z][a-z0-9_]*(:[a-z0-9][a-z0-9_.-]*)?$/,
  level: /^(must|should)$/,
};

/** Redacts the free text of an encoded record, field by field; text that is no record is redacted whole. */
export function redactOutcomeDescription(description: string, redact: (text: string) => string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(description);
  } catch {
    return redact(description);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return redact(description);
  return JSON.stringify(redactFields(parsed, undefined, redact));
}

function redactFields(value: unknown, key: string | undefined, redact: (text: string) => string): unknown {
  if (typeof value === 'string') {
    const shape = key === undefined ? undefined : VOCABULARY[key];
    return shape?.test(value) ? value : redact(value);
  }
  if (Array.isArray(value)) return value.map((v) => redactFields(v, key, redact));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    // Keys are the harness's own field names; a key that is not one is redacted like free text.
    for (const [k, v] of Object.entries(value)) out[/^[A-Za-z][A-Za-z0-9_]*$/.test(k) ? k : redact(k)] = redactFields(v, k, redact);
    return out;
  }
  return value;
}

function annotation(facts: TestFacts, ...types: string[]): string | undefined {
  const a = facts.annotations.find((x) => types.includes(x.type));
  return a === undefined ? undefined : (a.description ?? '').trim();
}

/** The record of one test. */
export function readOutcome(facts: TestFacts): OutcomeRecord {
  const found = recorded(facts);
  if (found === 'unreadable') return unreadable(facts);
  const record = found;
  const na = annotation(facts, 'not-applicable');
  if (na !== undefined) return { ...EMPTY, ...record, status: 'not-applicable', reason: na || 'not applicable' };
  if (facts.lastStatus === 'skipped' || facts.lastStatus === undefined) {
    const reason = annotation(facts, 'skip', 'fixme') || 'skipped';
    // A skip whose reason says "not applicable" (test.skip(cond, 'not applicable: ...')) is not a gap in coverage.
    return { ...EMPTY, status: reason.toLowerCase().startsWith('not applicable') ? 'not-applicable' : 'skipped', reason };
  }
  if (facts.lastStatus === 'timedOut') {
    return {
      ...EMPTY,
      ...record,
      status: 'errored',
      code: 'FTF_E_SCENARIO_TIMEOUT',
      kind: kindOf('FTF_E_SCENARIO_TIMEOUT'),
      reason: `the scenario did not finish within its timeout${facts.timeoutMs ? ` (${facts.timeoutMs} ms)` : ''}`,
      clauses: [],
      checks: [],
    };
  }
  if (facts.lastStatus === 'interrupted') {
    return { ...EMPTY, ...record, status: 'errored', code: 'FTF_E_SCENARIO_INTERRUPTED', kind: kindOf('FTF_E_SCENARIO_INTERRUPTED'), reason: 'the run was interrupted before the scenario finished', clauses: [], checks: [] };
  }
  if (record) {
    // A record that says passed on a test Playwright failed: the failure happened after the entry's catch
    // (fixture teardown, a worker crash); that is the harness breaking.
    if (facts.lastStatus === 'failed' && record.status === 'passed') return noRecord(facts, record);
    return record;
  }
  if (facts.lastStatus === 'passed') return { ...EMPTY, status: 'passed' };
  return noRecord(facts);
}

/** A record was written but its structure did not survive (never a crash of every report downstream). */
function unreadable(facts: TestFacts): OutcomeRecord {
  return { ...EMPTY, status: 'errored', code: 'FTF_E_INTERNAL', kind: 'internal', reason: `the outcome record of the test is unreadable${facts.lastStatus ? ` (Playwright: ${facts.lastStatus})` : ''}` };
}

/** Failed before or after the entry recorded anything: fixture set-up, worker crash, a test without the entry. */
function noRecord(facts: TestFacts, partial?: OutcomeRecord): OutcomeRecord {
  const why = facts.firstErrorLine?.trim();
  return {
    ...EMPTY,
    ...(partial
      ? {
          exchanges: partial.exchanges,
          ...(partial.har ? { har: partial.har } : {}),
          warnings: partial.warnings,
          ...(partial.implementationVersions ? { implementationVersions: partial.implementationVersions } : {}),
        }
      : {}),
    status: 'errored',
    code: 'FTF_E_INTERNAL',
    kind: 'internal',
    reason: `the test failed outside the scenario (no outcome recorded)${why ? `: ${why}` : ''}`,
  };
}

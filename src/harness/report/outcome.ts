/**
 * The outcome of one scenario run, as data. The conformance entry writes it once, where the scenario ends
 * (specs/scenario-tests.ts, through record-outcome.ts), as a test annotation of type `ftf-outcome` whose
 * description is the JSON record. readOutcome is the one reader: every consumer (verdicts, console summary,
 * certificate, JUnit, Allure, the mutation matrix) gets the record from it, and no consumer looks inside error
 * text to decide anything. Playwright's own status wins where the test never reached the entry's catch: a
 * timeout, an interrupted run or a crashed worker becomes `errored` with the reason.
 */
import { kindOf, type ErrorKind } from './error-codes.js';

export type OutcomeStatus = 'passed' | 'failed' | 'errored' | 'skipped' | 'not-applicable' | 'waived';

export const OUTCOME_ANNOTATION = 'ftf-outcome';

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
  return `outcome: ${r.status} ${r.kind ?? '-'} ${r.code ?? '-'} checks=${r.checks.join(',')} clauses=${r.clauses.join(',')}`;
}

const EMPTY = { clauses: [], checks: [], exchanges: [], warnings: [] } satisfies Partial<OutcomeRecord>;

function recorded(facts: TestFacts): OutcomeRecord | undefined {
  const last = [...facts.annotations].reverse().find((a) => a.type === OUTCOME_ANNOTATION && a.description);
  if (!last) return undefined;
  try {
    const parsed = JSON.parse(last.description!) as OutcomeRecord;
    return { ...EMPTY, ...parsed };
  } catch {
    return undefined;
  }
}

function annotation(facts: TestFacts, ...types: string[]): string | undefined {
  const a = facts.annotations.find((x) => types.includes(x.type));
  return a === undefined ? undefined : (a.description ?? '').trim();
}

/** The record of one test. */
export function readOutcome(facts: TestFacts): OutcomeRecord {
  const record = recorded(facts);
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

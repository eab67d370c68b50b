/**
 * Verdicts of the mutation matrix, from the outcome records (src/harness/report/records/outcome.ts). A fault is
 * `killed` only when a scenario FAILED a check whose clause ids include one of the clauses the fault breaks
 * (killed for the right reason); `killed-incidentally` when checks fail, but only about other clauses;
 * `survived` when no check fails. A scenario that errored (target trouble, timeout, harness bug) or was
 * skipped never kills: it proves nothing about the target's answers.
 */
import type { TestRecord } from './pw-report.js';

export type Verdict = 'killed' | 'killed-incidentally' | 'survived';

export interface FaultResult {
  name: string;
  clauses: string[];
  /** Scenarios that failed a check (whatever its clauses). */
  failingScenarios: string[];
  /** Scenarios that errored under the fault: they count for nothing, listed to show where to look. */
  erroredScenarios: string[];
  verdict: Verdict;
  /** Clauses the verdict named broken: those of every failed check of the fault's failing scenarios. */
  named?: string[];
  /** How exactly the named clauses match the fault's own (issue 24). */
  precision?: Precision;
}

/**
 * `exact`: every clause named is one of the fault's (and one at least is named); `one-extra`: one clause
 * named that the fault does not break; `more`: two or more; `none`: nothing named (not killed).
 */
export type Precision = 'exact' | 'one-extra' | 'more' | 'none';

export function precisionOf(faultClauses: readonly string[], named: readonly string[]): Precision {
  if (named.length === 0) return 'none';
  const extra = named.filter((c) => !faultClauses.includes(c)).length;
  return extra === 0 ? 'exact' : extra === 1 ? 'one-extra' : 'more';
}

/**
 * The clauses the fault's failing records named broken: their failed checks' clauses, as the verdict does
 * (report/verdicts/verdicts.ts): a check that leaves its clauses in doubt names them only when none of them is
 * proven broken by another failed check of the run (a proven breach explains it).
 */
export function namedClauses(records: readonly TestRecord[]): string[] {
  const failing = records.filter(failedCheck);
  const checks = failing.flatMap((t) => (t.outcome.outcomes ?? []).filter((o) => o.status === 'failed'));
  const proven = new Set(checks.filter((o) => !o.inDoubt).flatMap((o) => o.clauses));
  const named = new Set(proven);
  for (const o of checks) if (o.inDoubt && !o.clauses.some((c) => proven.has(c))) o.clauses.forEach((c) => named.add(c));
  // A record without check outcomes (an older writer): the clauses it names.
  for (const t of failing) if (!(t.outcome.outcomes ?? []).some((o) => o.status === 'failed')) t.outcome.clauses.forEach((c) => named.add(c));
  return [...named].sort();
}

/** Precision over the killed faults: how many name exactly their clauses, one extra, more (docs/mutation.md). */
export function precisionTally(faults: readonly FaultResult[]): { killed: number; exact: number; oneExtra: number; more: number; percentExact: number } {
  const killed = faults.filter((f) => f.verdict === 'killed');
  const exact = killed.filter((f) => f.precision === 'exact').length;
  const oneExtra = killed.filter((f) => f.precision === 'one-extra').length;
  const more = killed.filter((f) => f.precision === 'more').length;
  return { killed: killed.length, exact, oneExtra, more, percentExact: killed.length ? Math.round((1000 * exact) / killed.length) / 10 : 0 };
}

/** Exactly the shape of reports/mutation.json. */
export interface MutationReport {
  clean: { passed: number; failed: number };
  faults: FaultResult[];
}

const failedCheck = (r: TestRecord): boolean => r.outcome.status === 'failed';

export function verdictOf(faultClauses: readonly string[], records: readonly TestRecord[]): Verdict {
  const failing = records.filter(failedCheck);
  if (failing.length === 0) return 'survived';
  const wanted = new Set(faultClauses);
  return failing.some((t) => t.outcome.clauses.some((c) => wanted.has(c))) ? 'killed' : 'killed-incidentally';
}

/** The fault's result from every test record of its project (one or two passes). */
export function faultResult(name: string, clauses: readonly string[], records: readonly TestRecord[]): FaultResult {
  const scenarios = (keep: (r: TestRecord) => boolean): string[] => [...new Set(records.filter(keep).map((r) => r.scenario))].sort();
  return {
    name,
    clauses: [...clauses],
    failingScenarios: scenarios(failedCheck),
    erroredScenarios: scenarios((r) => r.outcome.status === 'errored'),
    verdict: verdictOf(clauses, records),
    named: namedClauses(records),
    precision: precisionOf(clauses, namedClauses(records)),
  };
}

/** Conservative for the clean run: anything that ran and did not pass (failed or errored) is a false alarm. */
export function cleanResult(records: readonly TestRecord[]): MutationReport['clean'] {
  return {
    passed: records.filter((r) => r.outcome.status === 'passed').length,
    failed: records.filter((r) => r.outcome.status === 'failed' || r.outcome.status === 'errored').length,
  };
}

/** The run is green: a clean reference without failures and every fault killed for the right reason. */
export function matrixOk(report: MutationReport): boolean {
  return report.clean.failed === 0 && report.faults.every((f) => f.verdict === 'killed');
}

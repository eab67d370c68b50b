/**
 * Verdicts of the mutation matrix, from the outcome records (src/harness/report/outcome.ts). A fault is
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

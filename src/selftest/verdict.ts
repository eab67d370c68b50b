/**
 * Verdicts of the mutation matrix. A fault is `killed` only when at least one failing scenario covers one of
 * the clauses the fault breaks (killed for the right reason); `killed-incidentally` when only unrelated
 * scenarios fail; `survived` when nothing fails.
 */
import type { TestRecord } from './pw-report.js';

export type Verdict = 'killed' | 'killed-incidentally' | 'survived';

export interface FaultResult {
  name: string;
  clauses: string[];
  failingScenarios: string[];
  verdict: Verdict;
}

/** Exactly the shape of reports/mutation.json. */
export interface MutationReport {
  clean: { passed: number; failed: number };
  faults: FaultResult[];
}

export function verdictOf(faultClauses: readonly string[], failing: readonly TestRecord[]): Verdict {
  if (failing.length === 0) return 'survived';
  const wanted = new Set(faultClauses);
  return failing.some((t) => t.clauses.some((c) => wanted.has(c))) ? 'killed' : 'killed-incidentally';
}

/** The fault's result from every test record of its project (one or two passes); `broken` tests never kill. */
export function faultResult(name: string, clauses: readonly string[], records: readonly TestRecord[]): FaultResult {
  const failing = records.filter((r) => r.outcome === 'failed');
  return {
    name,
    clauses: [...clauses],
    failingScenarios: [...new Set(failing.map((r) => r.scenario))].sort(),
    verdict: verdictOf(clauses, failing),
  };
}

/** Conservative for the clean run: a test Playwright could not run counts as a failure (no false assurance). */
export function cleanResult(records: readonly TestRecord[]): MutationReport['clean'] {
  return {
    passed: records.filter((r) => r.outcome === 'passed').length,
    failed: records.filter((r) => r.outcome === 'failed' || r.outcome === 'broken').length,
  };
}

/** The run is green: a clean reference without failures and every fault killed for the right reason. */
export function matrixOk(report: MutationReport): boolean {
  return report.clean.failed === 0 && report.faults.every((f) => f.verdict === 'killed');
}

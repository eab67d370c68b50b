/**
 * Verdicts: one per scenario, one per clause (the worst of its scenarios), totals and the overall verdict.
 * A run that executed no scenario is `nothing-tested`, never green.
 */
import type { ClauseCatalogue, ClauseLevel } from '../../spec/clauses.js';
import { clauseCoverage, coverageGateProblems, JUDGED_VERDICTS, type ClauseCoverage, type CoverageGate } from './clause-coverage.js';
import type { ImplementationVersion } from '../records/implementation.js';
import type { CheckOutcome, OutcomeRecord } from '../records/outcome.js';
import type { ScenarioResult } from '../records/scenario-results.js';
import type { TestTally } from './test-tally.js';

export type ScenarioVerdict = 'passed' | 'failed' | 'warning' | 'skipped' | 'not-applicable' | 'errored' | 'waived';
/** `in-doubt`: a failed check shows that this clause or another one is broken, not which (ClauseOutcome.doubts). */
export type ClauseVerdict = ScenarioVerdict | 'not-tested' | 'in-doubt';
export type OverallVerdict = 'conformant' | 'non-conformant' | 'nothing-tested';
export type FailOn = 'must' | 'should';

export const SCENARIO_VERDICTS: readonly ScenarioVerdict[] = ['passed', 'failed', 'warning', 'errored', 'waived', 'skipped', 'not-applicable'];
/** Verdicts that mean the scenario actually ran against the target. */
export const EXECUTED: ReadonlySet<ScenarioVerdict> = new Set(['passed', 'failed', 'warning', 'errored', 'waived']);
/** Worst first: a clause takes the first of these that any of its scenarios has. */
const SEVERITY: readonly ClauseVerdict[] = ['failed', 'in-doubt', 'errored', 'warning', 'waived', 'passed', 'skipped', 'not-applicable', 'not-tested'];

/** The scenario's identity and timing come from its Playwright result; the rest is the verdict. */
export interface ScenarioOutcome extends Pick<ScenarioResult, 'id' | 'title' | 'file' | 'family' | 'clauses' | 'tags' | 'durationMs'> {
  /** must when any covered clause is must (or unknown / none). */
  level: ClauseLevel;
  verdict: ScenarioVerdict;
  /** Skip / not-applicable reason, or the failure's one-line reason from the record. */
  reason?: string;
  /** Full failure messages (already redacted by the recorder/engine). */
  messages: string[];
  /** The harness itself broke (error kind internal) or a scenario file is invalid: the run cannot be trusted. */
  internal: boolean;
  /** The outcome record the verdict was made from (outcome.ts). */
  record: OutcomeRecord;
  flaky: boolean;
  /** Set by applyWaivers. */
  waivedBy?: string[];
}

export interface ClauseOutcome {
  id: string;
  level: ClauseLevel;
  verdict: ClauseVerdict;
  /**
   * The scenarios that judged the clause, each with the clause's verdict there (not the scenario's): failed
   * only when a check of THIS clause failed; a scenario that failed on another clause's check passed this one
   * when one of its checks of this clause passed, else left it `not-tested`.
   */
  scenarios: { id: string; verdict: ClauseVerdict }[];
  /** When in doubt: the clauses it is in doubt with and the evidence linking them (the failed check), per scenario. */
  doubts?: ClauseDoubt[];
}

/** One failed check that leaves its clauses in doubt: which others, where, and what it saw. */
export interface ClauseDoubt {
  with: string[];
  scenario: string;
  check: string;
  message?: string;
  location?: string;
}

export type Totals = Record<ScenarioVerdict, number> & { total: number; executed: number };

export interface VerdictSummary {
  overall: OverallVerdict;
  failOn: FailOn;
  totals: Totals;
  scenarios: ScenarioOutcome[];
  clauses: ClauseOutcome[];
  /** Clause ids named by scenarios but absent from clauses.yaml. */
  unknownClauses: string[];
  /** Problems that fail the run on their own (waiver problems, run-level errors). */
  problems: string[];
  /** Informational notes (unused waivers in a filtered run, ignored must-waivers in certification). */
  notes: string[];
  /** The run's Playwright tests (one per scenario and project; test-tally.ts), when known. */
  tests?: TestTally;
  /** The implementation under test (implementation.ts), when known. */
  implementation?: ImplementationVersion;
  /** Clauses judged / not judged by level, skips by reason (clause-coverage.ts). */
  coverage: ClauseCoverage;
}

/**
 * The verdict of one scenario, from its outcome record alone (no error text is looked at): failed when a check
 * failed (a warning when every covered clause is should-level), errored when the target or the harness broke.
 */
export function scenarioOutcome(r: ScenarioResult, catalogue: ClauseCatalogue): ScenarioOutcome {
  const rec = r.record;
  const levels = r.clauses.map((id) => catalogue.byId.get(id)?.level ?? 'must');
  const level: ClauseLevel = levels.length > 0 && levels.every((l) => l === 'should') ? 'should' : 'must';
  // The failed checks' own levels decide (a must-level check fails the run inside a should-level scenario);
  // a record without check outcomes (an older writer) falls back to the levels of the clauses it names.
  const failedChecks = (rec.outcomes ?? []).filter((o) => o.status === 'failed');
  const failedLevel: ClauseLevel = failedChecks.length > 0
    ? (failedChecks.some((o) => o.level === 'must') ? 'must' : 'should')
    : rec.clauses.length > 0 ? (rec.clauses.some((id) => (catalogue.byId.get(id)?.level ?? 'must') === 'must') ? 'must' : 'should') : level;
  const base = { id: r.id, title: r.title, file: r.file, family: r.family, clauses: r.clauses, tags: r.tags, level, messages: r.errors, durationMs: r.durationMs, record: rec, internal: false, flaky: false };
  const reason = rec.reason;
  switch (rec.status) {
    case 'not-applicable':
    case 'skipped':
      return { ...base, verdict: rec.status, reason: reason ?? rec.status };
    case 'passed':
    case 'waived': {
      const flaky = r.outcome === 'flaky';
      const warnings = rec.warnings.map((w) => `[${w.check}] ${w.message}`);
      if (warnings.length > 0) return { ...base, verdict: 'warning', reason: warnings[0]!, messages: warnings, flaky };
      return { ...base, verdict: 'passed', flaky };
    }
    case 'errored':
      // A harness bug, or a broken scenario file (specs/scenario-tests.ts tags its test @invalid-scenario).
      return { ...base, verdict: 'errored', reason: reason ?? 'errored', internal: rec.kind === 'internal' || r.tags.includes('invalid-scenario') };
    case 'failed':
      return { ...base, verdict: failedLevel === 'should' ? 'warning' : 'failed', reason: reason ?? 'failed' };
  }
}

/**
 * What one scenario says about each clause it judged: its covered clauses, and any other clause one of its
 * checks judged and failed (a response rule's clause). A clause is failed (or a warning, at should level) only
 * by a failed check naming it; the scenario's other covered clauses are passed when a check of theirs passed,
 * else not tested. An errored scenario blames none of its clauses: each is errored (not judged: the run cannot vouch
 * for it), except one a check had already failed before the scenario broke off (that check's judgement stands).
 */
export function clauseVerdictsOf(s: Pick<ScenarioOutcome, 'clauses' | 'verdict' | 'record'>): Map<string, ClauseVerdict> {
  const out = new Map<string, ClauseVerdict>();
  const outcomes = s.record.outcomes ?? [];
  const failedHere = (c: string): 'failed' | 'in-doubt' | 'warning' | undefined => {
    const failing = outcomes.filter((o) => o.status === 'failed' && o.clauses.includes(c));
    if (failing.length === 0) return undefined;
    // A check that names the clause alone is proof; one that leaves it in doubt with others is not.
    const proof = failing.filter((o) => !o.inDoubt);
    if (proof.length > 0) return proof.some((o) => o.level === 'must') ? 'failed' : 'warning';
    return failing.some((o) => o.level === 'must') ? 'in-doubt' : 'warning';
  };
  if (s.verdict === 'errored') {
    for (const c of new Set([...s.clauses, ...outcomes.filter((o) => o.status === 'failed').flatMap((o) => o.clauses)])) out.set(c, failedHere(c) ?? 'errored');
    return out;
  }
  const failing = s.verdict === 'failed' || s.verdict === 'warning';
  const judged = new Set([...s.clauses, ...(failing ? [...outcomes.filter((o) => o.status === 'failed').flatMap((o) => o.clauses), ...s.record.clauses] : [])]);
  for (const c of judged) {
    const failed = failing ? failedHere(c) : undefined;
    if (failed) {
      out.set(c, failed);
      continue;
    }
    if (failing && s.record.status === 'failed') {
      // The record names the failing clauses: without a check outcome of its own (an older record), a named clause failed.
      if (outcomes.length === 0) out.set(c, s.record.clauses.length === 0 || s.record.clauses.includes(c) ? s.verdict : 'not-tested');
      else out.set(c, outcomes.some((o) => o.status === 'passed' && o.clauses.includes(c)) ? 'passed' : 'not-tested');
      continue;
    }
    // A passing scenario with warnings: only the warned clauses are warnings.
    if (s.verdict === 'warning' && s.record.status !== 'failed') {
      out.set(c, s.record.warnings.some((w) => w.clauses.includes(c)) ? 'warning' : 'passed');
      continue;
    }
    if (s.clauses.includes(c)) out.set(c, s.verdict);
  }
  return out;
}

/**
 * A failed check that leaves its clauses in doubt is explained when one of them is proven broken (a check naming it
 * alone failed, anywhere in the run): that breach accounts for the check, so it leaves no other clause in doubt.
 */
const explained = (o: CheckOutcome, proven: ReadonlySet<string>): boolean => o.inDoubt === true && o.clauses.some((c) => proven.has(c));

/** Per clause, the failed checks of failing scenarios that leave it in doubt with other clauses (unexplained ones). */
function doubtsOf(scenarios: readonly ScenarioOutcome[], proven: ReadonlySet<string>): Map<string, ClauseDoubt[]> {
  const out = new Map<string, ClauseDoubt[]>();
  for (const s of scenarios) {
    if (s.verdict !== 'failed' && s.verdict !== 'warning') continue;
    for (const o of s.record.outcomes ?? []) {
      if (o.status !== 'failed' || !o.inDoubt || explained(o, proven)) continue;
      for (const c of o.clauses) {
        const entry: ClauseDoubt = {
          with: o.clauses.filter((x) => x !== c), scenario: s.id, check: o.check,
          ...(o.message !== undefined ? { message: o.message } : {}), ...(o.location !== undefined ? { location: o.location } : {}),
        };
        out.set(c, [...(out.get(c) ?? []), entry]);
      }
    }
  }
  return out;
}

/** "A / B" for each group of clauses left in doubt together (console, JUnit, certificate). */
export function doubtGroups(clauses: readonly ClauseOutcome[]): string[] {
  const groups = new Set<string>();
  for (const c of clauses) for (const d of c.doubts ?? []) groups.add([c.id, ...d.with].sort().join(' / '));
  return [...groups];
}

export function worst(verdicts: readonly ClauseVerdict[]): ClauseVerdict {
  return SEVERITY.find((v) => verdicts.includes(v)) ?? 'not-tested';
}

/** Builds the whole summary from scenario outcomes (call again after applyWaivers changed some). */
export function summarize(
  scenarios: ScenarioOutcome[],
  catalogue: ClauseCatalogue,
  options: { failOn?: FailOn; problems?: string[]; notes?: string[]; tests?: TestTally; implementation?: ImplementationVersion; coverageGate?: CoverageGate } = {},
): VerdictSummary {
  const failOn = options.failOn ?? 'must';
  const totals = Object.fromEntries(SCENARIO_VERDICTS.map((v) => [v, 0])) as Totals;
  for (const s of scenarios) totals[s.verdict]++;
  totals.total = scenarios.length;
  totals.executed = scenarios.filter((s) => EXECUTED.has(s.verdict)).length;

  const byClause = new Map<string, { id: string; verdict: ClauseVerdict }[]>();
  for (const s of scenarios) for (const [c, verdict] of clauseVerdictsOf(s)) byClause.set(c, [...(byClause.get(c) ?? []), { id: s.id, verdict }]);
  // A doubt explained by a proven breach of another of its clauses blames nothing more: not tested there.
  const proven = new Set([...byClause].filter(([, list]) => list.some((x) => x.verdict === 'failed')).map(([c]) => c));
  const byId = new Map(scenarios.map((s) => [s.id, s]));
  for (const [c, list] of byClause) {
    for (const entry of list) {
      if (entry.verdict !== 'in-doubt') continue;
      const doubting = (byId.get(entry.id)?.record.outcomes ?? []).filter((o) => o.status === 'failed' && o.inDoubt && o.clauses.includes(c));
      if (doubting.length > 0 && doubting.every((o) => explained(o, proven))) entry.verdict = 'not-tested';
    }
  }
  const doubts = doubtsOf(scenarios, proven);
  const clauses: ClauseOutcome[] = catalogue.clauses.map((c) => {
    const list = byClause.get(c.id) ?? [];
    const verdict = worst(list.map((x) => x.verdict));
    const doubt = verdict === 'in-doubt' ? doubts.get(c.id) : undefined;
    return { id: c.id, level: c.level, verdict, scenarios: list, ...(doubt ? { doubts: doubt } : {}) };
  });
  const unknownClauses = [...byClause.keys()].filter((id) => !catalogue.byId.has(id)).sort();
  const byScenario = new Map(scenarios.map((s) => [s.id, s]));
  const coverage = clauseCoverage(scenarios, catalogue, (s) => {
    const outcome = byScenario.get(s.id);
    return outcome ? [...clauseVerdictsOf(outcome)].filter(([, v]) => JUDGED_VERDICTS.has(v)).map(([c]) => c) : [];
  });
  // A gate's coverage requirement not met is a problem of the verdict (exit 1), with the list.
  const problems = [...(options.problems ?? []), ...coverageGateProblems(coverage, options.coverageGate ?? {})];
  const failing = totals.failed + totals.errored + (failOn === 'should' ? totals.warning : 0);
  const overall: OverallVerdict = totals.executed === 0 ? 'nothing-tested' : failing > 0 || problems.length > 0 ? 'non-conformant' : 'conformant';
  return {
    overall, failOn, totals, scenarios, clauses, unknownClauses, problems, notes: [...(options.notes ?? [])],
    ...(options.tests ? { tests: options.tests } : {}),
    ...(options.implementation ? { implementation: options.implementation } : {}),
    coverage,
  };
}

/** Exit code of the table in docs/cli.md: 0 conformant, 1 non-conformant, 2 nothing tested, 3 internal error. */
export function exitCodeFor(summary: VerdictSummary): 0 | 1 | 2 | 3 {
  if (summary.scenarios.some((s) => s.internal && s.verdict === 'errored')) return 3;
  return summary.overall === 'conformant' ? 0 : summary.overall === 'non-conformant' ? 1 : 2;
}

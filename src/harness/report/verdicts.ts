/**
 * Verdicts: one per scenario, one per clause (the worst of its scenarios), totals and the overall verdict.
 * A run that executed no scenario is `nothing-tested`, never green.
 */
import type { ClauseCatalogue, ClauseLevel } from '../spec/clauses.js';
import type { ImplementationVersion } from './implementation.js';
import type { OutcomeRecord } from './outcome.js';
import type { ScenarioResult } from './scenario-results.js';
import type { TestTally } from './test-tally.js';

export type ScenarioVerdict = 'passed' | 'failed' | 'warning' | 'skipped' | 'not-applicable' | 'errored' | 'waived';
export type ClauseVerdict = ScenarioVerdict | 'not-tested';
export type OverallVerdict = 'conformant' | 'non-conformant' | 'nothing-tested';
export type FailOn = 'must' | 'should';

export const SCENARIO_VERDICTS: readonly ScenarioVerdict[] = ['passed', 'failed', 'warning', 'errored', 'waived', 'skipped', 'not-applicable'];
/** Verdicts that mean the scenario actually ran against the target. */
export const EXECUTED: ReadonlySet<ScenarioVerdict> = new Set(['passed', 'failed', 'warning', 'errored', 'waived']);
/** Worst first: a clause takes the first of these that any of its scenarios has. */
const SEVERITY: readonly ClauseVerdict[] = ['failed', 'errored', 'warning', 'waived', 'passed', 'skipped', 'not-applicable', 'not-tested'];

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
  scenarios: { id: string; verdict: ScenarioVerdict }[];
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
}

/**
 * The verdict of one scenario, from its outcome record alone (no error text is looked at): failed when a check
 * failed (a warning when every covered clause is should-level), errored when the target or the harness broke.
 */
export function scenarioOutcome(r: ScenarioResult, catalogue: ClauseCatalogue): ScenarioOutcome {
  const rec = r.record;
  const levels = r.clauses.map((id) => catalogue.byId.get(id)?.level ?? 'must');
  const level: ClauseLevel = levels.length > 0 && levels.every((l) => l === 'should') ? 'should' : 'must';
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
      return { ...base, verdict: level === 'should' ? 'warning' : 'failed', reason: reason ?? 'failed' };
  }
}

export function worst(verdicts: readonly ClauseVerdict[]): ClauseVerdict {
  return SEVERITY.find((v) => verdicts.includes(v)) ?? 'not-tested';
}

/** Builds the whole summary from scenario outcomes (call again after applyWaivers changed some). */
export function summarize(
  scenarios: ScenarioOutcome[],
  catalogue: ClauseCatalogue,
  options: { failOn?: FailOn; problems?: string[]; notes?: string[]; tests?: TestTally; implementation?: ImplementationVersion } = {},
): VerdictSummary {
  const failOn = options.failOn ?? 'must';
  const totals = Object.fromEntries(SCENARIO_VERDICTS.map((v) => [v, 0])) as Totals;
  for (const s of scenarios) totals[s.verdict]++;
  totals.total = scenarios.length;
  totals.executed = scenarios.filter((s) => EXECUTED.has(s.verdict)).length;

  const byClause = new Map<string, { id: string; verdict: ScenarioVerdict }[]>();
  for (const s of scenarios) for (const c of s.clauses) byClause.set(c, [...(byClause.get(c) ?? []), { id: s.id, verdict: s.verdict }]);
  const clauses: ClauseOutcome[] = catalogue.clauses.map((c) => {
    const list = byClause.get(c.id) ?? [];
    return { id: c.id, level: c.level, verdict: worst(list.map((x) => x.verdict)), scenarios: list };
  });
  const unknownClauses = [...byClause.keys()].filter((id) => !catalogue.byId.has(id)).sort();
  const problems = [...(options.problems ?? [])];
  const failing = totals.failed + totals.errored + (failOn === 'should' ? totals.warning : 0);
  const overall: OverallVerdict = totals.executed === 0 ? 'nothing-tested' : failing > 0 || problems.length > 0 ? 'non-conformant' : 'conformant';
  return {
    overall, failOn, totals, scenarios, clauses, unknownClauses, problems, notes: [...(options.notes ?? [])],
    ...(options.tests ? { tests: options.tests } : {}),
    ...(options.implementation ? { implementation: options.implementation } : {}),
  };
}

/** Exit code of the table in docs/cli.md: 0 conformant, 1 non-conformant, 2 nothing tested, 3 internal error. */
export function exitCodeFor(summary: VerdictSummary): 0 | 1 | 2 | 3 {
  if (summary.scenarios.some((s) => s.internal && s.verdict === 'errored')) return 3;
  return summary.overall === 'conformant' ? 0 : summary.overall === 'non-conformant' ? 1 : 2;
}

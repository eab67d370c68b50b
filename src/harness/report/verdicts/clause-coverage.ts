/**
 * Coverage as part of the verdict (issue 30): which clauses of clauses.yaml a run judged and which it did not,
 * by level, and which scenarios were skipped, by reason. A clause is judged when a scenario covering it ran to a
 * verdict on it: passed, warned or was waived (every clause it covers), or failed (the clauses its failing check
 * broke). An errored or skipped scenario judges nothing. "partial" = a must clause was not judged: a verdict
 * over part of the spec, which the console, verdicts.json, JUnit and the certificate all say.
 *
 * The same function predicts a run (`doctor`: the scenarios a profile will run or skip, scenario/plan.ts), and
 * the gate flags (`run --min-clauses <n|all-must>`, `--max-skipped <n>`) turn a shortfall into problems of
 * the verdict (exit 1, with the list).
 */
import type { ClauseCatalogue, ClauseLevel } from '../../spec/clauses.js';

/** What coverage needs of a scenario's outcome (verdicts.ts ScenarioOutcome has it; doctor builds it from a plan). */
export interface CoverageInput {
  id: string;
  verdict: 'passed' | 'failed' | 'warning' | 'skipped' | 'not-applicable' | 'errored' | 'waived';
  clauses: readonly string[];
  reason?: string;
  /** The clauses a failing check broke (outcome record). */
  record?: { clauses: readonly string[] };
}

export interface NotJudged {
  id: string;
  /** Why: no scenario of the run covers it, or what happened to those that do. */
  reason: string;
}

export interface ClauseCoverage {
  /** Clauses judged / in clauses.yaml, by level. */
  must: { judged: number; total: number };
  should: { judged: number; total: number };
  notJudged: { must: NotJudged[]; should: NotJudged[] };
  /** Scenarios skipped or not applicable, by reason (most first). */
  skipped: { reason: string; scenarios: string[] }[];
  /** 'full': every must clause judged; else 'partial'. */
  status: 'full' | 'partial';
}

export interface CoverageGate {
  /** Judged clauses required: a number (any level), or every must clause. */
  minClauses?: number | 'all-must';
  /** Most scenarios that may be skipped or not applicable. */
  maxSkipped?: number;
}

/** Clause verdicts that are a judgement (errored, skipped, not applicable and not tested are none). */
export const JUDGED_VERDICTS: ReadonlySet<string> = new Set(['passed', 'failed', 'in-doubt', 'warning', 'waived']);

/** Without per-clause verdicts (a prediction): a scenario that runs judges its clauses; a failed one those its check broke. */
function judgedBy(s: CoverageInput): readonly string[] {
  if (s.verdict === 'failed') return s.record?.clauses.length ? s.record.clauses : s.clauses;
  return JUDGED_VERDICTS.has(s.verdict) ? s.clauses : [];
}

/**
 * The coverage of `scenarios` (one per scenario, projects merged) over the catalogue's clauses. `judgedOf`: the
 * clauses a scenario judged (verdicts.ts passes its per-clause verdicts: a failed scenario judged the clauses whose
 * checks ran, not every clause it covers).
 */
export function clauseCoverage(scenarios: readonly CoverageInput[], catalogue: Pick<ClauseCatalogue, 'clauses'>, judgedOf: (s: CoverageInput) => readonly string[] = judgedBy): ClauseCoverage {
  const judged = new Set(scenarios.flatMap((s) => judgedOf(s)));
  const covering = new Map<string, CoverageInput[]>();
  for (const s of scenarios) for (const c of s.clauses) covering.set(c, [...(covering.get(c) ?? []), s]);
  const notJudged: Record<ClauseLevel, NotJudged[]> = { must: [], should: [] };
  const totals: Record<ClauseLevel, { judged: number; total: number }> = { must: { judged: 0, total: 0 }, should: { judged: 0, total: 0 } };
  for (const clause of catalogue.clauses) {
    const level: ClauseLevel = clause.level === 'should' ? 'should' : 'must';
    totals[level].total++;
    if (judged.has(clause.id)) {
      totals[level].judged++;
      continue;
    }
    const by = covering.get(clause.id) ?? [];
    const reason = by.length === 0 ? 'no scenario of the run covers it' : by.slice(0, 2).map((s) => `${s.id} ${s.verdict}${s.reason ? `: ${s.reason.split('\n')[0]!.slice(0, 160)}` : ''}`).join('; ') + (by.length > 2 ? `; +${by.length - 2} more` : '');
    notJudged[level].push({ id: clause.id, reason });
  }
  const reasons = new Map<string, string[]>();
  for (const s of scenarios) {
    if (s.verdict !== 'skipped' && s.verdict !== 'not-applicable') continue;
    const reason = `${s.verdict === 'not-applicable' ? 'not applicable: ' : ''}${(s.reason ?? s.verdict).split('\n')[0]!.slice(0, 300)}`;
    reasons.set(reason, [...(reasons.get(reason) ?? []), s.id]);
  }
  return {
    must: totals.must,
    should: totals.should,
    notJudged,
    skipped: [...reasons].map(([reason, ids]) => ({ reason, scenarios: ids })).sort((a, b) => b.scenarios.length - a.scenarios.length),
    status: notJudged.must.length === 0 ? 'full' : 'partial',
  };
}

export const skippedCount = (c: ClauseCoverage): number => c.skipped.reduce((n, r) => n + r.scenarios.length, 0);
export const judgedCount = (c: ClauseCoverage): number => c.must.judged + c.should.judged;

/** The gate's shortfalls, each a problem of the verdict naming what is missing. */
export function coverageGateProblems(c: ClauseCoverage, gate: CoverageGate): string[] {
  const problems: string[] = [];
  const ids = (xs: readonly NotJudged[]): string => xs.map((x) => x.id).join(', ');
  if (gate.minClauses === 'all-must' && c.notJudged.must.length > 0) {
    problems.push(`coverage: --min-clauses all-must, but ${c.notJudged.must.length} of ${c.must.total} must clauses were not judged: ${ids(c.notJudged.must)}`);
  } else if (typeof gate.minClauses === 'number' && judgedCount(c) < gate.minClauses) {
    problems.push(`coverage: --min-clauses ${gate.minClauses}, but ${judgedCount(c)} clauses were judged; not judged: ${ids([...c.notJudged.must, ...c.notJudged.should])}`);
  }
  if (gate.maxSkipped !== undefined && skippedCount(c) > gate.maxSkipped) {
    problems.push(`coverage: --max-skipped ${gate.maxSkipped}, but ${skippedCount(c)} scenarios were skipped: ${c.skipped.map((r) => `${r.scenarios.join(', ')} (${r.reason})`).join('; ')}`);
  }
  return problems;
}

/** The console lines: judged / not judged by level, and the status. */
export function coverageLines(c: ClauseCoverage): string[] {
  const lines = [`clauses judged: ${judgedCount(c)} of ${c.must.total + c.should.total} (must ${c.must.judged} of ${c.must.total}, should ${c.should.judged} of ${c.should.total})`];
  for (const level of ['must', 'should'] as const) {
    const list = c.notJudged[level];
    if (list.length) lines.push(`  not judged (${level}): ${list.map((x) => x.id).join(', ')}`);
  }
  lines.push(c.status === 'full' ? 'coverage: full (every must clause judged)' : `coverage: PARTIAL (${c.notJudged.must.length} must clause${c.notJudged.must.length === 1 ? '' : 's'} not judged; verdicts.json lists why; a gate can require coverage with --min-clauses all-must)`);
  return lines;
}

/** Run-level JUnit properties (junit.ts JunitOptions.properties). */
export function coverageJunitProperties(c: ClauseCoverage): Record<string, string> {
  return {
    coverage: c.status,
    clauses_judged_must: `${c.must.judged}/${c.must.total}`,
    clauses_judged_should: `${c.should.judged}/${c.should.total}`,
    clauses_not_judged_must: c.notJudged.must.map((x) => x.id).join(',') || '-',
    clauses_not_judged_should: c.notJudged.should.map((x) => x.id).join(',') || '-',
    scenarios_skipped: String(skippedCount(c)),
  };
}

/** Parses `--min-clauses` (n or all-must) and `--max-skipped` (n); undefined values are not given. */
export function parseCoverageGate(minClauses: string | undefined, maxSkipped: string | undefined, usage: (message: string) => Error): CoverageGate {
  const count = (flag: string, v: string): number => {
    if (!/^(0|[1-9][0-9]{0,5})$/.test(v)) throw usage(`${flag} must be a whole number${flag === '--min-clauses' ? ' or all-must' : ''} (got '${v}')`);
    return Number(v);
  };
  return {
    ...(minClauses !== undefined ? { minClauses: minClauses === 'all-must' ? 'all-must' as const : count('--min-clauses', minClauses) } : {}),
    ...(maxSkipped !== undefined ? { maxSkipped: count('--max-skipped', maxSkipped) } : {}),
  };
}

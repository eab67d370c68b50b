/**
 * gradeClient(exchanges, plan): every CL-* clause's verdict. The clause's level decides failed vs warned; a
 * clause with no grader, or whose grader saw no occasion, is "not judged" with the reason, never passed.
 */
import type { ClientClause } from './clauses.js';
import { GRADERS } from './graders/index.js';
import { at } from './graders/util.js';
import type { Stall } from './stalls.js';
import type { ClauseStatus, ClauseVerdict, ClientExchange, ClientPlan, ClientVerdicts } from './types.js';

/** Clauses the grading server cannot make observable black-box, with the reason (docs/client-conformance.md). */
export const NOT_JUDGEABLE: Readonly<Record<string, string>> = {};

/** One line per exchange, for evidence: `#12 t+3.021s POST /api/v1/subscribe key=… -> 200 (dropped: subscribe-response-lost)`. */
export function describeExchange(e: ClientExchange): string {
  const q = new URLSearchParams(e.query).toString();
  const key = e.headers['idempotency-key'] ? ` Idempotency-Key=${e.headers['idempotency-key']}` : '';
  const auth = e.headers.authorization ? ` [${e.headers.authorization}]` : '';
  const outcome = e.dropped ? `processed, connection dropped` : String(e.status);
  const ch = e.challenge ? ` (challenge: ${e.challenge})` : '';
  return `#${e.seq} ${at(e)} ${e.environment === 'production' ? '[production] ' : ''}${e.method} ${e.path}${q ? `?${q}` : ''}${key}${auth} -> ${outcome}${ch}`;
}

export function gradeClient(exchanges: readonly ClientExchange[], plan: ClientPlan, clauses: readonly ClientClause[], stalls: readonly Stall[] = []): ClientVerdicts {
  const bySeq = new Map(exchanges.map((e) => [e.seq, e]));
  const verdicts: ClauseVerdict[] = clauses.map((c) => {
    const grader = GRADERS.find((g) => g.clause === c.id);
    if (!grader) return { clause: c.id, level: c.level, says: c.says, status: 'not-judged', note: NOT_JUDGEABLE[c.id] ?? 'no grader', breaches: [] };
    const r = grader.grade({ exchanges, plan, stalls });
    if (!r.judged) return { clause: c.id, level: c.level, says: c.says, status: 'not-judged', note: `no occasion: ${r.reason}`, breaches: [] };
    const status: ClauseStatus = r.breaches.length === 0 ? 'passed' : c.level === 'must' ? 'failed' : 'warned';
    return {
      clause: c.id, level: c.level, says: c.says, status,
      note: `${r.occasions} occasion(s) judged: ${grader.judges}`,
      breaches: r.breaches.map((b) => ({ ...b, evidence: b.exchanges.map((s) => bySeq.get(s)).filter((e) => e !== undefined).map(describeExchange) })),
    };
  });
  const counts: Record<ClauseStatus, number> = { passed: 0, failed: 0, warned: 0, 'not-judged': 0 };
  for (const v of verdicts) counts[v.status]++;
  const nothing = exchanges.length === 0;
  const overall = nothing ? 'nothing-tested' : counts.failed > 0 ? 'non-conformant' : 'conformant';
  return {
    format: 'ftf-client-verdicts/1',
    plan: plan.name,
    overall,
    exitCode: nothing ? 2 : counts.failed > 0 ? 1 : 0,
    counts,
    exchanges: exchanges.length,
    clauses: verdicts,
    notJudgeable: Object.entries(NOT_JUDGEABLE).map(([clause, reason]) => ({ clause, reason })),
    stalls: { count: stalls.length, totalMs: Math.round(stalls.reduce((n, x) => n + x.toMs - x.fromMs, 0)) },
  };
}

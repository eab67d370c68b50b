/**
 * `parallel`: `count` concurrent copies of a request (or `branches`), all started before any is awaited;
 * then assertions over every result: expect_all (per result), expect_count (how many match), where (sees
 * `results`). Transport failures are collected so one bad exchange does not hide the others.
 */
import { checkCount } from '../../checks/count.js';
import { checkStatus } from '../../checks/status.js';
import type { CheckResult } from '../../checks/types.js';
import { checkWhere } from '../../checks/where.js';
import type { CountExpectation, ParallelStep, RequestSpec } from '../../scenario/types.js';
import { ENGINE_ERROR_CODES, StepError } from '../errors.js';
import { bareExpression, evaluate } from '../expressions/index.js';
import { responseChecks } from '../expectations.js';
import type { ResponseRecord, StepContext, StepHandler } from '../types.js';

export const parallelStep: StepHandler<ParallelStep> = {
  kind: 'parallel',
  title: (s) => {
    const p = s.parallel;
    const what = p.branches ? `${p.branches.length} branches` : `${p.count ?? 1} × ${p.request?.method} ${p.request?.path}`;
    return `parallel ${what}${p.as ? ` → ${p.as}` : ''}`;
  },
  async run(step, ctx) {
    const p = step.parallel;
    const specs: RequestSpec[] = p.branches ?? Array.from({ length: p.count ?? 1 }, () => p.request as RequestSpec);
    const settled = await Promise.allSettled(specs.map((spec, i) => ctx.send(spec, { extra: { i }, assertSchema: false, setLast: false })));
    const failures = settled.flatMap((s, i) => (s.status === 'rejected' ? [`#${i}: ${(s.reason as Error).message}`] : []));
    if (failures.length > 0) {
      throw new StepError(ENGINE_ERROR_CODES.request, `${failures.length} of ${specs.length} parallel request(s) got no response:\n${failures.join('\n')}`, { at: ctx.location });
    }
    const sent = settled.map((s) => (s as PromiseFulfilledResult<Awaited<ReturnType<StepContext['send']>>>).value);
    const results = sent.map((s) => s.response);
    if (p.as) ctx.vars[p.as] = results;
    ctx.vars.last = results[results.length - 1];
    const checks: CheckResult[] = sent.flatMap((s) => (s.schema ? [s.schema] : []));
    if (p.expect_all) {
      const e = p.expect_all;
      results.forEach((r, i) => checks.push(...responseChecks(ctx, r, e, 'must', ctx.scope({ response: r, i })).map((c) => ({ ...c, message: `#${i}: ${c.message}` }))));
    }
    for (const c of p.expect_count === undefined ? [] : [p.expect_count].flat()) checks.push(countCheck(ctx, c, results));
    for (const w of p.where === undefined ? [] : [p.where].flat()) checks.push(checkWhere(bareExpression(w), ctx.scope({ results })));
    ctx.assert(checks);
  },
};

function countCheck(ctx: StepContext, c: CountExpectation, results: ResponseRecord[]): CheckResult {
  const matches = results.filter((result, i) => {
    if (c.status !== undefined && !checkStatus(result, c.status).passed) return false;
    if (c.where !== undefined) return evaluate(bareExpression(c.where), ctx.scope({ result, i })) === true;
    return true;
  });
  const what = [c.status !== undefined ? `with status ${[c.status].flat().join('|')}` : '', c.where ? `where ${c.where}` : ''].filter(Boolean).join(' and ') || 'in total';
  const check = checkCount(what, matches.length, results.length, c);
  if (check.passed) return check;
  const statuses = results.map((r) => r.status).join(', ');
  return { ...check, message: `${check.message} (statuses: ${statuses})` };
}

/**
 * `parallel`: `count` concurrent copies of a request, one per element of `for_each` (the template sees
 * `item` and `i`), or `branches`; all started before any is awaited;
 * then assertions over every result: expect_all (per result), expect_count (how many match), where (sees
 * `results`). Transport failures are collected so one bad exchange does not hide the others.
 * With `race`, the copies are released from a barrier over warmed connections, round after round (race.ts).
 */
import { checkCount } from '../../checks/count.js';
import { checkStatus } from '../../checks/status.js';
import type { CheckResult } from '../../checks/types.js';
import { checkWhere } from '../../checks/where.js';
import type { CountExpectation, ParallelStep, RequestSpec } from '../../scenario/types.js';
import { ENGINE_ERROR_CODES, StepError } from '../errors.js';
import { bareExpression, evaluate, typeName } from '../../expressions/index.js';
import { responseChecks } from '../expectations.js';
import type { ResponseRecord, StepContext, StepHandler } from '../types.js';
import { runRace } from './race.js';

export const MAX_PARALLEL = 100;

export const parallelStep: StepHandler<ParallelStep> = {
  kind: 'parallel',
  title: (s) => {
    const p = s.parallel;
    const what = p.branches ? `${p.branches.length} branches` : `${p.for_each !== undefined ? `each of ${p.for_each}` : (p.count ?? 1)} × ${p.request?.method} ${p.request?.path}`;
    return `parallel ${what}${p.as ? ` → ${p.as}` : ''}`;
  },
  async run(step, ctx) {
    const p = step.parallel;
    if (p.race) return runRace(step, ctx);
    const items = p.for_each === undefined ? undefined : eachItems(ctx, p.for_each);
    const specs: RequestSpec[] = p.branches ?? Array.from({ length: items?.length ?? p.count ?? 1 }, () => p.request as RequestSpec);
    const extra = (i: number): Record<string, unknown> => (items ? { i, item: items[i] } : { i });
    const settled = await Promise.allSettled(specs.map((spec, i) => ctx.send(spec, { extra: extra(i), assertSchema: false, setLast: false })));
    const failures = settled.flatMap((s, i) => (s.status === 'rejected' ? [`#${i}: ${(s.reason as Error).message}`] : []));
    if (failures.length > 0) {
      throw new StepError(ENGINE_ERROR_CODES.request, `${failures.length} of ${specs.length} parallel request(s) got no response:\n${failures.join('\n')}`, { at: ctx.location });
    }
    const sent = settled.map((s) => (s as PromiseFulfilledResult<Awaited<ReturnType<StepContext['send']>>>).value);
    const results = sent.map((s) => s.response);
    if (p.as) ctx.vars[p.as] = results;
    if (results.length > 0) ctx.vars.last = results[results.length - 1];
    ctx.assert(parallelChecks(ctx, p, sent, ''));
  },
};

/** The checks of one set of results: schema checks, response rules, expect_all, expect_count, where; `prefix` names a race round. */
export function parallelChecks(ctx: StepContext, p: ParallelStep['parallel'], sent: Array<{ response: ResponseRecord; schema?: CheckResult; rules: CheckResult[] }>, prefix: string): CheckResult[] {
  const results = sent.map((s) => s.response);
  const checks: CheckResult[] = sent.flatMap((s, i) => [...(s.schema ? [s.schema] : []), ...s.rules.map((c) => (c.passed ? c : { ...c, message: `${prefix}#${i}: ${c.message}` }))]);
  if (p.expect_all) {
    const e = p.expect_all;
    results.forEach((r, i) => checks.push(...responseChecks(ctx, r, e, 'must', ctx.scope({ response: r, i })).map((c) => ({ ...c, message: `${prefix}#${i}: ${c.message}` }))));
  }
  for (const c of p.expect_count === undefined ? [] : [p.expect_count].flat()) {
    const check = countCheck(ctx, c, results);
    checks.push(prefix && !check.passed ? { ...check, message: `${prefix}${check.message}` } : check);
  }
  for (const w of p.where === undefined ? [] : [p.where].flat()) {
    const check = checkWhere(bareExpression(w), ctx.scope({ results }));
    checks.push(prefix && !check.passed ? { ...check, message: `${prefix}${check.message}` } : check);
  }
  return checks;
}

/**
 * The list `for_each` gives: at most `bound.max` elements (parallel: MAX_PARALLEL, the bound of `count` and
 * `branches`; `repeat` passes its own).
 */
export function eachItems(ctx: StepContext, expression: string, bound: { max: number; what: string } = { max: MAX_PARALLEL, what: 'requests run in parallel' }): unknown[] {
  let value: unknown;
  try {
    value = evaluate(bareExpression(expression), ctx.scope());
  } catch (e) {
    throw new StepError(ENGINE_ERROR_CODES.step, (e as Error).message, { at: ctx.location, cause: e });
  }
  if (!Array.isArray(value)) throw new StepError(ENGINE_ERROR_CODES.step, `for_each \`${expression}\` gave ${typeName(value)}, not a list`, { at: ctx.location });
  if (value.length > bound.max) {
    throw new StepError(ENGINE_ERROR_CODES.bound, `for_each \`${expression}\` gave ${value.length} elements; at most ${bound.max} ${bound.what}`, {
      at: ctx.location,
      hint: 'narrow the list (select(...)) or split the step',
    });
  }
  return value;
}

function countCheck(ctx: StepContext, c: CountExpectation, results: ResponseRecord[]): CheckResult {
  const matches = results.filter((result, i) => {
    if (c.status !== undefined && !checkStatus(result, c.status).passed) return false;
    if (c.where !== undefined) return evaluate(bareExpression(c.where), ctx.scope({ result, i })) === true;
    return true;
  });
  const what = [c.status !== undefined ? `with status ${[c.status].flat().join('|')}` : '', c.where ? `where ${c.where}` : ''].filter(Boolean).join(' and ') || 'in total';
  const own = c.clause === undefined ? {} : { clauses: [c.clause].flat() };
  const check = { ...checkCount(what, matches.length, results.length, c), ...own };
  if (check.passed) return check;
  const statuses = results.map((r) => r.status).join(', ');
  return { ...check, message: `${check.message} (statuses: ${statuses})` };
}

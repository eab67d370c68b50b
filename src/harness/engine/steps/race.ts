/**
 * `parallel` with `race`: the copies of the request are built first, each gets its own connection warmed by
 * a harmless GET of the same URL, and all are released at once from the transport's barrier
 * (http/race-lanes.ts); this repeats for `rounds` rounds and the parallel checks must hold in every round.
 * Each round's overlap is measured (http/overlap.ts). A round in which some request was answered before
 * another was sent says nothing about a compare-and-set: if no round overlapped fully the step ERRORS
 * (FTF_E_RACE_INCONCLUSIVE: the race was not run, so no pass), if only some did, a `should` warning says so.
 */
import { result, type CheckResult } from '../../checks/types.js';
import { resolveDeep } from '../../expressions/index.js';
import { describeOverlap, measureOverlap, type Overlap } from '../../http/overlap.js';
import type { HttpRequest, RaceLane } from '../../http/types.js';
import type { ParallelStep, RequestSpec } from '../../scenario/types.js';
import { ENGINE_ERROR_CODES, StepError } from '../errors.js';
import { exchangeError, finishExchange, prepareExchange, type PreparedExchange } from '../exchange.js';
import type { StepContext } from '../types.js';
import { eachItems, parallelChecks } from './parallel.js';

export const DEFAULT_RACE_ROUNDS = 3;
export const MAX_RACE_ROUNDS = 20;
export const RACE_ERROR_CODES = { inconclusive: 'FTF_E_RACE_INCONCLUSIVE' } as const;

/** Headers that belong to the racing write, not to the warm-up read of the same URL. */
const WRITE_HEADERS = new Set(['content-type', 'content-length', 'idempotency-key']);

export async function runRace(step: ParallelStep, ctx: StepContext): Promise<void> {
  const p = step.parallel;
  const race = ctx.engine.transport.race?.bind(ctx.engine.transport);
  if (!race) throw new StepError(ENGINE_ERROR_CODES.step, 'this engine transport has no race barrier (race lanes)', { at: ctx.location });
  const rounds = p.race?.rounds ?? DEFAULT_RACE_ROUNDS;
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > MAX_RACE_ROUNDS) {
    throw new StepError(ENGINE_ERROR_CODES.bound, `race.rounds is ${String(rounds)}; it must be an integer from 1 to ${MAX_RACE_ROUNDS}`, { at: ctx.location });
  }
  const overlaps: Overlap[] = [];
  for (let round = 0; round < rounds; round++) {
    const prepared = await prepareRound(p, ctx, round);
    const settled = await race(prepared.map((x) => ({ warm: warmUp(x.request), request: x.request }) satisfies RaceLane), ctx.title);
    const failures = settled.flatMap((s, i) => (s.error !== undefined ? [`#${i}: ${exchangeError(ctx.engine, prepared[i] as PreparedExchange, s.error).message}`] : []));
    if (failures.length > 0) {
      throw new StepError(ENGINE_ERROR_CODES.request, `round ${round + 1}: ${failures.length} of ${settled.length} raced request(s) got no response:\n${failures.join('\n')}`, { at: ctx.location });
    }
    overlaps.push(measureOverlap(settled));
    const sent = settled.map((s, i) => finishExchange(ctx.engine, prepared[i] as PreparedExchange, s.response as NonNullable<typeof s.response>));
    const results = sent.map((s) => s.response);
    if (p.as) ctx.vars[p.as] = results;
    if (results.length > 0) ctx.vars.last = results[results.length - 1];
    ctx.assert(parallelChecks(ctx, p, sent, rounds > 1 ? `round ${round + 1}: ` : ''));
    for (const [name, value] of Object.entries(p.race?.next ?? {})) ctx.vars[name] = resolveDeep(value, { ...ctx.vars, results, round });
  }
  ctx.assert([overlapVerdict(overlaps, ctx)]);
}

async function prepareRound(p: ParallelStep['parallel'], ctx: StepContext, round: number): Promise<PreparedExchange[]> {
  const items = p.for_each === undefined ? undefined : eachItems(ctx, p.for_each);
  const specs: RequestSpec[] = p.branches ?? Array.from({ length: items?.length ?? p.count ?? 1 }, () => p.request as RequestSpec);
  const out: PreparedExchange[] = [];
  for (const [i, spec] of specs.entries()) {
    out.push(await prepareExchange(ctx.engine, spec, ctx.scope({ i, round, ...(items ? { item: items[i] } : {}) }), { at: ctx.location }));
  }
  return out;
}

/** A GET of the racing request's URL with its credentials: opens and exercises the lane, changes nothing. */
export function warmUp(request: HttpRequest): HttpRequest {
  const headers = Object.fromEntries(Object.entries(request.headers).filter(([k]) => !WRITE_HEADERS.has(k.toLowerCase())));
  return { method: 'GET', url: request.url, headers, timeoutMs: request.timeoutMs };
}

/**
 * No fully overlapping round: an error, because the checks that passed proved nothing. Some: a warning.
 * All: a passed `should` check whose message keeps the numbers for the report.
 */
export function overlapVerdict(overlaps: Overlap[], ctx: Pick<StepContext, 'location'>): CheckResult {
  const full = overlaps.filter((o) => o.conclusive).length;
  const lines = overlaps.map((o, r) => `round ${r + 1}: ${describeOverlap(o)}`).join('; ');
  if (full === 0) {
    throw new StepError(RACE_ERROR_CODES.inconclusive, `no race round overlapped fully, so the race proved nothing (${lines})`, {
      at: ctx.location,
      hint: 'some requests were answered before others were sent: the harness machine or the network is too slow to race this target; rerun on a quieter machine or raise race.rounds',
    });
  }
  const expected = `every one of ${overlaps.length} round(s) with all requests in flight together`;
  return result('race.overlap', full === overlaps.length, 'should', expected, `${full} of ${overlaps.length}`, `race overlap: ${lines}`);
}

/**
 * `repeat`: one request sent sequentially `times` times, or once per element of `for_each` (the template
 * sees `i`, 0-based, and `item`). Every answer is judged like a request step's (the same ctx.send: schema
 * check and response rules), then by the step's `expect` and `capture`, exactly as if request + expect +
 * capture were written out N times; the step stops at the first iteration with a failing must-check.
 *
 * Bounds: at most MAX_REPEAT iterations (`times` is refused at load by the scenario schema, a longer
 * `for_each` list at run time); time: `deadline_ms` cut to what is left of the scenario (or just what is
 * left), each exchange's timeout cut to what is left of the step, and running out names the iteration.
 * Report: ONE step. Checks that pass in every iteration are recorded once with the count (a should-failure
 * once, with how many iterations had it); the failure names the first failing iteration and its exchange;
 * a summary (count, timings) is attached to the step (engine.note). The exchanges are recorded in the bounded
 * recording's summarised mode (engine.summarised, http/sinks.ts): failing iterations, a sample and the last
 * ones are written, the rest counted in the recording summary. `as:` keeps the responses (≤ MAX_REPEAT_KEPT).
 */
import { describeExchange } from '../../checks/excerpt.js';
import type { CheckResult } from '../../checks/types.js';
import { checkWhere } from '../../checks/where.js';
import { bareExpression } from '../../expressions/index.js';
import { MAX_REPEAT, MAX_REPEAT_KEPT, type RepeatStep } from '../../scenario/types.js';
import { FtfError } from '../../../shared/errors.js';
import { ENGINE_ERROR_CODES, StepError } from '../errors.js';
import { responseChecks } from '../expectations.js';
import type { ResponseRecord, StepContext, StepHandler } from '../types.js';
import { captureInto } from './capture.js';
import { eachItems } from './parallel.js';

export const repeatStep: StepHandler<RepeatStep> = {
  kind: 'repeat',
  title: (s) => {
    const r = s.repeat;
    return `repeat ${r.for_each !== undefined ? `for each of ${r.for_each}:` : `${r.times} ×`} ${r.request.method} ${r.request.path}${r.as ? ` → ${r.as}` : ''}`;
  },
  async run(step, ctx) {
    const r = step.repeat;
    const items = r.for_each === undefined ? undefined : eachItems(ctx, r.for_each, { max: MAX_REPEAT, what: 'iterations per repeat step' });
    const n = items?.length ?? r.times ?? 0;
    if (r.as !== undefined && n > MAX_REPEAT_KEPT) {
      throw new StepError(ENGINE_ERROR_CODES.bound, `repeat keeps its responses (as: ${r.as}) for at most ${MAX_REPEAT_KEPT} iterations; this one has ${n}`, {
        at: ctx.location,
        hint: 'drop `as:` (expect and capture see every response) or repeat fewer times',
      });
    }
    const bound = stepBound(ctx, r.deadline_ms);
    const started = ctx.now();
    const tally = new Tally(n);
    const durations: number[] = [];
    const kept: ResponseRecord[] = [];
    const severity = r.expect?.severity ?? 'must';
    const summary = (end: string): string =>
      `repeat: ${durations.length} of ${n} iteration(s) sent in ${Math.round(ctx.now() - started)} ms${timings(durations)}; ${end}`;
    // The iterations are recorded like a long walk past the recording's head bound: failing ones, a sample and
    // the last ones written, the rest counted in the recording summary (engine.summarised; absent: all written).
    const summarised = ctx.engine.summarised ?? (<T>(fn: () => Promise<T>): Promise<T> => fn());
    await summarised(async () => {
      for (let i = 0; i < n; i++) {
        const extra = items ? { i, item: items[i] } : { i };
        const where = `iteration ${i + 1} of ${n}`;
        let response: ResponseRecord;
        let auto: CheckResult[];
        // Without deadline_ms the scenario's bound is the step's (ctx.send cuts each exchange to it and names it).
        const left = bound.own === undefined ? Number.POSITIVE_INFINITY : bound.deadline - ctx.now();
        const stop = async (error: Error): Promise<never> => {
          await note(ctx, summary(`stopped in ${where}: ${error.message}`));
          throw error;
        };
        if (left <= 0) await stop(bound.outOfTime(where));
        try {
          const sent = await ctx.send(r.request, { extra, assertSchema: false, label: `${ctx.title} #${i + 1}`, ...(Number.isFinite(left) ? { maxTimeoutMs: left } : {}) });
          response = sent.response;
          auto = [...(sent.schema ? [sent.schema] : []), ...sent.rules];
        } catch (e) {
          // Cut by the step's own bound (not the request's): say so, keeping the exchange's message.
          const cut = left < (r.request.timeout_ms ?? ctx.engine.target.timeouts.requestMs) && e instanceof FtfError && e.code === 'FTF_E_TARGET_TIMEOUT';
          return stop(cut ? bound.outOfTime(where, e) : inIteration(e, where, ctx));
        }
        durations.push(response.duration_ms);
        if (r.as !== undefined) kept.push(response);
        const checks = [...auto];
        if (r.expect) {
          const scope = ctx.scope({ response, ...extra });
          checks.push(...responseChecks(ctx, response, r.expect, severity, scope));
          for (const w of r.expect.where === undefined ? [] : [r.expect.where].flat()) checks.push(checkWhere(bareExpression(w), scope, severity));
        }
        const missing = r.capture ? captureInto(ctx, response, r.capture) : undefined;
        if (missing) checks.push(missing);
        const failed = checks.filter((c) => !c.passed && c.severity === 'must');
        if (failed.length > 0) {
          const head = `${where} (${describeExchange(response, ctx.redact)}; ${i} passed before it)`;
          await note(ctx, summary(`${head} failed: ${failed.map((c) => `[${c.check}] ${c.message}`).join('; ')}`));
          ctx.assert([...tally.results(i), ...failed.map((c) => ({ ...c, message: `${head}: ${c.message}` }))]);
          return; // not reached: a failed must-check throws
        }
        for (const c of checks) tally.add(c, i);
      }
    });
    if (r.as !== undefined) ctx.vars[r.as] = kept;
    await note(ctx, summary('all passed'));
    ctx.assert(tally.results(n));
  },
};

/** The step's own deadline: `deadline_ms` cut to the scenario's time left (then said in the message), else none of its own. */
function stepBound(ctx: StepContext, own: number | undefined): { own: number | undefined; deadline: number; outOfTime(where: string, cause?: unknown): StepError } {
  const scenarioLeft = ctx.remainingMs();
  const budget = own === undefined ? scenarioLeft : Math.max(0, Math.min(own, scenarioLeft));
  const cut = own !== undefined && own > scenarioLeft ? `, cut to the ${Math.max(0, Math.round(scenarioLeft))} ms the scenario had left` : '';
  return {
    own,
    deadline: ctx.now() + budget,
    outOfTime: (where, cause) =>
      new StepError(ENGINE_ERROR_CODES.bound, `step "${ctx.title}": its bound (deadline_ms ${own} ms${cut}) ran out in ${where}${cause instanceof Error ? `: ${cause.message}` : ''}`, {
        at: ctx.location,
        hint: 'the iterations took longer than the step allows: the target is slow, or raise deadline_ms (and timeouts.scenario_ms) if it is really that slow',
        ...(cause !== undefined ? { cause } : {}),
      }),
  };
}

/** An error of one iteration (no response, the scenario bound, a bad template), its message prefixed with the iteration. */
function inIteration(e: unknown, where: string, ctx: StepContext): Error {
  if (!(e instanceof FtfError)) return e instanceof Error ? e : new Error(String(e));
  return new StepError(e.code, `repeat ${where}: ${e.message}`, {
    at: ctx.location,
    ...(e.hint ? { hint: e.hint } : {}),
    cause: e,
  });
}

/** " (per exchange min/median/max a/b/c ms)" of the iterations sent. */
function timings(durations: number[]): string {
  if (durations.length === 0) return '';
  const sorted = [...durations].sort((a, b) => a - b);
  const ms = (v: number | undefined): string => String(Math.round(v ?? 0));
  return ` (per exchange min/median/max ${ms(sorted[0])}/${ms(sorted[Math.floor((sorted.length - 1) / 2)])}/${ms(sorted[sorted.length - 1])} ms)`;
}

async function note(ctx: StepContext, text: string): Promise<void> {
  await ctx.engine.note?.('repeat summary', ctx.redact(text));
}

/**
 * The passed and should-failed checks of the iterations, one result per check (name, severity, outcome,
 * clauses) instead of one per iteration: 200 iterations record what one would, plus the counts.
 */
class Tally {
  private readonly byKey = new Map<string, { first: CheckResult; firstIteration: number; count: number }>();

  constructor(private readonly total: number) {}

  add(c: CheckResult, i: number): void {
    const key = JSON.stringify([c.check, c.severity, c.passed, c.clauses ?? null]);
    const seen = this.byKey.get(key);
    if (seen) seen.count++;
    else this.byKey.set(key, { first: c, firstIteration: i, count: 1 });
  }

  /** The tallied results after `done` iterations. */
  results(done: number): CheckResult[] {
    return [...this.byKey.values()].map(({ first, firstIteration, count }) => {
      if (first.passed) return { ...first, message: `${first.message} (in ${count} of ${done} iteration(s))` };
      return { ...first, message: `iteration ${firstIteration + 1} of ${this.total}: ${first.message} (${count} of ${done} iteration(s) had it)` };
    });
  }
}

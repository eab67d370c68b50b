/**
 * `wait`: let time pass on the harness clock, at most `ms`, stopping early once `until` is true. It never
 * fails by itself: the assertion comes in a later step (e.g. "nothing arrived at the listener"). `ms` may be
 * a `${}` template computed from the profile (token.expiry-realtime waits the declared token lifetime); the
 * value must then be an integer from 1 to MAX_WAIT_MS, like a literal (the schema's bound).
 */
import { interpolateString } from '../../expressions/index.js';
import type { WaitStep } from '../../scenario/types.js';
import { ENGINE_ERROR_CODES, StepError } from '../errors.js';
import type { SourceLocation } from '../../scenario/types.js';
import type { StepHandler } from '../types.js';

const TICK_MS = 25;
export const MAX_WAIT_MS = 60_000;

function waitMs(step: WaitStep, vars: Parameters<typeof interpolateString>[1], at: SourceLocation): number {
  const raw = step.wait.ms;
  const ms = typeof raw === 'number' ? raw : Number(interpolateString(raw, vars));
  if (!Number.isInteger(ms) || ms < 1 || ms > MAX_WAIT_MS) {
    throw new StepError(ENGINE_ERROR_CODES.step, `wait: ms \`${String(raw)}\` is ${String(ms)}, not an integer from 1 to ${MAX_WAIT_MS}`,
      { at, hint: 'a real-time wait is bounded; check the profile value it is computed from' });
  }
  return ms;
}

export const waitStep: StepHandler<WaitStep> = {
  kind: 'wait',
  title: (s) => `wait up to ${s.wait.ms} ms${s.wait.until ? ` until ${s.wait.until}` : ''}`,
  async run(step, ctx) {
    const deadline = ctx.now() + waitMs(step, ctx.vars, ctx.location);
    for (;;) {
      if (step.wait.until !== undefined && ctx.truth(step.wait.until)) return;
      const left = deadline - ctx.now();
      if (left <= 0) return;
      await ctx.sleep(Math.min(TICK_MS, left));
    }
  },
};

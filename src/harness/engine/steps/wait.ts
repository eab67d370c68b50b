/**
 * `wait`: let time pass on the harness clock, at most `ms`, stopping early once `until` is true. It never
 * fails by itself: the assertion comes in a later step (e.g. "nothing arrived at the listener").
 */
import type { WaitStep } from '../../scenario/types.js';
import type { StepHandler } from '../types.js';

const TICK_MS = 25;

export const waitStep: StepHandler<WaitStep> = {
  kind: 'wait',
  title: (s) => `wait up to ${s.wait.ms} ms${s.wait.until ? ` until ${s.wait.until}` : ''}`,
  async run(step, ctx) {
    const deadline = ctx.now() + step.wait.ms;
    for (;;) {
      if (step.wait.until !== undefined && ctx.truth(step.wait.until)) return;
      const left = deadline - ctx.now();
      if (left <= 0) return;
      await ctx.sleep(Math.min(TICK_MS, left));
    }
  },
};

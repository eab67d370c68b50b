/**
 * `clock`: advance the target's sandbox clock (POST {control_url}/clock/advance). Cached access tokens may
 * have expired on the simulated clock: sendExchange (exchange.ts) makes the auth client forget them, for this
 * step and for any raw control request that moves the clock.
 */
import { checkStatus } from '../../checks/status.js';
import type { ClockStep } from '../../scenario/types.js';
import type { StepHandler } from '../types.js';

export const clockStep: StepHandler<ClockStep> = {
  kind: 'clock',
  title: (s) => `advance clock ${Object.entries(s.clock).map(([k, v]) => (k === 'to' ? `to ${v}` : `${v} ${k}`)).join(' ')}`,
  async run(step, ctx) {
    const { response } = await ctx.send(
      { method: 'POST', base: 'control', path: '/clock/advance', json: step.clock, auth: 'none', schema: 'none' },
      { setLast: false },
    );
    ctx.assert([checkStatus(response, 200, 'must', ctx.redact)]);
    ctx.vars.clock = response.body;
  },
};

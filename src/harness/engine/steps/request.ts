/** `request`: send one HTTP request; the response becomes `last` (and `as:` keeps it under a name). */
import type { RequestStep } from '../../scenario/types.js';
import type { StepHandler } from '../types.js';

export const requestStep: StepHandler<RequestStep> = {
  kind: 'request',
  title: (s) => `${s.request.method} ${s.request.base && s.request.base !== 'api' ? `{${s.request.base}}` : ''}${s.request.path}${s.request.as ? ` → ${s.request.as}` : ''}`,
  async run(step, ctx) {
    const { as, ...spec } = step.request;
    const { response } = await ctx.send(spec);
    if (as) ctx.vars[as] = response;
  },
};

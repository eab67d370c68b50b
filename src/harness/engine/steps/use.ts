/**
 * `use`: run a step group (specs/_steps/<name>.yaml, resolved by the loader) with parameters. Parameters
 * are variables while the group runs and are restored afterwards; variables the group defines stay visible.
 */
import type { UseStep } from '../../scenario/types.js';
import { ENGINE_ERROR_CODES, StepError } from '../errors.js';
import { resolveDeep } from '../../expressions/index.js';
import type { StepHandler } from '../types.js';

export const useStep: StepHandler<UseStep> = {
  kind: 'use',
  title: (s) => `use ${s.use}${s.with ? ` (${Object.keys(s.with).join(', ')})` : ''}`,
  async run(step, ctx) {
    const group = ctx.located.group;
    if (!group) throw new StepError(ENGINE_ERROR_CODES.step, `step group '${step.use}' was not resolved by the loader`, { at: ctx.location });
    const given = step.with ?? {};
    const bound: Record<string, unknown> = {};
    for (const [name, def] of Object.entries(group.params)) {
      if (Object.hasOwn(given, name)) bound[name] = resolveDeep(given[name], ctx.vars);
      else if (def !== undefined) bound[name] = resolveDeep(def, ctx.vars);
      else throw new StepError(ENGINE_ERROR_CODES.step, `step group '${step.use}' needs the parameter '${name}'`, { at: ctx.location });
    }
    const saved = Object.keys(bound).map((k) => [k, Object.hasOwn(ctx.vars, k), ctx.vars[k]] as const);
    Object.assign(ctx.vars, bound);
    try {
      await ctx.runSteps(group.steps);
    } finally {
      for (const [k, had, v] of saved) {
        if (had) ctx.vars[k] = v;
        else delete ctx.vars[k];
      }
    }
  },
};

/** `set`: variables from values/expressions, evaluated in order (a later one may use an earlier one). */
import type { SetStep } from '../../scenario/types.js';
import { resolveDeep } from '../../expressions/index.js';
import type { StepHandler } from '../types.js';

export const setStep: StepHandler<SetStep> = {
  kind: 'set',
  title: (s) => `set ${Object.keys(s.set).join(', ')}`,
  async run(step, ctx) {
    for (const [name, value] of Object.entries(step.set)) ctx.vars[name] = resolveDeep(value, ctx.vars);
  },
};

/** `skip_if`: end the scenario as not applicable (skipped with `message`) when the expression is true. */
import { NotApplicable } from '../errors.js';
import type { SkipIfStep } from '../../scenario/types.js';
import { interpolateString, toText } from '../../expressions/index.js';
import type { StepHandler } from '../types.js';

export const skipIfStep: StepHandler<SkipIfStep> = {
  kind: 'skip_if',
  title: (s) => `not applicable if ${s.skip_if}`,
  async run(step, ctx) {
    if (!ctx.truth(step.skip_if)) return;
    // Rendered only when the condition holds: it may read what exists only then.
    const message = step.message ? toText(interpolateString(step.message, ctx.vars)) : `\`${step.skip_if}\` is true`;
    throw new NotApplicable(`not applicable: ${ctx.redact(message)}`, ctx.location);
  },
};

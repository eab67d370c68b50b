/** `fail_if`: fail the scenario with `message` when the expression is true. */
import { result } from '../../checks/types.js';
import type { FailIfStep } from '../../scenario/types.js';
import { interpolateString, toText } from '../../expressions/index.js';
import type { StepHandler } from '../types.js';

export const failIfStep: StepHandler<FailIfStep> = {
  kind: 'fail_if',
  title: (s) => `fail if ${s.fail_if}`,
  async run(step, ctx) {
    const hit = ctx.truth(step.fail_if);
    // The message is rendered only when the condition holds: it may read what exists only then (items[0]).
    const message = !hit ? '' : step.message ? toText(interpolateString(step.message, ctx.vars)) : `\`${step.fail_if}\` is true`;
    ctx.assert([result('fail_if', !hit, 'must', 'false', String(hit), hit ? ctx.redact(message) : `\`${step.fail_if}\` is false`)]);
  },
};

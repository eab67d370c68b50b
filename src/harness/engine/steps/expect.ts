/** `expect`: status, schema, JSON subset, headers, detail text and `where:` predicates on one response. */
import { checkWhere } from '../../checks/where.js';
import type { ExpectStep } from '../../scenario/types.js';
import { bareExpression } from '../../expressions/index.js';
import { responseChecks, responseOf } from '../expectations.js';
import type { StepHandler } from '../types.js';

export const expectStep: StepHandler<ExpectStep> = {
  kind: 'expect',
  title(s) {
    const e = s.expect;
    const parts = [
      e.status !== undefined ? `status ${[e.status].flat().join('|')}` : '',
      e.schema && e.schema !== 'auto' ? `schema ${e.schema}` : '',
      e.json !== undefined ? 'json' : '',
      e.header ? `headers ${Object.keys(e.header).join(',')}` : '',
      e.detail !== undefined ? `detail ${JSON.stringify([e.detail].flat()[0])}` : '',
      e.where ? `where ${[e.where].flat().length}` : '',
    ].filter(Boolean);
    return `expect ${e.of ?? 'last'}: ${parts.join(', ') || 'response'}${e.severity === 'should' ? ' (should)' : ''}`;
  },
  async run(step, ctx) {
    const e = step.expect;
    const severity = e.severity ?? 'must';
    const response = responseOf(ctx.vars, e.of, ctx.location);
    const scope = ctx.scope({ response });
    const checks = responseChecks(ctx, response, e, severity, scope);
    for (const w of e.where === undefined ? [] : [e.where].flat()) checks.push(checkWhere(bareExpression(w), scope, severity));
    ctx.assert(checks);
  },
};

/** `capture`: variables from JSON pointers into a response body (`of:` names the response, default last). */
import { result, type CheckResult } from '../../checks/types.js';
import { excerpt } from '../../checks/excerpt.js';
import type { CaptureStep } from '../../scenario/types.js';
import { getPointer } from '../../expressions/index.js';
import { responseOf } from '../expectations.js';
import type { ResponseRecord, StepContext, StepHandler } from '../types.js';

export const captureStep: StepHandler<CaptureStep> = {
  kind: 'capture',
  title: (s) => `capture ${Object.keys(s.capture).filter((k) => k !== 'of').join(', ')}${s.capture.of ? ` from ${s.capture.of}` : ''}`,
  async run(step, ctx) {
    const { of, ...pointers } = step.capture;
    const missing = captureInto(ctx, responseOf(ctx.vars, of, ctx.location), pointers);
    if (missing) ctx.assert([missing]);
  },
};

/** Sets each variable from its pointer into the response body (shared with `repeat`); a failed `capture` check names the pointers that found nothing. */
export function captureInto(ctx: Pick<StepContext, 'vars' | 'redact'>, response: ResponseRecord, pointers: Record<string, string>): CheckResult | undefined {
  const missing: string[] = [];
  for (const [name, pointer] of Object.entries(pointers)) {
    const value = getPointer(response.body, pointer);
    if (value === undefined) missing.push(`${name} (${pointer})`);
    else ctx.vars[name] = value;
  }
  if (missing.length === 0) return undefined;
  return result('capture', false, 'must', missing.join(', '), 'absent',
    `${response.method} ${ctx.redact(response.url)} → ${response.status}: nothing at ${missing.join(', ')}; body: ${excerpt(response.text, ctx.redact)}`);
}

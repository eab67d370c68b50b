/** The failure body's `detail` text is exactly one of the allowed texts. */
import { describeExchange, excerpt, type Redact } from './excerpt.js';
import { result, type CheckedResponse, type CheckResult, type Severity } from './types.js';

export function checkDetail(r: CheckedResponse, expected: string | string[], severity: Severity = 'must', redact: Redact = (s) => s): CheckResult {
  const allowed = Array.isArray(expected) ? expected : [expected];
  const body = r.body as { detail?: unknown } | null;
  const got = body && typeof body === 'object' && !Array.isArray(body) ? body.detail : undefined;
  const passed = typeof got === 'string' && allowed.includes(got);
  const want = allowed.map((a) => JSON.stringify(a)).join(' or ');
  return result('detail', passed, severity, want, got === undefined ? '(no detail)' : JSON.stringify(got),
    passed ? `detail ${JSON.stringify(got)}` : `${describeExchange(r, redact)}: expected detail ${want}, got ${got === undefined ? `no detail; body: ${excerpt(r.text, redact)}` : redact(JSON.stringify(got))}`);
}

import { describeExchange, excerpt, type Redact } from './excerpt.js';
import { result, type CheckedResponse, type CheckResult, type Severity } from './types.js';

/** The response status is the expected one (or one of the expected ones). */
export function checkStatus(r: CheckedResponse, expected: number | number[], severity: Severity = 'must', redact?: Redact): CheckResult {
  const allowed = Array.isArray(expected) ? expected : [expected];
  const want = allowed.join(' or ');
  const passed = allowed.includes(r.status);
  return result('status', passed, severity, want, String(r.status),
    passed ? `status ${r.status}` : `${describeExchange(r, redact)}: expected status ${want}, got ${r.status}; body: ${excerpt(r.text, redact)}`);
}

/**
 * Response headers: names are case-insensitive; a value matches exactly or by its media type (the part
 * before ';', so `application/json` matches `application/json; charset=utf-8`); null means "absent".
 */
import { describeExchange, type Redact } from './excerpt.js';
import { result, type CheckedResponse, type CheckResult, type Severity } from './types.js';

export function checkHeaders(r: CheckedResponse, expected: Record<string, string | null>, severity: Severity = 'must', redact: Redact = (s) => s): CheckResult {
  const problems: string[] = [];
  for (const [name, want] of Object.entries(expected)) {
    const got = r.headers[name.toLowerCase()];
    if (want === null) {
      if (got !== undefined) problems.push(`${name}: expected absent, got ${JSON.stringify(redact(got))}`);
    } else if (got === undefined) {
      problems.push(`${name}: missing (expected ${JSON.stringify(want)})`);
    } else if (got !== want && got.split(';')[0]?.trim().toLowerCase() !== want.toLowerCase()) {
      problems.push(`${name}: expected ${JSON.stringify(want)}, got ${JSON.stringify(redact(got))}`);
    }
  }
  const passed = problems.length === 0;
  return result('header', passed, severity, JSON.stringify(expected), passed ? 'matches' : problems.join('; '),
    passed ? 'headers as expected' : `${describeExchange(r, redact)}: ${problems.join('; ')}`);
}

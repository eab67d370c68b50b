/**
 * Subset match: every key of the expectation must be present in the body with an equal value (numbers by
 * value, Decimals included); lists match element-wise and must have the same length.
 */
import { deepEqual, isPlainObject, MAX_VALUE_DEPTH, preview, valueTooDeep } from '../expressions/values.js';
import { describeExchange, type Redact } from './excerpt.js';
import { result, type CheckedResponse, type CheckResult, type Severity } from './types.js';

export function subsetMismatches(actual: unknown, expected: unknown, path = '', depth = 0): string[] {
  if (depth > MAX_VALUE_DEPTH) throw valueTooDeep(`subset match at ${path.slice(0, 80)}…`);
  if (isPlainObject(expected)) {
    if (!isPlainObject(actual)) return [`${path || '/'}: expected an object, got ${preview(actual, 60)}`];
    return Object.entries(expected).flatMap(([k, v]) =>
      Object.hasOwn(actual, k) ? subsetMismatches(actual[k], v, `${path}/${k}`, depth + 1) : [`${path}/${k}: missing (expected ${preview(v, 60)})`],
    );
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${path || '/'}: expected a list, got ${preview(actual, 60)}`];
    if (actual.length !== expected.length) return [`${path || '/'}: expected ${expected.length} element(s), got ${actual.length}`];
    return expected.flatMap((v, i) => subsetMismatches(actual[i], v, `${path}/${i}`, depth + 1));
  }
  return deepEqual(actual, expected) ? [] : [`${path || '/'}: expected ${preview(expected, 80)}, got ${preview(actual, 80)}`];
}

export function checkJsonSubset(r: CheckedResponse, expected: unknown, severity: Severity = 'must', redact: Redact = (s) => s): CheckResult {
  const problems = subsetMismatches(r.body, expected);
  const passed = problems.length === 0;
  return result('json', passed, severity, preview(expected), passed ? 'matches' : problems.join('; '),
    passed ? 'body contains the expected values' : `${describeExchange(r, redact)}: body differs: ${redact(problems.slice(0, 5).join('; '))}`);
}

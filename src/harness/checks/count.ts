/** Over a set of results: how many match (status and/or a per-result predicate) is equal to / within bounds. */
import { result, type CheckResult, type Severity } from './types.js';

export interface CountBounds {
  equals?: number;
  min?: number;
  max?: number;
}

export function checkCount(what: string, matched: number, total: number, bounds: CountBounds, severity: Severity = 'must'): CheckResult {
  const parts: string[] = [];
  if (bounds.equals !== undefined) parts.push(`exactly ${bounds.equals}`);
  if (bounds.min !== undefined) parts.push(`at least ${bounds.min}`);
  if (bounds.max !== undefined) parts.push(`at most ${bounds.max}`);
  const expected = parts.join(' and ') || 'any number';
  const passed =
    (bounds.equals === undefined || matched === bounds.equals) &&
    (bounds.min === undefined || matched >= bounds.min) &&
    (bounds.max === undefined || matched <= bounds.max);
  return result('count', passed, severity, `${expected} ${what}`, `${matched} of ${total}`,
    passed ? `${matched} of ${total} ${what}` : `expected ${expected} of ${total} results ${what}, got ${matched}`);
}

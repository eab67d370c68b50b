/** A predicate expression over the variables must evaluate to true (a non-boolean result is a failure too). */
import { evaluate, preview, type Scope } from '../expressions/index.js';
import { result, type CheckResult, type Severity } from './types.js';

export function checkWhere(expression: string, scope: Scope, severity: Severity = 'must'): CheckResult {
  let value: unknown;
  try {
    value = evaluate(expression, scope);
  } catch (e) {
    return result('where', false, severity, 'true', 'error', `where \`${expression}\`: ${(e as Error).message}`);
  }
  const passed = value === true;
  const why = typeof value === 'boolean' ? 'is false' : `gave ${preview(value)} instead of a boolean`;
  return result('where', passed, severity, 'true', preview(value), passed ? `\`${expression}\` holds` : `where \`${expression}\` ${why}`);
}

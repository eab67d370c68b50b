/**
 * Every outcome of a scenario is a named check with a severity. `must` failures fail the scenario; `should`
 * failures are reported as warnings. expected/actual are short renderings for reports (already redacted).
 */
export type Severity = 'must' | 'should';

export interface CheckResult {
  check: string;
  passed: boolean;
  severity: Severity;
  expected: string;
  actual: string;
  message: string;
  /** Clause ids this check verifies (the engine stamps the scenario's `covers:` when the check names none). */
  clauses?: string[];
  /**
   * Made by the engine on every response (the automatic schema check), not by a YAML check: it judges the
   * clause of the step that sent the request (its own `clause:`), else the scenario's covers, never a clause
   * inherited from a `use:` step (that names what the group's YAML checks judge).
   */
  automatic?: boolean;
  /** Its failure shows that one of its clauses is broken, not which (a step's `clause: {in_doubt: [...]}`). */
  doubt?: boolean;
  /** Where the check was made: the step's title and YAML position (stamped by the engine). */
  step?: string;
  at?: { file: string; line: number; column: number };
}

/** What a check needs to know about a response (the engine's ResponseRecord satisfies it). */
export interface CheckedResponse {
  method: string;
  url: string;
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON, or the text when the body is not JSON, or null when empty. */
  body: unknown;
  text: string;
  json_error?: string;
}

export function result(check: string, passed: boolean, severity: Severity, expected: string, actual: string, message: string): CheckResult {
  return { check, passed, severity, expected, actual, message };
}

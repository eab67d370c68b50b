/**
 * The one error-code table: every stable FtfError code with its kind, which decides what a scenario that
 * ended with it means. `non-conformance`: the target answered wrongly (the scenario FAILED). `target`: the
 * target could not be exercised (unreachable, too slow, broke HTTP): ERRORED, says nothing about conformance
 * clauses. `input`: the harness was given something wrong (invalid scenario, bad profile, bad flags): ERRORED.
 * `internal`: a harness bug: ERRORED and the run cannot be trusted (exit 3).
 * test/report/error-codes.test.ts keeps it complete (every code under src/ and specs/) and in step with the
 * README error table.
 */
export type ErrorKind = 'non-conformance' | 'target' | 'input' | 'internal';

export const ERROR_KINDS: readonly ErrorKind[] = ['non-conformance', 'target', 'input', 'internal'];

export const ERROR_CODES = {
  // The target answered, and wrongly.
  FTF_E_CHECK_FAILED: 'non-conformance',
  FTF_E_PROPERTY_VIOLATION: 'non-conformance',
  // The target could not be exercised as the scenario needs.
  FTF_E_TARGET_TIMEOUT: 'target',
  FTF_E_TARGET_UNREACHABLE: 'target',
  FTF_E_TARGET_RESET: 'target',
  FTF_E_TARGET_BODY_TOO_LARGE: 'target',
  FTF_E_TARGET_PROTOCOL: 'target',
  FTF_E_TARGET_MALFORMED: 'target',
  FTF_E_VALUE_TOO_DEEP: 'target',
  FTF_E_BOUND_EXCEEDED: 'target',
  // Normally turned into a skip by the runner; should it surface, the target simply could not be exercised.
  FTF_E_NOT_APPLICABLE: 'target',
  FTF_E_REQUEST_FAILED: 'target',
  FTF_E_RACE_INCONCLUSIVE: 'target',
  FTF_E_AUTH_TOKEN: 'target',
  FTF_E_AUTH_CONSENT: 'target',
  FTF_E_AUTH_CONTROL: 'target',
  FTF_E_PROPERTY_LIMIT_REFUSED: 'target',
  FTF_E_PROPERTY_FAILED: 'target',
  FTF_E_SCENARIO_TIMEOUT: 'target',
  FTF_E_TARGET_START_TIMEOUT: 'target',
  // The harness was given something wrong: a scenario, a profile, flags, files.
  FTF_E_STEP_FAILED: 'input',
  FTF_E_EXPRESSION: 'input',
  FTF_E_SCENARIO_INVALID: 'input',
  FTF_E_SCHEMA_UNKNOWN: 'input',
  FTF_E_SCHEMA_LOAD: 'input',
  FTF_E_OPERATION_MAP_INVALID: 'input',
  FTF_E_OPERATION_AMBIGUOUS: 'input',
  FTF_E_PROFILE_NOT_FOUND: 'input',
  FTF_E_PROFILE_INVALID: 'input',
  FTF_E_PROFILE_SECRET_MISSING: 'input',
  FTF_E_PROFILE_EMBEDDED_UNRESOLVED: 'input',
  FTF_E_PROFILE_API_KEY_IN_PRODUCTION: 'input',
  FTF_E_PRODUCTION_MUTATIONS_REFUSED: 'input',
  FTF_E_CAPABILITY_MISSING: 'input',
  FTF_E_AUTH_CREDENTIAL_UNKNOWN: 'input',
  FTF_E_TARGET_FIELD_INVALID: 'input',
  FTF_E_TARGET_PATH_INVALID: 'input',
  FTF_E_SPEC_MISSING: 'input',
  FTF_E_SPEC_INVALID: 'input',
  FTF_E_CLIENT_PLAN_INVALID: 'input',
  FTF_E_PROPERTY_SETTINGS: 'input',
  FTF_E_WAIVERS_INVALID: 'input',
  FTF_E_REPORT_MISSING: 'input',
  FTF_E_REPORT_INVALID: 'input',
  FTF_E_SIGNING_KEY: 'input',
  FTF_E_NOTHING_SELECTED: 'input',
  FTF_E_USAGE: 'input',
  FTF_E_INIT_INVALID: 'input',
  FTF_E_INIT_EXISTS: 'input',
  FTF_E_INIT_DISCOVERY: 'target',
  FTF_E_UNKNOWN_FAULT: 'input',
  FTF_E_REFERENCE_DATA: 'input',
  FTF_E_UNKNOWN_VARIANT: 'input',
  FTF_E_VARIANT_CONFLICT: 'input',
  FTF_E_ALLURE_MISSING: 'input',
  FTF_E_RUNTIME_MISSING: 'input',
  // Another run holds the reports folder, or it holds a symbolic link: refused before anything starts.
  FTF_E_REPORTS_LOCKED: 'input',
  FTF_E_REPORTS_SYMLINK: 'input',
  // Stopped from outside (SIGINT/SIGTERM/SIGHUP): no verdict, exit 128 + signal.
  FTF_E_INTERRUPTED: 'input',
  // The harness itself broke.
  FTF_E_SECRET_LEAK: 'internal',
  FTF_E_RACE_UNSUPPORTED: 'internal',
  FTF_E_ALLURE: 'internal',
  FTF_E_ALLURE_TIMEOUT: 'internal',
  FTF_E_MUTATION_RUN_BROKEN: 'internal',
  FTF_E_MUTATION_NO_REPORT: 'internal',
  FTF_E_SCENARIO_INTERRUPTED: 'internal',
  FTF_E_INTERNAL: 'internal',
} as const satisfies Record<string, ErrorKind>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The kind of a code; a code missing from the table is a harness bug (the table test keeps this rare). */
export function kindOf(code: string): ErrorKind {
  return Object.hasOwn(ERROR_CODES, code) ? ERROR_CODES[code as ErrorCode] : 'internal';
}

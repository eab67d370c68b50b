/** Maps what a command throws to an exit code and one readable message (never a stack, never a secret). */
import { FtfError } from '../shared/errors.js';
import { InterruptedError, signalExitCode } from './process-group.js';

export const EXIT = { conformant: 0, nonConformant: 1, cannotStart: 2, internal: 3 } as const;

/** Error codes meaning "the run could not start": bad input, bad profile, unreachable target. */
const CANNOT_START = /^FTF_E_(USAGE|PROFILE_|PRODUCTION_MUTATIONS|CAPABILITY|WAIVERS_|TARGET_|SPEC_|SIGNING_KEY|REPORT_MISSING|INIT_|NOTHING|ALLURE_MISSING|RUNTIME_MISSING|CLIENT_PLAN_|REPORTS_LOCKED|REPORTS_SYMLINK)/;

export function exitCodeForError(error: unknown): number {
  if (error instanceof InterruptedError) return signalExitCode(error.signal);
  return error instanceof FtfError && CANNOT_START.test(error.code) ? EXIT.cannotStart : EXIT.internal;
}

export function describeError(command: string, error: unknown): string {
  if (error instanceof FtfError) return `ftf-conformance ${command}: ${error.describe()}`;
  return `ftf-conformance ${command}: internal error: ${error instanceof Error ? error.message : String(error)}`;
}

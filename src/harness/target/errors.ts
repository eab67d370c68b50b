/** Typed errors of profile loading. Codes are stable; messages name the field and never a secret value. */
import { FtfError } from '../../shared/errors.js';
import type { ProfileIssue } from './validate.js';

export const PROFILE_ERROR_CODES = {
  notFound: 'FTF_E_PROFILE_NOT_FOUND',
  invalid: 'FTF_E_PROFILE_INVALID',
  secretMissing: 'FTF_E_PROFILE_SECRET_MISSING',
  apiKeyInProduction: 'FTF_E_PROFILE_API_KEY_IN_PRODUCTION',
  embeddedUnresolved: 'FTF_E_PROFILE_EMBEDDED_UNRESOLVED',
  embeddedStartTimeout: 'FTF_E_TARGET_START_TIMEOUT',
  mutationsRefused: 'FTF_E_PRODUCTION_MUTATIONS_REFUSED',
  capabilityMissing: 'FTF_E_CAPABILITY_MISSING',
} as const;

/** A profile error carrying every problem found (the location is the first one's). */
export class ProfileError extends FtfError {
  readonly issues: ProfileIssue[];

  constructor(code: string, file: string, issues: ProfileIssue[], hint?: string) {
    const lines = issues.map((i) => `  ${file}:${i.line}:${i.column} ${i.message}${i.hint ? ` (hint: ${i.hint})` : ''}`);
    const first = issues[0];
    super(code, `target profile ${file}: ${issues.length} problem${issues.length === 1 ? '' : 's'}\n${lines.join('\n')}`, {
      ...(hint ? { hint } : first?.hint ? { hint: first.hint } : {}),
      location: first ? { file, line: first.line, column: first.column, field: first.field } : { file },
    });
    this.name = 'ProfileError';
    this.issues = issues;
  }
}

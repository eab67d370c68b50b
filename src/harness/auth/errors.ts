/** Typed errors of the auth client. Bodies in messages are redacted excerpts; never raw secrets. */
import { FtfError } from '../../shared/errors.js';
import type { Redactor } from '../http/redactor.js';
import type { HttpResponse } from '../http/types.js';

export const AUTH_ERROR_CODES = {
  token: 'FTF_E_AUTH_TOKEN',
  consent: 'FTF_E_AUTH_CONSENT',
  unknownCredential: 'FTF_E_AUTH_CREDENTIAL_UNKNOWN',
  control: 'FTF_E_AUTH_CONTROL',
  capabilityMissing: 'FTF_E_CAPABILITY_MISSING',
  apiKeyInProduction: 'FTF_E_PROFILE_API_KEY_IN_PRODUCTION',
} as const;

/** A short, redacted excerpt of a response body for error messages (learned secrets included). */
export function excerpt(res: HttpResponse, redactor: Redactor, max = 300): string {
  redactor.learnFromHeaders(res.headers);
  redactor.learnFromBody(res.json !== undefined ? res.json : res.bodyText);
  const text = redactor.redactText(res.bodyText).replace(/\s+/g, ' ').trim();
  return text.length > max ? `${text.slice(0, max)}…` : text || '(empty body)';
}

export function authError(code: string, message: string, hint?: string): FtfError {
  return new FtfError(code, message, hint ? { hint } : {});
}

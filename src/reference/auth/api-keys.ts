/**
 * Sandbox API keys (spec Authentication rule 8): `Authorization: Bearer <API_KEY>` without a token
 * exchange. Keys come from ctx.secrets.apiKeys (generated at start), never expire, and are refused in
 * production, which requires OAuth.
 */
import type { ReferenceContext } from '../context.js';
import { secretMatches } from './client-auth.js';

export const API_KEY_IN_PRODUCTION = 'API keys are not accepted in production; use OAuth.';

/** The e-mail of the user whose API key `presented` is, or undefined. Every key is compared (no early exit). */
export function findApiKeyUser(ctx: ReferenceContext, presented: string): string | undefined {
  let found: string | undefined;
  for (const [email, key] of Object.entries(ctx.secrets.apiKeys)) {
    if (secretMatches(presented, key) && found === undefined) found = email;
  }
  return found;
}

/** Rule 8: API keys are a sandbox convenience only. */
export function apiKeysAccepted(ctx: ReferenceContext): boolean {
  if (ctx.faults.on('api-key-accepted-in-production')) return true;
  if (ctx.faults.on('api-key-refused-in-sandbox')) return false;
  return ctx.options.mode === 'sandbox';
}

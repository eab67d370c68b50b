/** PKCE (RFC 7636), S256 only: the spec's authorization_code grant is "authorization code with PKCE". */
import { createHash, timingSafeEqual } from 'node:crypto';

/** RFC 7636 4.1: 43..128 unreserved characters. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** base64url(sha256(...)) without padding is always 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export function isValidS256Challenge(challenge: string): boolean {
  return S256_CHALLENGE.test(challenge);
}

export function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** True when `verifier` is well-formed and hashes to `challenge` (constant-time comparison). */
export function verifierMatches(verifier: string, challenge: string): boolean {
  if (!VERIFIER.test(verifier)) return false;
  const computed = Buffer.from(s256(verifier));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

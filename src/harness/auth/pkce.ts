/** PKCE (RFC 7636) S256: a 43-character verifier from 32 random bytes and its SHA-256 challenge. */
import { createHash, randomBytes } from 'node:crypto';

export interface Pkce {
  verifier: string;
  challenge: string;
  method: 'S256';
}

export function createPkce(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: challengeFor(verifier), method: 'S256' };
}

export function challengeFor(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** An unguessable state value for the authorize round trip. */
export function createState(): string {
  return randomBytes(16).toString('base64url');
}

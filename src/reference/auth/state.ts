/**
 * The auth module's private state: the clock and the three secret stores. One AuthState per app; nothing
 * here is global, so two servers in one process (tests) never share tokens.
 */
import type { ReferenceContext } from '../context.js';
import { SecretStore } from './secret-store.js';

export interface AuthOptions {
  /** Clock in ms. The core server passes the simulated clock so advancing it also expires tokens. */
  now?: () => number;
}

/** How an access token was obtained (API keys are not tokens and never reach the store). */
export type TokenGrant = 'client_credentials' | 'authorization_code';

export interface AccessTokenRecord {
  userEmail: string;
  clientId: string;
  via: TokenGrant;
  expiresAt: number;
}

export interface RefreshTokenRecord {
  userEmail: string;
  clientId: string;
  expiresAt: number;
}

export interface AuthCodeRecord {
  userEmail: string;
  clientId: string;
  /** The redirect URI the code was delivered to (explicit or the client's only registered one). */
  redirectUri: string;
  codeChallenge: string;
  expiresAt: number;
}

export interface AuthState {
  ctx: ReferenceContext;
  now: () => number;
  accessTokens: SecretStore<AccessTokenRecord>;
  refreshTokens: SecretStore<RefreshTokenRecord>;
  codes: SecretStore<AuthCodeRecord>;
}

/** Authorisation codes are short-lived (RFC 6749 4.1.2 recommends at most 10 minutes; we use 60 s). */
export const CODE_LIFETIME_MS = 60_000;
/** Refresh tokens: single-use (rotated) and long-lived; the spec does not name a lifetime. */
export const REFRESH_LIFETIME_MS = 30 * 24 * 3600 * 1000;

export function createAuthState(ctx: ReferenceContext, options: AuthOptions = {}): AuthState {
  const now = options.now ?? Date.now;
  return {
    ctx,
    now,
    accessTokens: new SecretStore<AccessTokenRecord>(now),
    refreshTokens: new SecretStore<RefreshTokenRecord>(now),
    codes: new SecretStore<AuthCodeRecord>(now),
  };
}

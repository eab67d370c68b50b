/** Issuing access and refresh tokens and shaping the token response (spec Authentication rules 3, 4, 6). */
import { REFRESH_LIFETIME_MS, type AuthState, type TokenGrant } from './state.js';

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer' | 'bearer';
  /** A number; optional and loosely typed only so that faults can break it. */
  expires_in?: number | string;
  /** null only under the variant token-refresh-null (client_credentials: "no refresh token is issued"). */
  refresh_token?: string | null;
  /** Variant token-response-extras: fields beyond those the spec shows. */
  scope?: string;
  issued_at?: number;
}

export interface TokenSubject {
  userEmail: string;
  clientId: string;
  via: TokenGrant;
}

/** The server's lifetime, or the client's own (a test client with short-lived tokens, identities.yaml). */
export function accessTokenLifetimeSeconds(state: AuthState, clientId?: string): number {
  const own = clientId === undefined ? undefined : state.ctx.data.clients.find((c) => c.clientId === clientId)?.tokenLifetimeSeconds;
  return own ?? state.ctx.options.tokenLifetimeSeconds;
}

export function issueAccessToken(state: AuthState, subject: TokenSubject): string {
  const expiresAt = state.now() + accessTokenLifetimeSeconds(state, subject.clientId) * 1000;
  return state.accessTokens.issue({ ...subject, expiresAt });
}

export function issueRefreshToken(state: AuthState, subject: { userEmail: string; clientId: string }): string {
  return state.refreshTokens.issue({ ...subject, expiresAt: state.now() + REFRESH_LIFETIME_MS });
}

/** The response body; `expires_in` is the lifetime the token really has on the auth clock. */
export function tokenResponse(state: AuthState, accessToken: string, refreshToken?: string, clientId?: string): TokenResponse {
  const { faults } = state.ctx;
  const lifetime = accessTokenLifetimeSeconds(state, clientId);
  const body: TokenResponse = { access_token: accessToken, token_type: 'Bearer' };
  if (!faults.on('token-no-expires-in')) body.expires_in = faults.on('token-expires-in-string') ? String(lifetime) : lifetime;
  if (refreshToken !== undefined) body.refresh_token = refreshToken;
  else if (state.ctx.variants.is('token-refresh-null')) body.refresh_token = null;
  if (state.ctx.variants.is('token-response-extras')) {
    body.token_type = 'bearer';
    body.scope = 'ftf.read ftf.write';
    body.issued_at = Math.floor(state.now() / 1000);
  }
  return body;
}

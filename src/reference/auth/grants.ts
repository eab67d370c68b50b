/**
 * The three grant types of the spec's Authentication table. Each rule is one small function, so a fault
 * (issue 5) can deviate at exactly one place: redirect_uri matching, PKCE, refresh rotation.
 */
import type { OAuthClientRecord } from '../data/types.js';
import { formParam, requiredParam, type FormBody } from './form.js';
import { invalidGrant, invalidRequest, OAuthError } from './oauth-error.js';
import { verifierMatches } from './pkce.js';
import type { AuthCodeRecord, AuthState, RefreshTokenRecord } from './state.js';
import { issueAccessToken, issueRefreshToken, tokenResponse, type TokenResponse } from './tokens.js';

type GrantType = OAuthClientRecord['grants'][number];
type GrantHandler = (state: AuthState, client: OAuthClientRecord, form: FormBody) => TokenResponse;

/** A client may only use the grants it was provisioned with. */
function assertGrantAllowed(client: OAuthClientRecord, grant: GrantType): void {
  if (!client.grants.includes(grant)) {
    throw new OAuthError(400, 'unauthorized_client', `This client is not allowed to use the ${grant} grant.`);
  }
}

/**
 * Rule 5: redirect_uri must match the one used to obtain the code. It may be omitted only when the client
 * has exactly one registered redirect URI (then the code was necessarily delivered there).
 */
export function checkRedirectUri(state: AuthState, client: OAuthClientRecord, code: AuthCodeRecord, form: FormBody): void {
  if (state.ctx.faults.on('redirect-uri-not-checked')) return;
  const redirectUri = formParam(form, 'redirect_uri');
  if (redirectUri === undefined) {
    if (client.redirectUris.length === 1) return;
    throw invalidGrant('redirect_uri is required: this client has more than one registered redirect URI.');
  }
  if (redirectUri !== code.redirectUri) {
    throw invalidGrant('redirect_uri does not match the redirect URI used to obtain the authorization code.');
  }
}

/** PKCE: the exchange must prove possession of the verifier behind the code_challenge. */
export function checkPkce(state: AuthState, code: AuthCodeRecord, form: FormBody): void {
  if (state.ctx.faults.on('pkce-not-checked')) return;
  const verifier = formParam(form, 'code_verifier');
  if (verifier === undefined) throw invalidGrant('code_verifier is required (PKCE).');
  if (!verifierMatches(verifier, code.codeChallenge)) throw invalidGrant('code_verifier does not match the code_challenge.');
}

/** Rule 6: every refresh returns a new refresh token; the presented one stops working. */
export function rotateRefreshToken(state: AuthState, presented: string, record: RefreshTokenRecord): string {
  if (state.ctx.faults.on('refresh-token-not-rotated')) return presented;
  state.refreshTokens.take(presented);
  return issueRefreshToken(state, { userEmail: record.userEmail, clientId: record.clientId });
}

const clientCredentials: GrantHandler = (state, client) => {
  assertGrantAllowed(client, 'client_credentials');
  // Rule 4: the pair represents its user; no refresh token, the client simply asks again.
  const access = issueAccessToken(state, { userEmail: client.user, clientId: client.clientId, via: 'client_credentials' });
  if (state.ctx.faults.on('client-credentials-refresh-token')) return tokenResponse(state, access, issueRefreshToken(state, { userEmail: client.user, clientId: client.clientId }), client.clientId);
  return tokenResponse(state, access, undefined, client.clientId);
};

const authorizationCode: GrantHandler = (state, client, form) => {
  assertGrantAllowed(client, 'authorization_code');
  const raw = requiredParam(form, 'code');
  // take(): a code is single-use even when the exchange then fails (RFC 6749 4.1.2).
  const code = state.codes.take(raw);
  if (code === undefined || code.clientId !== client.clientId) {
    throw invalidGrant('The authorization code is invalid, expired, already used or issued to another client.');
  }
  checkRedirectUri(state, client, code, form);
  checkPkce(state, code, form);
  const subject = { userEmail: code.userEmail, clientId: client.clientId };
  const access = issueAccessToken(state, { ...subject, via: 'authorization_code' });
  return tokenResponse(state, access, issueRefreshToken(state, subject), client.clientId);
};

const refreshToken: GrantHandler = (state, client, form) => {
  assertGrantAllowed(client, 'refresh_token');
  const presented = requiredParam(form, 'refresh_token');
  const record = state.refreshTokens.peek(presented);
  if (record === undefined || record.clientId !== client.clientId) {
    throw invalidGrant('The refresh token is invalid, expired, already used or issued to another client.');
  }
  const rotated = rotateRefreshToken(state, presented, record);
  const access = issueAccessToken(state, { userEmail: record.userEmail, clientId: client.clientId, via: 'authorization_code' });
  return tokenResponse(state, access, rotated, client.clientId);
};

const GRANTS: Readonly<Record<GrantType, GrantHandler>> = {
  client_credentials: clientCredentials,
  authorization_code: authorizationCode,
  refresh_token: refreshToken,
};

export function runGrant(state: AuthState, client: OAuthClientRecord, form: FormBody): TokenResponse {
  const grantType = formParam(form, 'grant_type');
  if (grantType === undefined) throw invalidRequest('Missing required parameter: grant_type.');
  if (!Object.hasOwn(GRANTS, grantType)) {
    throw new OAuthError(400, 'unsupported_grant_type', 'Unsupported grant_type (supported: client_credentials, authorization_code, refresh_token).');
  }
  return GRANTS[grantType as GrantType](state, client, form);
}

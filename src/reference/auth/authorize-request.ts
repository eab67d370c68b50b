/**
 * Validation of an /oauth/authorize request (RFC 6749 4.1.1 + RFC 7636 4.3), shared by GET and POST.
 * Errors before the redirect URI is trusted are shown as a page (never a redirect, which would make us an
 * open redirector); later errors go back to the client's redirect URI (RFC 6749 4.1.2.1).
 */
import type { OAuthClientRecord } from '../data/types.js';
import type { ConsentFields } from './consent-page.js';
import { isValidS256Challenge } from './pkce.js';
import { findClient } from './principal.js';
import type { AuthState } from './state.js';

export type Params = Record<string, unknown>;

/** Shown as a 400 HTML page. */
export class AuthorizePageError extends Error {}

/** Sent back as `redirect_uri?error=...&state=...`. */
export class AuthorizeRedirectError extends Error {
  constructor(
    readonly error: 'invalid_request' | 'unsupported_response_type' | 'access_denied' | 'login_required',
    readonly description: string,
    readonly redirectUri: string,
    readonly state: string | undefined,
  ) {
    super(description);
  }

  /** Where the user agent is sent: the client's redirect URI with error, error_description and state. */
  location(): string {
    return redirectTo(this.redirectUri, { error: this.error, error_description: this.description, state: this.state });
  }
}

export interface AuthorizeRequest {
  client: OAuthClientRecord;
  redirectUri: string;
  state: string | undefined;
  codeChallenge: string;
  /** The fields the consent form carries back in hidden inputs. */
  fields: ConsentFields;
}

/** A single string parameter; empty counts as absent; a repeated one is refused. */
function param(params: Params, name: string): string | undefined {
  const value = params[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw new AuthorizePageError(`Parameter ${name} must be sent once.`);
  return value;
}

function trustedClient(state: AuthState, params: Params): OAuthClientRecord {
  const clientId = param(params, 'client_id');
  if (clientId === undefined) throw new AuthorizePageError('Missing client_id.');
  const client = findClient(state.ctx, clientId);
  if (client === undefined) throw new AuthorizePageError('Unknown client_id.');
  if (!client.grants.includes('authorization_code')) {
    throw new AuthorizePageError('This client is not enabled for the authorization code flow.');
  }
  return client;
}

/** Rule 5: a registered redirect URI, exact match; required when the client has several. */
function trustedRedirectUri(client: OAuthClientRecord, params: Params): string {
  const given = param(params, 'redirect_uri');
  if (given === undefined) {
    const only = client.redirectUris.length === 1 ? client.redirectUris[0] : undefined;
    if (only === undefined) throw new AuthorizePageError('redirect_uri is required: this client has several registered redirect URIs.');
    return only;
  }
  if (!client.redirectUris.includes(given)) throw new AuthorizePageError('redirect_uri is not registered for this client.');
  return given;
}

export function validateAuthorizeRequest(state: AuthState, params: Params): AuthorizeRequest {
  const client = trustedClient(state, params);
  const redirectUri = trustedRedirectUri(client, params);
  const clientState = param(params, 'state');
  const fail = (error: AuthorizeRedirectError['error'], description: string): AuthorizeRedirectError =>
    new AuthorizeRedirectError(error, description, redirectUri, clientState);
  const responseType = param(params, 'response_type');
  if (responseType === undefined) throw fail('invalid_request', 'response_type is required.');
  if (responseType !== 'code') throw fail('unsupported_response_type', 'Only response_type=code is supported.');
  const codeChallenge = param(params, 'code_challenge');
  if (codeChallenge === undefined) throw fail('invalid_request', 'code_challenge is required (PKCE).');
  if (param(params, 'code_challenge_method') !== 'S256') throw fail('invalid_request', 'code_challenge_method=S256 is required.');
  if (!isValidS256Challenge(codeChallenge)) throw fail('invalid_request', 'code_challenge must be base64url(SHA-256(code_verifier)).');
  const fields: ConsentFields = {
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: redirectUri,
    code_challenge: codeChallenge,
    code_challenge_method: 'S256',
  };
  if (clientState !== undefined) fields.state = clientState;
  return { client, redirectUri, state: clientState, codeChallenge, fields };
}

/** `redirectUri` with `params` added to its query (existing query parameters are kept). */
export function redirectTo(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  return url.toString();
}

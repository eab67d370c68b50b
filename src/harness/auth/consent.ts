/**
 * The consent step of Code Authorisation, automated per the profile's strategy: auto-approve-url (GET the
 * authorize URL) or form-post (POST the consent form). Either way the answer must be a redirect whose
 * Location carries `code` and our `state`; redirects are not followed (the redirect URI need not exist).
 */
import type { Redactor } from '../http/redactor.js';
import type { CredentialConfig } from '../target/types.js';
import type { CodeGrant } from './types.js';
import { AUTH_ERROR_CODES, authError, excerpt } from './errors.js';
import { createPkce, createState } from './pkce.js';
import type { LabelledTransport } from './token-endpoint.js';

export async function runConsent(args: {
  transport: LabelledTransport;
  redactor: Redactor;
  authUrl: string;
  cred: CredentialConfig;
  redirectUri?: string;
  timeoutMs: number;
}): Promise<CodeGrant> {
  const { cred, redactor } = args;
  const consent = cred.consent;
  const redirectUri = args.redirectUri ?? cred.redirectUri;
  if (!consent || !cred.clientId || !redirectUri) {
    throw authError(AUTH_ERROR_CODES.capabilityMissing, `credential "${cred.name}" has no automatable consent (consent strategy, client_id and redirect_uri are needed)`,
      'configure credentials.<name>.consent or provide refresh_token_env');
  }
  const pkce = createPkce();
  const state = createState();
  redactor.addSecret(pkce.verifier, 'FTF_CODE_VERIFIER');
  const params = new URLSearchParams({
    response_type: 'code',
    client_id: cred.clientId,
    redirect_uri: redirectUri,
    state,
    code_challenge: pkce.challenge,
    code_challenge_method: pkce.method,
    ...consent.params,
  }).toString();
  const url = `${args.authUrl}${consent.authorizePath}`;
  const res = consent.strategy === 'auto-approve-url'
    ? await args.transport.send({ method: 'GET', url: `${url}?${params}`, headers: { accept: 'text/html,application/json' }, timeoutMs: args.timeoutMs }, `consent: authorize ${cred.name}`)
    : await args.transport.send(
      { method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html,application/json' }, body: params, timeoutMs: args.timeoutMs },
      `consent: post consent form for ${cred.name}`,
    );
  // Method + URL (without the query: it carries the state and challenge) so a failure reads like every exchange failure.
  const what = `consent step (${consent.strategy}) for credential "${cred.name}": ${consent.strategy === 'auto-approve-url' ? 'GET' : 'POST'} ${url}`;
  const location = res.headers.location;
  if (res.status < 300 || res.status > 399 || !location) {
    throw authError(AUTH_ERROR_CODES.consent, `${what} answered HTTP ${res.status} without a redirect: ${excerpt(res, redactor)}`,
      'check consent.strategy, consent.authorize_path and consent.params in the profile');
  }
  const target = new URL(location, url);
  const query = target.searchParams;
  const code = query.get('code');
  if (code) redactor.addSecret(code, 'FTF_AUTH_CODE');
  const expected = new URL(redirectUri);
  if (target.origin !== expected.origin || target.pathname !== expected.pathname) {
    throw authError(AUTH_ERROR_CODES.consent, `${what} redirected to ${target.origin}${target.pathname}, not to the redirect_uri ${expected.origin}${expected.pathname}`);
  }
  const error = query.get('error');
  if (error) {
    throw authError(AUTH_ERROR_CODES.consent, `${what} was refused: error=${error}${query.get('error_description') ? ` (${redactor.redactText(query.get('error_description') ?? '')})` : ''}`);
  }
  if (query.get('state') !== state) {
    throw authError(AUTH_ERROR_CODES.consent, `${what} returned a state that does not match the one sent (possible CSRF or a broken authorize endpoint)`);
  }
  if (!code) throw authError(AUTH_ERROR_CODES.consent, `${what} redirected without a code`);
  return { code, codeVerifier: pkce.verifier, redirectUri, state };
}

/**
 * GET|POST {auth_url}/oauth/authorize: the consent step of Code Authorisation (spec Authentication rule 5).
 *
 * Interactive flow
 *   GET  /oauth/authorize?response_type=code&client_id=…&redirect_uri=…&state=…
 *        &code_challenge=<base64url(sha256(verifier))>&code_challenge_method=S256
 *        -> 200 HTML consent page: a form (e-mail, password, Approve / Deny) that posts the request back in
 *           hidden fields. redirect_uri may be omitted only when the client has exactly one registered URI.
 *   POST /oauth/authorize (form: the hidden fields + email, password, decision=approve|deny)
 *        -> approve with the right password of the client's user: 302 redirect_uri?code=…&state=…
 *        -> deny: 302 redirect_uri?error=access_denied&state=…
 *        -> wrong e-mail/password: 200, the form again with an error message (no code)
 *   An unknown client_id, a client without the code grant or an unregistered / missing redirect_uri is a
 *   400 HTML page, never a redirect. Other request errors (response_type, PKCE parameters) are redirected
 *   as ?error=invalid_request|unsupported_response_type (RFC 6749 4.1.2.1). Codes live 60 s, single use.
 *
 * Non-interactive shortcut (SANDBOX ONLY, for automated conformance runs)
 *   GET /oauth/authorize?…same parameters…&prompt=none&login_hint=<user e-mail>
 *        -> 302 redirect_uri?code=…&state=… at once, as if that user had approved.
 *        -> login_hint missing: 302 ?error=login_required; login_hint not the client's user: ?error=access_denied.
 *   In production mode prompt=none is refused with a 400 HTML page: consent must be given by a person.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  AuthorizePageError,
  AuthorizeRedirectError,
  redirectTo,
  validateAuthorizeRequest,
  type AuthorizeRequest,
  type Params,
} from './authorize-request.js';
import { secretMatches } from './client-auth.js';
import { renderConsentPage, renderErrorPage, sendHtml } from './consent-page.js';
import { findUser } from './principal.js';
import { CODE_LIFETIME_MS, type AuthState } from './state.js';

function asParams(value: unknown): Params {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Params) : {};
}

function str(params: Params, name: string): string | undefined {
  const value = params[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function issueCode(state: AuthState, req: AuthorizeRequest, userEmail: string): string {
  return state.codes.issue({
    userEmail,
    clientId: req.client.clientId,
    redirectUri: req.redirectUri,
    codeChallenge: req.codeChallenge,
    expiresAt: state.now() + CODE_LIFETIME_MS,
  });
}

function redirectWithCode(reply: FastifyReply, state: AuthState, req: AuthorizeRequest, userEmail: string): FastifyReply {
  const code = issueCode(state, req, userEmail);
  return reply.header('cache-control', 'no-store').redirect(redirectTo(req.redirectUri, { code, state: req.state }), 302);
}

/** The sandbox-only prompt=none shortcut; production refuses it (consent needs a person there). */
export function promptNoneAllowed(state: AuthState): boolean {
  return state.ctx.options.mode === 'sandbox';
}

/** Only the client's provisioned user may consent (OAuthClientRecord.user). */
function mayConsent(req: AuthorizeRequest, userEmail: string): boolean {
  return req.client.user === userEmail;
}

function handlePromptNone(state: AuthState, req: AuthorizeRequest, params: Params, reply: FastifyReply): FastifyReply {
  if (!promptNoneAllowed(state)) throw new AuthorizePageError('prompt=none is available in the sandbox only; sign in on the consent page.');
  const hint = str(params, 'login_hint');
  if (hint === undefined) throw new AuthorizeRedirectError('login_required', 'prompt=none needs login_hint=<user e-mail>.', req.redirectUri, req.state);
  if (findUser(state.ctx, hint) === undefined || !mayConsent(req, hint)) {
    throw new AuthorizeRedirectError('access_denied', 'This user may not authorise this client.', req.redirectUri, req.state);
  }
  return redirectWithCode(reply, state, req, hint);
}

type Login = { userEmail: string } | { error: string };

/** Checks e-mail and password: the consenting user, or the error to show on the form. */
function login(state: AuthState, req: AuthorizeRequest, email: string | undefined, password: string | undefined): Login {
  const known = email === undefined ? undefined : findUser(state.ctx, email);
  const expected = known === undefined ? undefined : state.ctx.secrets.passwords[known.email];
  if (known === undefined || password === undefined || !secretMatches(password, expected)) return { error: 'Wrong e-mail or password.' };
  if (!mayConsent(req, known.email)) return { error: 'This user may not authorise this client.' };
  return { userEmail: known.email };
}

function handleDecision(state: AuthState, req: AuthorizeRequest, params: Params, reply: FastifyReply): FastifyReply {
  const decision = str(params, 'decision') ?? 'approve';
  if (decision === 'deny') {
    throw new AuthorizeRedirectError('access_denied', 'The user denied the request.', req.redirectUri, req.state);
  }
  const email = str(params, 'email');
  const result: Login = decision === 'approve' ? login(state, req, email, str(params, 'password')) : { error: 'Choose Approve or Deny.' };
  if ('error' in result) return sendHtml(reply, 200, renderConsentPage({ fields: req.fields, email, error: result.error }));
  return redirectWithCode(reply, state, req, result.userEmail);
}

function handler(state: AuthState, source: 'query' | 'body') {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const params = asParams(source === 'query' ? request.query : request.body);
    try {
      const req = validateAuthorizeRequest(state, params);
      if (source === 'body') return handleDecision(state, req, params, reply);
      if (str(params, 'prompt') === 'none') return handlePromptNone(state, req, params, reply);
      return sendHtml(reply, 200, renderConsentPage({ fields: req.fields, email: str(params, 'login_hint') }));
    } catch (err) {
      if (err instanceof AuthorizePageError) return sendHtml(reply, 400, renderErrorPage(err.message));
      if (err instanceof AuthorizeRedirectError) return reply.header('cache-control', 'no-store').redirect(err.location(), 302);
      throw err;
    }
  };
}

/** Registers the authorize endpoint in `scope`, which must have @fastify/formbody registered. */
export function registerAuthorize(scope: FastifyInstance, state: AuthState): void {
  scope.get('/oauth/authorize', handler(state, 'query'));
  scope.post('/oauth/authorize', handler(state, 'body'));
}

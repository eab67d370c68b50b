/**
 * Authentication of every {base_url} request (spec Authentication; Errors 401): `Authorization: Bearer`
 * with an access token from /oauth/token, or (sandbox only) an API key. Sets `request.principal`.
 *
 * Order: a request to an unknown route is answered 404 by the not-found handler BEFORE authentication
 * (as FastAPI-style services do, where auth belongs to the route). This is what makes
 * `{base_url}/oauth/token` a 404 even for a token request carrying Basic credentials (clause
 * AUTH-TOKEN-ROOT). Known routes answer 401 before anything else (validation, 403, 404 of ids).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal, ReferenceContext } from '../context.js';
import { API_KEY_IN_PRODUCTION, apiKeysAccepted, findApiKeyUser } from './api-keys.js';
import { buildPrincipal } from './principal.js';
import type { AccessTokenRecord, AuthState } from './state.js';
import { tokenEndpointPaths } from './token-endpoint.js';
import { apiPaths } from '../variants.js';
import { openDetail } from '../http/errors.js';

export const NOT_AUTHENTICATED = 'Not authenticated';
export const INVALID_TOKEN = 'Invalid or expired access token';

const API_PREFIX = '/api/v1';
/** RFC 6750 2.1 b64token. */
const BEARER = /^bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

export class BearerError extends Error {
  constructor(readonly detail: string, readonly challenge: string) {
    super(detail);
  }
}

const missing = (): BearerError => new BearerError(NOT_AUTHENTICATED, 'Bearer realm="ftf"');
const invalid = (detail = INVALID_TOKEN): BearerError => new BearerError(detail, 'Bearer realm="ftf", error="invalid_token"');

/**
 * Paths under {base_url} need a bearer; the token endpoint never does (even if it were mounted there), nor
 * the health check under the variant health-public.
 */
export function isProtectedPath(ctx: ReferenceContext, url: string): boolean {
  const path = url.split('?', 1)[0] ?? '';
  if (path !== API_PREFIX && !path.startsWith(`${API_PREFIX}/`)) return false;
  if (ctx.variants.is('health-public') && path === `${API_PREFIX}${apiPaths(ctx.variants).health}`) return false;
  return !tokenEndpointPaths(ctx).includes(path);
}

/**
 * Unknown routes answer 404 before authentication; under the variant unknown-route-401-first they need a
 * bearer first, except {base_url}/oauth/token, which stays a 404 for a token request (Authentication rule 2).
 */
function authenticatesUnknownRoutes(ctx: ReferenceContext, url: string): boolean {
  return ctx.variants.is('unknown-route-401-first') && (url.split('?', 1)[0] ?? '') !== `${API_PREFIX}/oauth/token`;
}

/** Tokens really expire: valid while now < expiresAt on the auth clock (the simulated one in the server). */
export function accessTokenExpired(state: AuthState, record: AccessTokenRecord): boolean {
  if (state.ctx.faults.on('expired-token-accepted')) return false;
  // The fault adds a clock-skew leeway, as JWT libraries offer: 30 s past expires_in still pass.
  const leewayMs = state.ctx.faults.on('token-expiry-grace-10min') ? 600_000 : 0;
  return state.now() >= record.expiresAt + leewayMs;
}

function principalFromApiKey(state: AuthState, presented: string): Principal | undefined {
  const email = findApiKeyUser(state.ctx, presented);
  if (email === undefined) return undefined;
  if (!apiKeysAccepted(state.ctx)) throw invalid(API_KEY_IN_PRODUCTION);
  return buildPrincipal(state.ctx, email, null, 'api_key');
}

/** The caller of a {base_url} request, or throws BearerError (answered 401). */
export function authenticateBearer(state: AuthState, authorization: string | undefined): Principal {
  if (authorization === undefined || authorization.trim() === '') throw missing();
  const presented = BEARER.exec(authorization.trim())?.[1];
  if (presented === undefined) throw invalid();
  const record = state.accessTokens.peekIgnoringExpiry(presented);
  if (record !== undefined) {
    if (accessTokenExpired(state, record)) throw invalid();
    const principal = buildPrincipal(state.ctx, record.userEmail, record.clientId, record.via);
    if (principal === undefined) throw invalid();
    return principal;
  }
  const principal = principalFromApiKey(state, presented);
  if (principal === undefined) throw invalid();
  return principal;
}

/** The spec's failure shape `{detail: string}`. */
export function unauthorizedBody(ctx: ReferenceContext, reference: string): Record<string, string> {
  const detail = openDetail(401, reference, ctx.variants, '');
  return ctx.faults.on('unauthorized-body-not-detail') ? { error: 'invalid_token', message: detail } : { detail };
}

export function bearerHook(state: AuthState) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if ((request.is404 && !authenticatesUnknownRoutes(state.ctx, request.url)) || !isProtectedPath(state.ctx, request.url)) return;
    try {
      request.principal = authenticateBearer(state, request.headers.authorization);
    } catch (err) {
      if (!(err instanceof BearerError)) throw err;
      await reply.code(401).header('www-authenticate', err.challenge).send(unauthorizedBody(state.ctx, err.detail));
    }
  };
}

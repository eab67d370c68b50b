/**
 * POST {auth_url}/oauth/token (spec Authentication rules 1-2). Order of checks: method, Content-Type
 * (before the body is parsed), client authentication by HTTP Basic, then the grant.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ReferenceContext } from '../context.js';
import { authenticateClient } from './client-auth.js';
import { asFormBody, isFormUrlEncoded } from './form.js';
import { runGrant } from './grants.js';
import { invalidRequest, noStore, OAuthError, sendOAuthError } from './oauth-error.js';
import type { AuthState } from './state.js';

/** Where the token endpoint lives: the environment root only (rule 2; {base_url}/oauth/token is a 404). */
export function tokenEndpointPaths(ctx: ReferenceContext): string[] {
  if (ctx.faults.on('token-also-under-base-url')) return ['/oauth/token', '/api/v1/oauth/token'];
  if (ctx.faults.on('token-only-under-base-url')) return ['/api/v1/oauth/token'];
  return ['/oauth/token'];
}

async function requireForm(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (!isFormUrlEncoded(request.headers['content-type'])) {
    // Answered in onRequest, so a JSON or unknown body is never parsed (no 415 from Fastify's parsers).
    await sendOAuthError(reply, invalidRequest('Token requests must be sent as application/x-www-form-urlencoded.'));
  }
}

function handleToken(state: AuthState) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    try {
      const form = asFormBody(request.body);
      const client = authenticateClient(state, request.headers.authorization, form);
      return noStore(reply).send(runGrant(state, client, form));
    } catch (err) {
      if (err instanceof OAuthError) return sendOAuthError(reply, err);
      throw err;
    }
  };
}

async function methodNotAllowed(_request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const err = new OAuthError(405, 'invalid_request', 'The token endpoint accepts POST only.', { allow: 'POST' });
  return sendOAuthError(reply, err);
}

/** Registers the token endpoint in `scope`, which must have @fastify/formbody registered. */
export function registerTokenEndpoint(scope: FastifyInstance, state: AuthState): void {
  for (const url of tokenEndpointPaths(state.ctx)) {
    scope.route({ method: 'POST', url, onRequest: requireForm, handler: handleToken(state) });
    scope.route({ method: ['GET', 'PUT', 'PATCH', 'DELETE'], url, handler: methodNotAllowed });
  }
}

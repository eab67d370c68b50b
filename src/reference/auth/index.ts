/**
 * Authentication and authorisation of the reference server (spec "Authentication").
 *
 *   registerAuth(app, ctx, { now })   token endpoint, authorize/consent, bearer hook for {base_url}
 *   assertEntityAllowed(...)          403 "Not authorised for this entity"
 *   assertEndpointAllowed(...)        403 "Endpoint not enabled for this API user."
 *
 * Call registerAuth on the root instance BEFORE registering the API routes' plugins and the not-found
 * handler: a root hook only reaches child plugins created after it.
 */
import formbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import type { Principal, ReferenceContext } from '../context.js';
import { registerAuthorize } from './authorize.js';
import { bearerHook } from './bearer.js';
import { createAuthState, type AuthOptions } from './state.js';
import { registerTokenEndpoint } from './token-endpoint.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth hook on every authenticated {base_url} request. */
    principal?: Principal;
  }
}

export type { AuthOptions } from './state.js';
export { assertEndpointAllowed, assertEntityAllowed, ENDPOINT_FORBIDDEN, ENTITY_FORBIDDEN } from './permissions.js';
export { INVALID_TOKEN, NOT_AUTHENTICATED } from './bearer.js';
export { API_KEY_IN_PRODUCTION } from './api-keys.js';

export async function registerAuth(app: FastifyInstance, ctx: ReferenceContext, options: AuthOptions = {}): Promise<void> {
  const state = createAuthState(ctx, options);
  if (!app.hasRequestDecorator('principal')) app.decorateRequest('principal', undefined);
  app.addHook('onRequest', bearerHook(state));
  // Encapsulated: the form-urlencoded parser exists only for the OAuth routes, JSON routes are unaffected.
  await app.register(async (scope) => {
    await scope.register(formbody);
    registerTokenEndpoint(scope, state);
    registerAuthorize(scope, state);
  });
}

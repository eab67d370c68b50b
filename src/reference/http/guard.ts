/**
 * Per-handler checks in the spec's order: the caller (set by the auth hook), endpoint permission (403 for
 * read-only clients on writes), schema validation (attached by Fastify with attachValidation, thrown here
 * so that 401/403 come before 422), entity allow-list (403).
 */
import type { FastifyRequest } from 'fastify';
import { assertEndpointAllowed, assertEntityAllowed } from '../auth/index.js';
import { ApiError, type Principal, type ReferenceContext } from '../context.js';

export function principalOf(request: FastifyRequest): Principal {
  const p = request.principal;
  if (!p) throw new ApiError(401, 'Not authenticated');
  return p;
}

/** The caller, after the endpoint permission check. `routeId` is the path template under {base_url}. */
export function allowEndpoint(request: FastifyRequest, routeId: string, ctx: ReferenceContext): Principal {
  const p = principalOf(request);
  assertEndpointAllowed(p, request.method, routeId, ctx);
  return p;
}

/** Throws the schema validation error Fastify attached (answered 422 by the error handler). */
export function throwIfInvalid(request: FastifyRequest): void {
  if (request.validationError) throw request.validationError;
}

export function allowEntity(p: Principal, entityCode: string, ctx: ReferenceContext): void {
  assertEntityAllowed(p, entityCode, ctx);
}

/** Endpoint check + validation: the usual start of a handler. */
export function begin(request: FastifyRequest, routeId: string, ctx: ReferenceContext): Principal {
  const p = allowEndpoint(request, routeId, ctx);
  throwIfInvalid(request);
  return p;
}

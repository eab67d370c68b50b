/**
 * Permission checks (spec Authentication rule 9; Errors 403) called by the routes after authentication.
 * Retrying a 403 does not help, so these never depend on time or state.
 */
import { ApiError, type Principal, type ReferenceContext } from '../context.js';

export const ENTITY_FORBIDDEN = 'Not authorised for this entity';
export const ENDPOINT_FORBIDDEN = 'Endpoint not enabled for this API user.';

/** Read-only clients may read; HEAD is a read. */
const READ_METHODS = new Set(['GET', 'HEAD']);
/** The fault readonly-client-can-delete: a deny-list of write methods that forgets DELETE. */
const WRITES_WITHOUT_DELETE = new Set(['POST', 'PUT', 'PATCH']);

/** Throws 403 unless `entityCode` is on the caller's allow-list (whether the entity exists is the route's job). */
export function assertEntityAllowed(principal: Principal, entityCode: string, ctx: ReferenceContext): void {
  if (principal.allowedEntities.includes(entityCode) || ctx.faults.on('entity-403-as-200')) return;
  if (ctx.faults.on('entity-403-as-404')) throw new ApiError(404, 'Entity not found');
  throw new ApiError(403, ctx.faults.on('entity-403-detail-changed') ? 'Forbidden' : ENTITY_FORBIDDEN);
}

/**
 * Throws 403 when the client is not provisioned for the endpoint. The only provisioning the reference data
 * knows is read-only (GET only); `routeId` is there for finer per-endpoint rules.
 */
export function assertEndpointAllowed(principal: Principal, method: string, _routeId: string, ctx: ReferenceContext): void {
  if (ctx.faults.on('readonly-client-can-write')) return;
  const m = method.toUpperCase();
  const write = ctx.faults.on('readonly-client-can-delete') ? WRITES_WITHOUT_DELETE.has(m) : !READ_METHODS.has(m);
  if (principal.readOnly && write) throw new ApiError(403, ENDPOINT_FORBIDDEN);
}

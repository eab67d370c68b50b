/**
 * GET /holding/{entity_code} -> Holding[]; GET /holding/{entity_code}/{holding_uid} -> Holding (404
 * "Holding not found", also for a holding of another entity); .../extension -> Extension[].
 */
import type { FastifyInstance } from 'fastify';
import { ApiError, type Faults } from '../context.js';
import type { Holding } from '../data/types.js';
import { allowEntity, begin } from '../http/guard.js';
import { listBody } from '../http/shape.js';
import { apiPaths, fastifyPath } from '../variants.js';
import { CODE_SCHEMA, UID_SCHEMA, type RouteDeps } from './deps.js';

interface Params {
  entity_code: string;
  holding_uid: string;
}

const ENTITY_PARAMS = { type: 'object', properties: { entity_code: CODE_SCHEMA }, required: ['entity_code'] } as const;
const HOLDING_PARAMS = {
  type: 'object', properties: { entity_code: CODE_SCHEMA, holding_uid: UID_SCHEMA }, required: ['entity_code', 'holding_uid'],
} as const;

/** A Holding as the API shows it (Resources / Holding): the one place its wire shape is decided. */
export function holdingView(h: Holding, faults: Faults): Record<string, unknown> {
  const view: Record<string, unknown> = { ...h };
  if (faults.on('holding-number-as-string')) view.cost = String(h.cost);
  if (faults.on('holding-missing-cell-code')) delete view.cellCode;
  if (faults.on('holding-status-lowercase')) view.status = h.status.toLowerCase();
  if (faults.on('holding-date-with-time')) view.issueDate = `${h.issueDate}T00:00:00Z`;
  return view;
}

export function registerHoldingRoutes(app: FastifyInstance, { ctx, domain }: RouteDeps): void {
  /** The holding of that entity; an unknown uid (or one of another entity) is 404. */
  const holdingOf = (entityCode: string, uid: string): Holding | null => {
    const h = domain.holdings.get(uid);
    if (!h || h.entityCode !== entityCode) {
      if (ctx.faults.on('unknown-resource-200-null')) return null;
      throw new ApiError(404, 'Holding not found');
    }
    return h;
  };

  const paths = apiPaths(ctx.variants);
  // The entity as a path segment, or (variant entity-in-query) as the entity_code query parameter.
  const inQuery = paths.holdings.includes('?');
  app.get<{ Params: Partial<Params>; Querystring: Partial<Params> }>(fastifyPath(paths.holdings), {
    attachValidation: true, schema: inQuery ? { querystring: ENTITY_PARAMS } : { params: ENTITY_PARAMS },
  }, async (request, reply) => {
    const p = begin(request, paths.holdings, ctx);
    const code = (inQuery ? request.query.entity_code : request.params.entity_code) ?? '';
    allowEntity(p, code, ctx);
    return listBody(ctx, 'holdings', domain.holdingsOf(code).map((h) => holdingView(h, ctx.faults)), request, reply);
  });
  app.get<{ Params: Params }>('/holding/:entity_code/:holding_uid', { attachValidation: true, schema: { params: HOLDING_PARAMS } }, async (request) => {
    const p = begin(request, '/holding/{entity_code}/{holding_uid}', ctx);
    // The fault forgets the allow-list on the single read (the lists keep it): existence is all it checks.
    if (!ctx.faults.on('holding-read-skips-allow-list')) allowEntity(p, request.params.entity_code, ctx);
    // The fault finds the holding by uid alone: a holding of another of the caller's entities is served too.
    const other = ctx.faults.on('holding-read-ignores-entity') ? domain.holdings.get(request.params.holding_uid) : undefined;
    const h = other && p.allowedEntities.includes(other.entityCode) ? other : holdingOf(request.params.entity_code, request.params.holding_uid);
    return h === null ? null : holdingView(h, ctx.faults);
  });
  app.get<{ Params: Params }>(fastifyPath(paths.holding_extensions), { attachValidation: true, schema: { params: HOLDING_PARAMS } }, async (request, reply) => {
    const p = begin(request, paths.holding_extensions, ctx);
    allowEntity(p, request.params.entity_code, ctx);
    const h = holdingOf(request.params.entity_code, request.params.holding_uid);
    return h === null ? null : listBody(ctx, 'holding_extensions', domain.extensions.get(h.uid) ?? [], request, reply);
  });
}

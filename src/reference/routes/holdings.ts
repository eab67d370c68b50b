/**
 * GET /holding/{entity_code} -> Holding[]; GET /holding/{entity_code}/{holding_uid} -> Holding (404
 * "Holding not found", also for a holding of another entity); .../extension -> Extension[].
 */
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../context.js';
import type { Holding } from '../data/types.js';
import { allowEntity, begin } from '../http/guard.js';
import { CODE_SCHEMA, UID_SCHEMA, type RouteDeps } from './deps.js';

interface Params {
  entity_code: string;
  holding_uid: string;
}

const ENTITY_PARAMS = { type: 'object', properties: { entity_code: CODE_SCHEMA }, required: ['entity_code'] } as const;
const HOLDING_PARAMS = {
  type: 'object', properties: { entity_code: CODE_SCHEMA, holding_uid: UID_SCHEMA }, required: ['entity_code', 'holding_uid'],
} as const;

export function registerHoldingRoutes(app: FastifyInstance, { ctx, domain }: RouteDeps): void {
  const holdingOf = (entityCode: string, uid: string): Holding => {
    const h = domain.holdings.get(uid);
    if (!h || h.entityCode !== entityCode) throw new ApiError(404, 'Holding not found');
    return h;
  };

  app.get<{ Params: Pick<Params, 'entity_code'> }>('/holding/:entity_code', { attachValidation: true, schema: { params: ENTITY_PARAMS } }, async (request) => {
    const p = begin(request, '/holding/{entity_code}', ctx);
    allowEntity(p, request.params.entity_code, ctx);
    return domain.holdingsOf(request.params.entity_code);
  });
  app.get<{ Params: Params }>('/holding/:entity_code/:holding_uid', { attachValidation: true, schema: { params: HOLDING_PARAMS } }, async (request) => {
    const p = begin(request, '/holding/{entity_code}/{holding_uid}', ctx);
    allowEntity(p, request.params.entity_code, ctx);
    return holdingOf(request.params.entity_code, request.params.holding_uid);
  });
  app.get<{ Params: Params }>('/holding/:entity_code/:holding_uid/extension', { attachValidation: true, schema: { params: HOLDING_PARAMS } }, async (request) => {
    const p = begin(request, '/holding/{entity_code}/{holding_uid}/extension', ctx);
    allowEntity(p, request.params.entity_code, ctx);
    const h = holdingOf(request.params.entity_code, request.params.holding_uid);
    return domain.extensions.get(h.uid) ?? [];
  });
}

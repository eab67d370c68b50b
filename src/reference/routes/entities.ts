/**
 * GET /entity (the caller's allow-listed entities), GET /entity/{code}, GET /entity/{code}/user.
 * An entity not on the allow-list is 403 "Not authorised for this entity", whether it exists or not.
 */
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../context.js';
import type { Entity, EntityRecord } from '../data/types.js';
import { allowEntity, begin } from '../http/guard.js';
import { CODE_SCHEMA, type RouteDeps } from './deps.js';

const PARAMS = { type: 'object', properties: { code: CODE_SCHEMA }, required: ['code'] } as const;

function publicEntity(e: EntityRecord): Entity {
  const { users: _users, ...entity } = e;
  return entity;
}

export function registerEntityRoutes(app: FastifyInstance, { ctx }: RouteDeps): void {
  const find = (code: string): EntityRecord => {
    const e = ctx.data.entities.find((x) => x.code === code);
    if (!e) throw new ApiError(404, 'Entity not found');
    return e;
  };

  app.get('/entity', async (request) => {
    const p = begin(request, '/entity', ctx);
    return ctx.data.entities.filter((e) => p.allowedEntities.includes(e.code)).map(publicEntity);
  });
  app.get<{ Params: { code: string } }>('/entity/:code', { attachValidation: true, schema: { params: PARAMS } }, async (request) => {
    const p = begin(request, '/entity/{code}', ctx);
    allowEntity(p, request.params.code, ctx);
    return publicEntity(find(request.params.code));
  });
  app.get<{ Params: { code: string } }>('/entity/:code/user', { attachValidation: true, schema: { params: PARAMS } }, async (request) => {
    const p = begin(request, '/entity/{code}/user', ctx);
    allowEntity(p, request.params.code, ctx);
    return find(request.params.code).users;
  });
}

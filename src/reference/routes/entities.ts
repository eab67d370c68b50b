/**
 * GET /entity (the caller's allow-listed entities), GET /entity/{code}, GET /entity/{code}/user.
 * An entity not on the allow-list is 403 "Not authorised for this entity", whether it exists or not.
 */
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../context.js';
import type { Entity, EntityRecord } from '../data/types.js';
import { allowEntity, begin } from '../http/guard.js';
import { listBody } from '../http/shape.js';
import { apiPaths, fastifyPath } from '../variants.js';
import { CODE_SCHEMA, type RouteDeps } from './deps.js';

const PARAMS = { type: 'object', properties: { code: CODE_SCHEMA }, required: ['code'] } as const;
const ENTITY_QUERY = { type: 'object', properties: { entity_code: CODE_SCHEMA }, required: ['entity_code'] } as const;

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

  const paths = apiPaths(ctx.variants);
  app.get(fastifyPath(paths.entities), async (request, reply) => {
    const p = begin(request, paths.entities, ctx);
    return listBody(ctx, 'entities', ctx.data.entities.filter((e) => p.allowedEntities.includes(e.code)).map(publicEntity), request, reply);
  });
  app.get<{ Params: { code: string } }>(fastifyPath(paths.entity), { attachValidation: true, schema: { params: PARAMS } }, async (request) => {
    const p = begin(request, paths.entity, ctx);
    allowEntity(p, request.params.code, ctx);
    return publicEntity(find(request.params.code));
  });
  // The entity as a path segment, or (variant entity-in-query) as the entity_code query parameter.
  const inQuery = paths.entity_users.includes('?');
  app.get<{ Params: { code?: string }; Querystring: { entity_code?: string } }>(fastifyPath(paths.entity_users), {
    attachValidation: true, schema: inQuery ? { querystring: ENTITY_QUERY } : { params: PARAMS },
  }, async (request, reply) => {
    const p = begin(request, paths.entity_users, ctx);
    const code = (inQuery ? request.query.entity_code : request.params.code) ?? '';
    // Fault entity-users-not-allow-listed: this one operation skips the allow-list (the rule itself stays in permissions.ts).
    if (!ctx.faults.on('entity-users-not-allow-listed')) allowEntity(p, code, ctx);
    return listBody(ctx, 'entity_users', find(code).users, request, reply);
  });
}

/**
 * GET /event: the caller's stream (events of allow-listed entities only), filters entity_code and
 * event_type, start_cursor (exclusive), end_cursor (inclusive fence), limit 1..1000 (default 1000).
 */
import type { FastifyInstance } from 'fastify';
import type { Principal, ReferenceContext } from '../context.js';
import { EVENT_TYPES, type EventType } from '../data/types.js';
import type { Domain } from '../domain/world.js';
import { queryEvents } from '../domain/events/query.js';
import { allowEntity, begin } from '../http/guard.js';
import { CODE_SCHEMA, type RouteDeps } from './deps.js';

export const MAX_PAGE_SIZE = 1000;
const CURSOR_SCHEMA = { type: 'string', minLength: 1, maxLength: 256 } as const;

interface EventQueryString {
  limit: number;
  start_cursor?: string;
  end_cursor?: string;
  entity_code?: string;
  event_type?: EventType;
}

/** The entities whose events the caller sees: the allow-list, narrowed by entity_code (403 if not on it). */
export function visibleEntities(p: Principal, entityCode: string | undefined, ctx: ReferenceContext, domain: Domain): readonly string[] {
  if (entityCode !== undefined) {
    allowEntity(p, entityCode, ctx);
    return [entityCode];
  }
  return ctx.faults.on('event-stream-leaks-entities') ? domain.entityCodes() : p.allowedEntities;
}

export function registerEventRoutes(app: FastifyInstance, { ctx, domain }: RouteDeps): void {
  app.get<{ Querystring: EventQueryString }>('/event', {
    attachValidation: true,
    schema: {
      querystring: {
        type: 'object',
        properties: {
          limit: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: MAX_PAGE_SIZE },
          start_cursor: CURSOR_SCHEMA,
          end_cursor: CURSOR_SCHEMA,
          entity_code: CODE_SCHEMA,
          event_type: { type: 'string', enum: [...EVENT_TYPES] },
        },
      },
    },
  }, async (request) => {
    const p = begin(request, '/event', ctx);
    const q = request.query;
    return queryEvents(domain.store, domain.codec, {
      entityCodes: visibleEntities(p, q.entity_code, ctx, domain),
      eventType: q.event_type ?? null,
      startCursor: q.start_cursor ?? null,
      endCursor: q.end_cursor ?? null,
      limit: q.limit,
    }, ctx.faults);
  });
}

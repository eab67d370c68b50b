/**
 * GET /event: the caller's stream (events of allow-listed entities only), filters entity_code and
 * event_type, start_cursor (exclusive), end_cursor (inclusive fence), limit 1..1000 (default 1000).
 * The page-size choices and the pageInfo layout the spec leaves open are decided here (variants).
 */
import type { FastifyInstance } from 'fastify';
import { ApiError, type Principal, type ReferenceContext, type Variants } from '../context.js';
import { EVENT_TYPES, type EventType } from '../data/types.js';
import type { Domain } from '../domain/world.js';
import { queryEvents, seqOfCursor, type EventsPage } from '../domain/events/query.js';
import { allowEntity, begin } from '../http/guard.js';
import { CODE_SCHEMA, type RouteDeps } from './deps.js';
import { gradingPageSize } from '../grading/index.js';
import { decideForRoutes } from '../variant-consults.js';

export const MAX_PAGE_SIZE = 1000;
const CURSOR_SCHEMA = { type: 'string', minLength: 1, maxLength: 256 } as const;

/** Maximum (and default) page size: "not shown"; the sample value is 1000. */
export function maxPageSize(variants: Variants): number {
  return variants.is('page-size-250') ? 250 : MAX_PAGE_SIZE;
}

/** Name of the page-size query parameter ("further filter parameters: not shown"). */
export function limitParam(variants: Variants): string {
  return variants.is('limit-param-page-size') ? 'page_size' : 'limit';
}

interface EventQueryString {
  limit?: number;
  page_size?: number;
  start_cursor?: string;
  end_cursor?: string;
  entity_code?: string;
  event_type?: EventType;
}

/** The entities whose events the caller sees: the allow-list, narrowed by entity_code (403 if not on it). */
export function visibleEntities(p: Principal, entityCode: string | undefined, ctx: ReferenceContext, domain: Domain, eventType?: string): readonly string[] {
  if (entityCode !== undefined) {
    // The faults: the combined (entity, type) read path, or the read-only clients' reporting path, forgets the allow-list check.
    const skips = (eventType !== undefined && ctx.faults.on('event-filter-skips-allow-list')) || (p.readOnly && ctx.faults.on('event-filter-readonly-skips-allow-list'));
    if (!skips) allowEntity(p, entityCode, ctx);
    return [entityCode];
  }
  return ctx.faults.on('event-stream-leaks-entities') ? domain.entityCodes() : p.allowedEntities;
}

/** Variant foreign-cursor-refused: a cursor of an event outside the caller's allow-list is no position. */
function refuseForeignCursor(domain: Domain, p: Principal, cursor: string | undefined): void {
  if (cursor === undefined) return;
  const seq = seqOfCursor(domain.codec, domain.store, cursor);
  if (seq > 0 && !p.allowedEntities.includes(domain.store.entityCodeAt(seq))) throw new ApiError(400, 'Invalid cursor.');
}

/** pageInfo as the API shows it: totalCount and the cursors that may be null or absent. */
export function pageView(page: EventsPage, variants: Variants): EventsPage | { events: EventsPage['events']; pageInfo: Record<string, unknown> } {
  if (!variants.is('total-count-null') && !variants.is('total-count-absent') && !variants.is('page-cursors-absent')) return page;
  const info: Record<string, unknown> = { ...page.pageInfo };
  if (variants.is('total-count-null')) info.totalCount = null;
  if (variants.is('total-count-absent')) delete info.totalCount;
  if (variants.is('page-cursors-absent')) {
    for (const k of ['endCursor', 'pageEndCursor', 'startCursor']) if (info[k] === null) delete info[k];
  }
  return { events: page.events, pageInfo: info };
}

export function registerEventRoutes(app: FastifyInstance, { ctx, domain }: RouteDeps): void {
  // Decided once for GET /event alone (its schema; its onRequest re-asks it: variant-consults.ts).
  // Clamped: any positive limit is accepted and served with at most the maximum.
  const decided = decideForRoutes(() => ({ max: maxPageSize(ctx.variants), clamped: ctx.variants.is('page-limit-clamped'), param: limitParam(ctx.variants) }));
  const { max, clamped } = decided.value;
  app.get<{ Querystring: EventQueryString }>('/event', {
    onRequest: decided.hook,
    attachValidation: true,
    schema: {
      querystring: {
        type: 'object',
        properties: {
          [decided.value.param]: { type: 'integer', minimum: 1, ...(clamped ? {} : { maximum: max }), default: max },
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
    if (ctx.variants.is('foreign-cursor-refused')) {
      refuseForeignCursor(domain, p, q.start_cursor);
      refuseForeignCursor(domain, p, q.end_cursor);
    }
    const requested = (ctx.variants.is('limit-param-page-size') ? q.page_size : q.limit) ?? max;
    return pageView(queryEvents(domain.store, domain.codec, {
      entityCodes: visibleEntities(p, q.entity_code, ctx, domain, q.event_type),
      eventType: q.event_type ?? null,
      startCursor: q.start_cursor ?? null,
      endCursor: q.end_cursor ?? null,
      limit: Math.min(requested, max, gradingPageSize(ctx) ?? max),
      defaultLimit: max,
    }, ctx.faults), ctx.variants);
  });
}

/**
 * The sandbox control API under {auth_url}/_sandbox (simulation mode only; never under /api/v1; no auth on
 * the loopback sandbox): clock, clock advance, funding of a subscription, synthetic events, reset.
 */
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../context.js';
import { EVENT_TYPES, type EventType } from '../data/types.js';
import { runLifecycle } from '../domain/lifecycle.js';
import { throwIfInvalid } from '../http/guard.js';
import { UID_SCHEMA, type RouteDeps } from './deps.js';

const MAX_ADVANCE_DAYS = 3660;
export const MAX_SYNTHETIC_EVENTS_PER_CALL = 2_000_000;

interface AdvanceBody { seconds?: number; minutes?: number; hours?: number; days?: number; to?: string }
interface EventsBody { count: number; entityCode?: string; eventTypes?: EventType[] }

const nonNegative = (max: number) => ({ type: 'number', minimum: 0, maximum: max }) as const;

export function registerSandboxRoutes(app: FastifyInstance, { domain }: RouteDeps): void {
  const clockView = () => ({ now: domain.nowIso(), today: domain.clock.today() });

  app.get('/clock', async () => clockView());

  app.post<{ Body: AdvanceBody }>('/clock/advance', {
    attachValidation: true,
    schema: {
      body: {
        type: 'object',
        properties: {
          seconds: nonNegative(MAX_ADVANCE_DAYS * 86400), minutes: nonNegative(MAX_ADVANCE_DAYS * 1440),
          hours: nonNegative(MAX_ADVANCE_DAYS * 24), days: nonNegative(MAX_ADVANCE_DAYS), to: { type: 'string', format: 'date-time' },
        },
        additionalProperties: false,
      },
    },
  }, async (request) => {
    throwIfInvalid(request);
    const b = request.body;
    const relative = (b.seconds ?? 0) * 1000 + (b.minutes ?? 0) * 60_000 + (b.hours ?? 0) * 3_600_000 + (b.days ?? 0) * 86_400_000;
    const hasRelative = ['seconds', 'minutes', 'hours', 'days'].some((k) => k in b);
    if (b.to !== undefined && hasRelative) throw new ApiError(400, 'Give either "to" or seconds/minutes/hours/days, not both.');
    let ms = Math.round(relative);
    if (b.to !== undefined) {
      ms = Date.parse(b.to) - domain.clock.now();
      if (ms < 0) throw new ApiError(400, 'The simulated clock only moves forward.');
    }
    if (ms > MAX_ADVANCE_DAYS * 86_400_000) throw new ApiError(400, `At most ${MAX_ADVANCE_DAYS} days per advance.`);
    domain.clock.advance(ms);
    runLifecycle(domain);
    return clockView();
  });

  app.post<{ Params: { uid: string }; Body: { state: 'delayed' | 'arrived' } }>('/subscriptions/:uid/funding', {
    attachValidation: true,
    schema: {
      params: { type: 'object', properties: { uid: UID_SCHEMA }, required: ['uid'] },
      body: { type: 'object', required: ['state'], properties: { state: { type: 'string', enum: ['delayed', 'arrived'] } } },
    },
  }, async (request) => {
    throwIfInvalid(request);
    const entry = domain.subscriptions.get(request.params.uid);
    if (!entry) throw new ApiError(404, 'Subscription not found');
    if (entry.record.status !== 'Pending') throw new ApiError(409, 'Subscription is no longer pending.');
    if (request.body.state === 'delayed') {
      entry.funding = 'delayed';
      entry.arrivedAt = null;
    } else {
      entry.funding = 'arrived';
      entry.arrivedAt = domain.clock.now();
    }
    runLifecycle(domain);
    return entry.record;
  });

  app.post<{ Body: EventsBody }>('/events', {
    attachValidation: true,
    schema: {
      body: {
        type: 'object',
        required: ['count'],
        properties: {
          count: { type: 'integer', minimum: 1, maximum: MAX_SYNTHETIC_EVENTS_PER_CALL },
          entityCode: { type: 'string', minLength: 1, maxLength: 64 },
          eventTypes: { type: 'array', minItems: 1, maxItems: 10, items: { type: 'string', enum: [...EVENT_TYPES] } },
        },
      },
    },
  }, async (request) => {
    throwIfInvalid(request);
    const b = request.body;
    if (b.entityCode !== undefined && domain.store.entityIndex(b.entityCode) === undefined) throw new ApiError(400, 'Unknown entity.');
    const head = domain.appendSynthetic(b.count, b.entityCode === undefined ? undefined : [b.entityCode], b.eventTypes);
    return { appended: b.count, totalEvents: head, headCursor: domain.codec.encode(head) };
  });

  app.post('/reset', async () => {
    domain.reset();
    return { reset: true, ...clockView() };
  });
}

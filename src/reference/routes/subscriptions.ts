/**
 * POST /subscribe and GET /subscription?entity_code=X.
 *
 * POST /subscribe check order: auth (hook) -> endpoint permission -> Idempotency-Key present -> replay of
 * the cached response -> 422 body validation -> entity allow-list 403 -> indication uid -> subscription
 * date -> minimum -> maximum -> create. Everything after the replay check is cached per (user, key) and
 * replayed exactly, rejections included. From cache lookup to cache store the handler never awaits, so
 * concurrent retries with one key create exactly one subscription.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { ApiError, type Faults, type Principal, type Variants } from '../context.js';
import type { Subscription } from '../domain/subscriptions.js';
import { subscribe, type SubscribeBody } from '../domain/subscribe.js';
import type { CachedResponse } from '../domain/idempotency.js';
import { errorResponse } from '../http/errors.js';
import { allowEndpoint, allowEntity, begin } from '../http/guard.js';
import { listBody } from '../http/shape.js';
import { compileBodySchema, RequestValidationError } from '../http/validation.js';
import type { Domain } from '../domain/world.js';
import { CODE_SCHEMA, type RouteDeps } from './deps.js';

export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

const bodySchema = (amount: Record<string, unknown>): Record<string, unknown> => ({
  type: 'object',
  required: ['indicationUid', 'entityCode', 'amount'],
  properties: {
    indicationUid: { type: 'string', minLength: 1, maxLength: 128 },
    entityCode: { type: 'string', minLength: 1, maxLength: 64 },
    amount,
    subscriptionDate: { type: 'string', format: 'date' },
  },
});
const validateBody = compileBodySchema(bodySchema({ type: 'number', exclusiveMinimum: 0 }));
/** The fault amount-sign-dropped: any number passes the schema (the domain then reads its magnitude). */
const validateSignedBody = compileBodySchema(bodySchema({ type: 'number' }));

/** The request's key; null only under the fault idempotency-key-optional (then nothing is cached). */
function idempotencyKey(raw: string | string[] | undefined, faults: Faults): string | null {
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (key === undefined || key.trim() === '') {
    if (faults.on('idempotency-key-optional')) return null;
    throw new ApiError(400, 'Idempotency-Key header is required.');
  }
  if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw new ApiError(400, `Idempotency-Key header must be at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters.`);
  }
  return key;
}

/** Whose cache entry a key names: the user's; the fault idempotency-key-not-user-scoped shares one for everybody. */
function cacheOwner(p: Principal, faults: Faults): string {
  return faults.on('idempotency-key-not-user-scoped') ? '*' : p.userEmail;
}

/** The cached response to replay for (user, key), exactly as first answered. */
function replayOf(domain: Domain, p: Principal, key: string | null, faults: Faults): CachedResponse | undefined {
  if (key === null || faults.on('idempotency-no-replay')) return undefined;
  const cached = domain.idempotency.get(cacheOwner(p, faults), key);
  if (cached && faults.on('idempotency-replay-status-lost')) return { status: 200, body: cached.body };
  if (cached && cached.status === 200 && faults.on('idempotency-replay-current-state')) {
    // The fault re-reads the subscription the cached answer names and answers it as it is now.
    const uid = subscriptionUidOf(cached.body);
    const now = uid === undefined ? undefined : domain.subscriptions.get(uid)?.record;
    if (now) return { status: 200, body: structuredClone(subscribeResponse(now, domain.variants)) };
  }
  return cached;
}

/** The subscription uid of a cached success body, whatever its layout (subscribeResponse). */
function subscriptionUidOf(body: unknown): string | undefined {
  const o = (typeof body === 'object' && body !== null ? body : {}) as { uid?: unknown; subscriptionUid?: unknown; subscription?: { uid?: unknown } };
  const uid = o.uid ?? o.subscriptionUid ?? o.subscription?.uid;
  return typeof uid === 'string' ? uid : undefined;
}

/** Every outcome from the schema check on is cached, rejections included. */
function remember(domain: Domain, p: Principal, key: string | null, outcome: CachedResponse, faults: Faults): void {
  if (key === null) return;
  if (outcome.status !== 200 && faults.on('idempotency-rejections-not-cached')) return;
  domain.idempotency.set(cacheOwner(p, faults), key, outcome);
}

/** The POST /subscribe success body: "a response containing the subscription uid" (layout open). */
export function subscribeResponse(s: Subscription, variants: Variants): unknown {
  switch (variants.choice('subscribe-response')) {
    case 'subscribe-response-wrapped': return { subscription: s };
    case 'subscribe-response-minimal': return { subscriptionUid: s.uid, status: s.status };
    default: return s;
  }
}

export function registerSubscriptionRoutes(app: FastifyInstance, { ctx, domain }: RouteDeps): void {
  app.post('/subscribe', {
    // Key presence before the body is parsed (order: permission -> key -> replay -> validation).
    preParsing: async (request) => {
      idempotencyKey(request.headers['idempotency-key'], ctx.faults);
    },
  }, async (request, reply) => {
    const p = allowEndpoint(request, '/subscribe', ctx);
    const key = idempotencyKey(request.headers['idempotency-key'], ctx.faults);
    const cached = replayOf(domain, p, key, ctx.faults);
    if (cached) {
      if (!ctx.variants.is('replay-no-header')) reply.header('idempotent-replayed', 'true');
      return reply.code(cached.status).send(cached.body);
    }
    // Clean: no await from the lookup above to the store below. The faults open a gap (50 ms, 2 ms) for concurrent retries.
    if (ctx.faults.on('idempotency-concurrent-duplicates')) await sleep(50);
    else if (ctx.faults.on('idempotency-window-2ms')) await sleep(2);
    let outcome: CachedResponse;
    try {
      const body = request.body;
      const validate = ctx.faults.on('amount-sign-dropped') ? validateSignedBody : validateBody;
      if (!validate(body)) throw new RequestValidationError(validate.errors ?? [], 'body');
      const sb = body as SubscribeBody;
      allowEntity(p, sb.entityCode, ctx);
      outcome = { status: 200, body: structuredClone(subscribeResponse(subscribe(domain, sb, ctx.faults), ctx.variants)) };
    } catch (err) {
      const r = errorResponse(err, ctx.faults);
      if (r.status >= 500) throw err;
      outcome = r;
    }
    remember(domain, p, key, outcome, ctx.faults);
    return reply.code(outcome.status).send(outcome.body);
  });

  app.get<{ Querystring: { entity_code: string } }>('/subscription', {
    attachValidation: true,
    schema: { querystring: { type: 'object', properties: { entity_code: CODE_SCHEMA }, required: ['entity_code'] } },
  }, async (request, reply) => {
    const p = begin(request, '/subscription', ctx);
    allowEntity(p, request.query.entity_code, ctx);
    return listBody(ctx, 'subscriptions', domain.subscriptions.forEntity(request.query.entity_code), request, reply);
  });
}

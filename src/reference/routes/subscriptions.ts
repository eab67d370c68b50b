/**
 * POST /subscribe and GET /subscription?entity_code=X.
 *
 * POST /subscribe check order: auth (hook) -> endpoint permission -> Idempotency-Key present -> replay of
 * the cached response -> 422 body validation -> entity allow-list 403 -> indication uid -> subscription
 * date -> minimum -> maximum -> create. Everything after the replay check is cached per (user, key) and
 * replayed exactly, rejections included. From cache lookup to cache store the handler never awaits, so
 * concurrent retries with one key create exactly one subscription.
 */
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../context.js';
import { subscribe, type SubscribeBody } from '../domain/subscribe.js';
import type { CachedResponse } from '../domain/idempotency.js';
import { errorResponse } from '../http/errors.js';
import { allowEndpoint, allowEntity, begin } from '../http/guard.js';
import { compileBodySchema, RequestValidationError } from '../http/validation.js';
import { CODE_SCHEMA, type RouteDeps } from './deps.js';

export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

const validateBody = compileBodySchema({
  type: 'object',
  required: ['indicationUid', 'entityCode', 'amount'],
  properties: {
    indicationUid: { type: 'string', minLength: 1, maxLength: 128 },
    entityCode: { type: 'string', minLength: 1, maxLength: 64 },
    amount: { type: 'number', exclusiveMinimum: 0 },
    subscriptionDate: { type: 'string', format: 'date' },
  },
});

function idempotencyKey(raw: string | string[] | undefined): string {
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (key === undefined || key.trim() === '') throw new ApiError(400, 'Idempotency-Key header is required.');
  if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw new ApiError(400, `Idempotency-Key header must be at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters.`);
  }
  return key;
}

export function registerSubscriptionRoutes(app: FastifyInstance, { ctx, domain }: RouteDeps): void {
  app.post('/subscribe', {
    // Key presence before the body is parsed (order: permission -> key -> replay -> validation).
    preParsing: async (request) => {
      idempotencyKey(request.headers['idempotency-key']);
    },
  }, async (request, reply) => {
    const p = allowEndpoint(request, '/subscribe', ctx);
    const key = idempotencyKey(request.headers['idempotency-key']);
    const cached = domain.idempotency.get(p.userEmail, key);
    if (cached) return reply.code(cached.status).header('idempotent-replayed', 'true').send(cached.body);
    let outcome: CachedResponse;
    try {
      const body = request.body;
      if (!validateBody(body)) throw new RequestValidationError(validateBody.errors ?? [], 'body');
      const sb = body as SubscribeBody;
      allowEntity(p, sb.entityCode, ctx);
      outcome = { status: 200, body: structuredClone(subscribe(domain, sb, ctx.faults)) };
    } catch (err) {
      const r = errorResponse(err);
      if (r.status >= 500) throw err;
      outcome = r;
    }
    domain.idempotency.set(p.userEmail, key, outcome);
    return reply.code(outcome.status).send(outcome.body);
  });

  app.get<{ Querystring: { entity_code: string } }>('/subscription', {
    attachValidation: true,
    schema: { querystring: { type: 'object', properties: { entity_code: CODE_SCHEMA }, required: ['entity_code'] } },
  }, async (request) => {
    const p = begin(request, '/subscription', ctx);
    allowEntity(p, request.query.entity_code, ctx);
    return domain.subscriptions.forEntity(request.query.entity_code);
  });
}

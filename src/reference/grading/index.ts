/**
 * installGrading(app, ctx, domain): the client grading mode's Fastify hooks. Registered on the root instance
 * BEFORE authentication, so that its onRequest runs first (a refused token is answered before the bearer
 * check) and its onSend sees every answer, the not-found handler's and the auth hook's included.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { INVALID_TOKEN } from '../auth/bearer.js';
import type { ReferenceContext } from '../context.js';
import type { Domain } from '../domain/world.js';
import { checkpointOwner } from '../routes/checkpoints.js';
import type { GradingOptions, RawExchange } from './types.js';

export type { GradingChallenges, GradingOptions, RawExchange } from './types.js';

const API = '/api/v1';
const BEARER = /^bearer +(\S+)$/i;

interface Pending {
  atMs: number;
  challenge: string | null;
}

/** What the challenges remember between requests. */
class GradingState {
  /** access token -> client_id it was issued to (learned from token responses). */
  readonly tokenClients = new Map<string, string>();
  readonly refused = new Set<string>();
  readonly issueAt = new Map<string, number>();
  serverErrors = 0;
  lostSent = false;
  rotated = false;
  tokenRefused = false;
  checkpointMoved = false;
  streamEndAppended = false;
}

function pathOf(url: string): string {
  return url.split('?', 1)[0] ?? '';
}

function bearerOf(request: FastifyRequest): string | undefined {
  return BEARER.exec(request.headers.authorization?.trim() ?? '')?.[1];
}

function basicClient(request: FastifyRequest): string | undefined {
  const m = /^basic +(\S+)$/i.exec(request.headers.authorization?.trim() ?? '');
  if (!m?.[1]) return undefined;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon > 0 ? decoded.slice(0, colon) : undefined;
}

function flatHeaders(raw: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
  return out;
}

function jsonOf(payload: unknown): Record<string, unknown> | undefined {
  if (typeof payload !== 'string') return undefined;
  try {
    const v = JSON.parse(payload) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export function installGrading(app: FastifyInstance, ctx: ReferenceContext, domain: Domain, grading: GradingOptions): void {
  const state = new GradingState();
  const c = grading.challenges;
  const pending = new WeakMap<FastifyRequest, Pending>();
  const apiKeyUser = new Map(Object.entries(ctx.secrets.apiKeys).map(([user, key]) => [key, user]));

  const credentialOf = (request: FastifyRequest): string | null => {
    const p = request.principal;
    if (p?.via === 'api_key') return `api-key:${p.userEmail}`;
    if (p?.clientId) return p.clientId;
    const token = bearerOf(request);
    if (token !== undefined) {
      const owner = state.tokenClients.get(token) ?? apiKeyUser.get(token);
      if (owner !== undefined) return state.tokenClients.has(token) ? owner : `api-key:${owner}`;
    }
    return basicClient(request) ?? null;
  };

  /** Subscriptions due for issuance: the simulated clock moves past their cut-off (tokens live on the real clock). */
  const issueDue = (now: number): void => {
    if (c.issueAfterSeconds === undefined) return;
    for (const [uid, at] of state.issueAt) {
      if ((now - at) / 1000 / grading.timeScale < c.issueAfterSeconds) continue;
      state.issueAt.delete(uid);
      const entry = domain.subscriptions.get(uid);
      const spec = entry && domain.indications.get(entry.record.indicationCode);
      if (!entry || !spec || entry.record.status !== 'Pending') continue;
      const cutoff = domain.indications.cutoffOf(spec, entry.record.subscriptionDate);
      const simNow = domain.clock.now();
      if (simNow <= cutoff) domain.clock.advance(cutoff - simNow + 1000);
    }
  };

  const refuse = async (reply: FastifyReply, mark: Pending): Promise<void> => {
    mark.challenge ??= 'refused-token';
    await reply.code(401).header('www-authenticate', 'Bearer realm="ftf", error="invalid_token"').send({ detail: INVALID_TOKEN });
  };

  app.addHook('onRequest', async (request, reply) => {
    const now = performance.now();
    const mark: Pending = { atMs: now, challenge: null };
    pending.set(request, mark);
    issueDue(now);
    const path = pathOf(request.url);
    if (!path.startsWith(`${API}/`)) return;
    const token = bearerOf(request);
    if (token !== undefined && state.refused.has(token)) return refuse(reply, mark);
    const r = c.refuseTokenOn;
    if (r && !state.tokenRefused && token !== undefined && state.tokenClients.has(token)
      && request.method === r.method && path.startsWith(`${API}${r.pathPrefix}`)) {
      state.tokenRefused = true;
      state.refused.add(token);
      mark.challenge = 'refuse-token-before-expiry';
      return refuse(reply, mark);
    }
    const e = c.serverErrorOnRead;
    if (e && request.method === 'GET' && path.startsWith(`${API}${e.pathPrefix}`) && state.serverErrors < e.times) {
      state.serverErrors++;
      mark.challenge = 'server-error-on-read';
      await reply.code(500).send({ detail: 'Internal Server Error' });
    }
  });

  app.addHook('preHandler', async (request) => {
    const mark = pending.get(request);
    const route = request.routeOptions.url;
    if (c.rotateIndication && !state.rotated && request.method === 'POST' && route === `${API}/subscribe`) {
      const body = request.body as { indicationUid?: unknown } | undefined;
      const spec = domain.indications.get(c.rotateIndication);
      if (spec && body?.indicationUid === domain.indications.currentUid(spec, domain.clock.now())) {
        state.rotated = true;
        domain.indications.forceRotation(spec.code);
        if (mark) mark.challenge = 'indication-uid-expired';
      }
    }
    if (c.moveCheckpointVersion && !state.checkpointMoved && request.method === 'PATCH' && route === `${API}/event/checkpoint/:name` && request.principal) {
      const owner = checkpointOwner(request.principal, ctx);
      const name = (request.params as { name?: string }).name ?? '';
      const cp = domain.checkpoints.get(owner, name);
      if (cp) {
        state.checkpointMoved = true;
        await domain.checkpoints.compareAndSet(owner, name, cp.checkpointVersion, cp.cursor, domain.nowIso());
        if (mark) mark.challenge = 'checkpoint-version-moved';
      }
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const mark = pending.get(request) ?? { atMs: performance.now(), challenge: null };
    const route = request.routeOptions.url;
    const status = reply.statusCode;
    const body = jsonOf(payload);
    if (route === '/oauth/token' && status === 200 && typeof body?.access_token === 'string') {
      const client = basicClient(request) ?? (request.body as { client_id?: string } | undefined)?.client_id;
      if (client) state.tokenClients.set(body.access_token, client);
    }
    let dropped = false;
    if (request.method === 'POST' && route === `${API}/subscribe` && status === 200 && reply.getHeader('idempotent-replayed') === undefined) {
      if (typeof body?.uid === 'string') state.issueAt.set(body.uid, mark.atMs);
      if (c.lostSubscribeResponse && !state.lostSent) {
        state.lostSent = true;
        dropped = true;
        mark.challenge = 'subscribe-response-lost';
      }
    }
    const append = c.appendEvents;
    if (append && request.principal && status === 201 && request.method === 'PUT' && route === `${API}/event/checkpoint/:name`) {
      domain.appendSynthetic(append.onCheckpointCreated, request.principal.allowedEntities);
    }
    if (append && request.principal && status === 200 && request.method === 'GET' && route === `${API}/event` && !state.streamEndAppended
      && (body?.pageInfo as { hasNextPage?: unknown } | undefined)?.hasNextPage === false) {
      state.streamEndAppended = true;
      domain.appendSynthetic(append.onFirstStreamEnd, request.principal.allowedEntities);
    }
    const exchange: RawExchange = {
      atMs: mark.atMs,
      method: request.method,
      url: request.url,
      headers: flatHeaders(request.headers),
      body: request.body,
      status,
      responseHeaders: flatHeaders(reply.getHeaders()),
      responseBody: typeof payload === 'string' ? payload : '',
      dropped,
      challenge: mark.challenge,
      credential: credentialOf(request),
    };
    grading.onExchange(exchange);
    // Processed, then lost: the client never sees the answer (a dropped connection after the work was done).
    if (dropped) request.raw.socket.destroy();
    return payload;
  });
}

/** The page-size cap of the grading mode, or undefined. */
export function gradingPageSize(ctx: ReferenceContext): number | undefined {
  return ctx.grading?.challenges.pageSize;
}

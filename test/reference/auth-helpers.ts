/**
 * Test helpers for the auth module: a hand-built ReferenceContext (the identities of docs/architecture.md,
 * secrets from a CSPRNG), a Fastify app with registerAuth and a few stand-in API routes, a manual clock,
 * and request builders. Independent of the core server (app.ts, data loader).
 */
import { createHash, randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { ApiError, type Mode, type ReferenceContext } from '../../src/reference/context.js';
import { NO_VARIANTS } from '../../src/reference/variants.js';
import type { IdentityData, ReferenceData } from '../../src/reference/data/types.js';
import { assertEndpointAllowed, assertEntityAllowed, registerAuth } from '../../src/reference/auth/index.js';

export const ALICE = 'alice@ftf.test';
export const BOB = 'bob@ftf.test';
export const CAROL = 'carol@ftf.test';
export const DAVE = 'dave@ftf.test';
export const CALLBACK = 'https://app.ftf.test/callback';
export const ALT = 'https://app.ftf.test/alt';
export const SINGLE_CALLBACK = 'https://single.ftf.test/cb?tenant=1';

export const IDENTITIES: IdentityData = {
  users: [
    { email: ALICE, entities: ['ENT-ALPHA', 'ENT-BETA'] },
    { email: BOB, entities: ['ENT-ALPHA'] },
    { email: CAROL, entities: ['ENT-ALPHA'] },
    { email: DAVE, entities: ['ENT-GAMMA'] },
  ],
  clients: [
    { clientId: 'cc-alice', user: ALICE, grants: ['client_credentials'], redirectUris: [], readOnly: false },
    { clientId: 'cc-bob', user: BOB, grants: ['client_credentials'], redirectUris: [], readOnly: false },
    { clientId: 'cc-carol-readonly', user: CAROL, grants: ['client_credentials'], redirectUris: [], readOnly: true },
    { clientId: 'code-app', user: ALICE, grants: ['authorization_code', 'refresh_token'], redirectUris: [CALLBACK, ALT], readOnly: false },
    { clientId: 'code-app-single', user: BOB, grants: ['authorization_code', 'refresh_token'], redirectUris: [SINGLE_CALLBACK], readOnly: false },
  ],
  apiKeyUsers: [ALICE],
};

const secret = (): string => randomBytes(24).toString('base64url');

export function makeContext(overrides: { mode?: Mode; tokenLifetimeSeconds?: number } = {}): ReferenceContext {
  const mode = overrides.mode ?? 'sandbox';
  return {
    options: {
      port: 0,
      host: '127.0.0.1',
      mode,
      seed: 1,
      events: 0,
      tokenLifetimeSeconds: overrides.tokenLifetimeSeconds ?? 3600,
      simulation: mode === 'sandbox',
      logger: false,
      fault: null,
      variants: [],
      dataDir: 'fixtures/reference-data',
    },
    // Only the identity part matters to auth; the domain part is left empty (cast: tolerant of new fields).
    data: { ...structuredClone(IDENTITIES), entities: [], cells: [], holidays: [], indications: [], holdings: [], history: [], seed: 1 } as ReferenceData,
    secrets: {
      clients: Object.fromEntries(IDENTITIES.clients.map((c) => [c.clientId, secret()])),
      apiKeys: { [ALICE]: secret() },
      passwords: Object.fromEntries(IDENTITIES.users.map((u) => [u.email, secret()])),
    },
    faults: { active: null, on: () => false },
    variants: NO_VARIANTS,
  };
}

/** A clock the test moves by hand (ms). */
export function manualClock(start = Date.UTC(2030, 0, 2, 9, 0, 0)): { now: () => number; advance: (ms: number) => void } {
  let t = start;
  return { now: () => t, advance: (ms) => { t += ms; } };
}

/** Fastify app with registerAuth plus stand-in routes that use the principal and the 403 helpers. */
export async function buildAuthApp(ctx: ReferenceContext, now?: () => number): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  await registerAuth(app, ctx, now === undefined ? {} : { now });
  app.setErrorHandler((err, _request, reply) => {
    if (err instanceof ApiError) return reply.code(err.status).send({ detail: err.detail });
    const status = (err as { statusCode?: number }).statusCode ?? 500;
    return reply.code(status).send({ detail: status === 500 ? 'Internal Server Error' : (err as Error).message });
  });
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ detail: 'Not Found' }));
  await app.register(async (api) => {
    api.get('/health', async (request) => ({ status: 'OK', principal: request.principal }));
    api.get<{ Params: { code: string } }>('/entity/:code', async (request) => {
      assertEntityAllowed(request.principal!, request.params.code, ctx);
      return { code: request.params.code };
    });
    api.post<{ Body: { url: string } }>('/webhook', async (request) => {
      assertEndpointAllowed(request.principal!, request.method, 'webhook.register', ctx);
      return { email: request.principal!.userEmail, url: request.body.url };
    });
  }, { prefix: '/api/v1' });
  return app;
}

export const basic = (id: string, pass: string): string => `Basic ${Buffer.from(`${id}:${pass}`).toString('base64')}`;

export function clientBasic(ctx: ReferenceContext, clientId: string): string {
  return basic(clientId, ctx.secrets.clients[clientId] ?? '');
}

/** POST /oauth/token with a form body (or `raw` body + content type). */
export function tokenRequest(
  app: FastifyInstance,
  opts: { authorization?: string; form?: Record<string, string>; contentType?: string; raw?: string; url?: string },
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { 'content-type': opts.contentType ?? 'application/x-www-form-urlencoded' };
  if (opts.authorization !== undefined) headers.authorization = opts.authorization;
  return app.inject({
    method: 'POST',
    url: opts.url ?? '/oauth/token',
    headers,
    payload: opts.raw ?? new URLSearchParams(opts.form ?? {}).toString(),
  });
}

export async function clientCredentialsToken(app: FastifyInstance, ctx: ReferenceContext, clientId: string): Promise<string> {
  const res = await tokenRequest(app, { authorization: clientBasic(ctx, clientId), form: { grant_type: 'client_credentials' } });
  if (res.statusCode !== 200) throw new Error(`token request failed: ${res.statusCode}`);
  return res.json<{ access_token: string }>().access_token;
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(48).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function authorizeQuery(params: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, v);
  return `/oauth/authorize?${q.toString()}`;
}

/** Obtains a code through the sandbox prompt=none shortcut; returns the code and the Location URL. */
export async function codeViaPromptNone(
  app: FastifyInstance,
  opts: { clientId: string; user: string; challenge: string; redirectUri?: string; state?: string },
): Promise<{ code: string; location: URL }> {
  const res = await app.inject({
    url: authorizeQuery({
      response_type: 'code', client_id: opts.clientId, redirect_uri: opts.redirectUri, state: opts.state ?? 'st-1',
      code_challenge: opts.challenge, code_challenge_method: 'S256', prompt: 'none', login_hint: opts.user,
    }),
  });
  if (res.statusCode !== 302) throw new Error(`authorize failed: ${res.statusCode} ${res.body}`);
  const location = new URL(String(res.headers.location));
  const code = location.searchParams.get('code');
  if (code === null) throw new Error(`no code in redirect: ${location.searchParams.get('error')}`);
  return { code, location };
}

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

/** Every generated secret value of the context (client secrets, API keys, passwords). */
export function allSecrets(ctx: ReferenceContext): string[] {
  return [...Object.values(ctx.secrets.clients), ...Object.values(ctx.secrets.apiKeys), ...Object.values(ctx.secrets.passwords)];
}

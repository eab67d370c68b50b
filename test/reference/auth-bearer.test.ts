/** Bearer authentication of {base_url}: 401 texts, real expiry on the injected clock, API keys, 403 helpers. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { ApiError, type Principal, type ReferenceContext } from '../../src/reference/context.js';
import { assertEndpointAllowed, assertEntityAllowed } from '../../src/reference/auth/index.js';
import {
  ALICE, basic, bearer, buildAuthApp, CALLBACK, clientBasic, clientCredentialsToken, codeViaPromptNone, makeContext, manualClock,
  pkcePair, tokenRequest,
} from './auth-helpers.js';

const NOT_AUTHENTICATED = { detail: 'Not authenticated' };
const INVALID = { detail: 'Invalid or expired access token' };

describe('bearer authentication (sandbox)', () => {
  let ctx: ReferenceContext;
  let app: FastifyInstance;
  const clock = manualClock();
  before(async () => {
    ctx = makeContext({ tokenLifetimeSeconds: 600 });
    app = await buildAuthApp(ctx, clock.now);
  });
  after(() => app.close());

  const health = (headers: Record<string, string> = {}) => app.inject({ url: '/api/v1/health', headers });

  it('missing Authorization -> 401 "Not authenticated" with a Bearer challenge', async () => {
    const res = await health();
    assert.equal(res.statusCode, 401);
    assert.deepEqual(res.json(), NOT_AUTHENTICATED);
    assert.match(String(res.headers['www-authenticate']), /^Bearer /);
  });

  it('unknown, malformed, Basic instead of Bearer -> 401 "Invalid or expired access token"', async () => {
    const token = await clientCredentialsToken(app, ctx, 'cc-alice');
    const headers = [
      { authorization: 'Bearer not-a-real-token' },
      { authorization: 'Bearer' },
      { authorization: `Bearer ${token} extra` },
      { authorization: `Bearer "${token}"` },
      { authorization: token },
      { authorization: clientBasic(ctx, 'cc-alice') },
      { authorization: basic('x', token) },
    ];
    for (const h of headers) {
      const res = await health(h);
      assert.equal(res.statusCode, 401);
      assert.deepEqual(res.json(), INVALID);
      assert.match(String(res.headers['www-authenticate']), /error="invalid_token"/);
    }
    assert.equal((await health({ authorization: `bearer ${token}` })).statusCode, 200, 'the scheme is case-insensitive');
  });

  it('a refresh token is not an access token', async () => {
    const { verifier, challenge } = pkcePair();
    const { code } = await codeViaPromptNone(app, { clientId: 'code-app', user: ALICE, challenge, redirectUri: CALLBACK });
    const res = await tokenRequest(app, {
      authorization: clientBasic(ctx, 'code-app'), form: { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: verifier },
    });
    const { refresh_token: refresh } = res.json<{ refresh_token: string }>();
    const api = await health(bearer(refresh));
    assert.equal(api.statusCode, 401);
    assert.deepEqual(api.json(), INVALID);
  });

  it('tokens really expire on the injected clock (valid until expires_in seconds have passed)', async () => {
    const token = await clientCredentialsToken(app, ctx, 'cc-alice');
    clock.advance(599_999);
    assert.equal((await health(bearer(token))).statusCode, 200);
    clock.advance(1);
    const res = await health(bearer(token));
    assert.equal(res.statusCode, 401);
    assert.deepEqual(res.json(), INVALID);
    const fresh = await clientCredentialsToken(app, ctx, 'cc-alice');
    assert.equal((await health(bearer(fresh))).statusCode, 200, 'a new token from the same credentials works');
  });

  it('401 comes before validation and 403 on known routes; unknown /api/v1 routes are 404 first', async () => {
    const post = await app.inject({ method: 'POST', url: '/api/v1/webhook', headers: { 'content-type': 'application/json' }, payload: '{bad json' });
    assert.equal(post.statusCode, 401);
    assert.deepEqual(post.json(), NOT_AUTHENTICATED);
    const forbidden = await app.inject({ url: '/api/v1/entity/ENT-GAMMA' });
    assert.equal(forbidden.statusCode, 401);
    const unknown = await app.inject({ url: '/api/v1/nope' });
    assert.equal(unknown.statusCode, 404);
    assert.deepEqual(unknown.json(), { detail: 'Not Found' });
    assert.equal((await app.inject({ url: '/somewhere-else' })).statusCode, 404, 'paths outside /api/v1 are not authenticated');
  });

  it('API key (sandbox): accepted without token exchange, as its user, via api_key, never expires', async () => {
    const key = ctx.secrets.apiKeys[ALICE]!;
    const res = await health(bearer(key));
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json<{ principal: Principal }>().principal, {
      userEmail: ALICE, clientId: null, via: 'api_key', allowedEntities: ['ENT-ALPHA', 'ENT-BETA'], readOnly: false,
    });
    clock.advance(365 * 24 * 3600 * 1000);
    assert.equal((await health(bearer(key))).statusCode, 200);
    assert.equal((await health(bearer(`${key}x`))).statusCode, 401);
  });

  it('403 helpers through routes: forbidden entity, read-only client writing', async () => {
    const alice = await clientCredentialsToken(app, ctx, 'cc-alice');
    assert.equal((await app.inject({ url: '/api/v1/entity/ENT-BETA', headers: bearer(alice) })).statusCode, 200);
    const gamma = await app.inject({ url: '/api/v1/entity/ENT-GAMMA', headers: bearer(alice) });
    assert.equal(gamma.statusCode, 403);
    assert.deepEqual(gamma.json(), { detail: 'Not authorised for this entity' });
    const carol = await clientCredentialsToken(app, ctx, 'cc-carol-readonly');
    assert.equal((await app.inject({ url: '/api/v1/entity/ENT-ALPHA', headers: bearer(carol) })).statusCode, 200, 'read-only may read');
    const write = await app.inject({ method: 'POST', url: '/api/v1/webhook', headers: bearer(carol), payload: { url: 'https://h.test' } });
    assert.equal(write.statusCode, 403);
    assert.deepEqual(write.json(), { detail: 'Endpoint not enabled for this API user.' });
    const aliceWrite = await app.inject({ method: 'POST', url: '/api/v1/webhook', headers: bearer(alice), payload: { url: 'https://h.test' } });
    assert.equal(aliceWrite.statusCode, 200);
  });
});

describe('bearer authentication (production)', () => {
  it('an API key answers 401 "API keys are not accepted in production; use OAuth."; OAuth tokens work', async () => {
    const ctx = makeContext({ mode: 'production' });
    const app = await buildAuthApp(ctx);
    try {
      const res = await app.inject({ url: '/api/v1/health', headers: bearer(ctx.secrets.apiKeys[ALICE]!) });
      assert.equal(res.statusCode, 401);
      assert.deepEqual(res.json(), { detail: 'API keys are not accepted in production; use OAuth.' });
      const token = await clientCredentialsToken(app, ctx, 'cc-alice');
      assert.equal((await app.inject({ url: '/api/v1/health', headers: bearer(token) })).statusCode, 200);
    } finally {
      await app.close();
    }
  });
});

describe('permission helpers', () => {
  const ctx = makeContext();
  const principal = (readOnly: boolean): Principal =>
    ({ userEmail: ALICE, clientId: 'x', via: 'client_credentials', allowedEntities: ['ENT-ALPHA'], readOnly });
  const is403 = (detail: string) => (err: unknown) => err instanceof ApiError && err.status === 403 && err.detail === detail;

  it('assertEntityAllowed: allow-listed passes, anything else is 403', () => {
    assert.doesNotThrow(() => assertEntityAllowed(principal(false), 'ENT-ALPHA', ctx));
    assert.throws(() => assertEntityAllowed(principal(false), 'ENT-GAMMA', ctx), is403('Not authorised for this entity'));
    assert.throws(() => assertEntityAllowed(principal(false), 'ent-alpha', ctx), is403('Not authorised for this entity'));
  });

  it('assertEndpointAllowed: read-only may GET/HEAD only; others may do anything', () => {
    for (const method of ['GET', 'HEAD', 'get']) assert.doesNotThrow(() => assertEndpointAllowed(principal(true), method, 'r', ctx));
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      assert.throws(() => assertEndpointAllowed(principal(true), method, 'r', ctx), is403('Endpoint not enabled for this API user.'));
      assert.doesNotThrow(() => assertEndpointAllowed(principal(false), method, 'r', ctx));
    }
  });
});

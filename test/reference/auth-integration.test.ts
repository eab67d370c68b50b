/**
 * Auth through the real reference server (startReferenceServer, undici over 127.0.0.1): tokens expire when
 * the sandbox clock is advanced, {base_url}/oauth/token is a 404, the code flow with PKCE and rotation,
 * API keys, and the 403 rules on real routes.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { request } from 'undici';
import { startReferenceServer, type RunningReference } from '../../src/reference/server.js';

const basic = (id: string, secret: string): string => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const FORM = 'application/x-www-form-urlencoded';

async function call(url: string, init: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string } = {}) {
  const res = await request(url, { method: init.method ?? 'GET', headers: init.headers, body: init.body });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, json: () => JSON.parse(text) as Record<string, unknown> };
}

describe('auth through startReferenceServer (sandbox)', () => {
  let server: RunningReference;
  before(async () => {
    server = await startReferenceServer({ port: 0, mode: 'sandbox' });
  });
  after(() => server.close());

  const token = async (clientId: string, form: Record<string, string>) =>
    call(`${server.authUrl}/oauth/token`, {
      method: 'POST', headers: { 'content-type': FORM, authorization: basic(clientId, server.secrets.clients[clientId] ?? '') },
      body: new URLSearchParams(form).toString(),
    });
  const api = (path: string, bearerToken: string | undefined, method: 'GET' | 'POST' = 'GET', body?: unknown) =>
    call(`${server.baseUrl}${path}`, {
      method,
      headers: { ...(bearerToken ? { authorization: `Bearer ${bearerToken}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it('client_credentials token works, and expires when the sandbox clock passes expires_in', async () => {
    const res = await token('cc-alice', { grant_type: 'client_credentials' });
    assert.equal(res.status, 200);
    const { access_token: access, expires_in: expiresIn } = res.json() as { access_token: string; expires_in: number };
    assert.equal(expiresIn, 28_800);
    assert.equal((await api('/health', access)).status, 200);
    assert.deepEqual((await api('/health', undefined)).json(), { detail: 'Not authenticated' });
    const advance = await call(`${server.controlUrl}/clock/advance`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ seconds: expiresIn }),
    });
    assert.equal(advance.status, 200);
    const expired = await api('/health', access);
    assert.equal(expired.status, 401);
    assert.deepEqual(expired.json(), { detail: 'Invalid or expired access token' });
  });

  it('{base_url}/oauth/token answers 404 {detail:"Not Found"}', async () => {
    const res = await call(`${server.baseUrl}/oauth/token`, {
      method: 'POST', headers: { 'content-type': FORM, authorization: basic('cc-alice', server.secrets.clients['cc-alice'] ?? '') },
      body: 'grant_type=client_credentials',
    });
    assert.equal(res.status, 404);
    assert.deepEqual(res.json(), { detail: 'Not Found' });
  });

  it('code flow with PKCE (prompt=none), then refresh rotation', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const q = new URLSearchParams({
      response_type: 'code', client_id: 'code-app', redirect_uri: 'https://app.ftf.test/alt', state: 'st',
      code_challenge: challenge, code_challenge_method: 'S256', prompt: 'none', login_hint: 'alice@ftf.test',
    });
    const authz = await call(`${server.authUrl}/oauth/authorize?${q.toString()}`);
    assert.equal(authz.status, 302);
    const code = new URL(String(authz.headers.location)).searchParams.get('code') ?? '';
    const exchanged = await token('code-app', { grant_type: 'authorization_code', code, redirect_uri: 'https://app.ftf.test/alt', code_verifier: verifier });
    assert.equal(exchanged.status, 200);
    const first = exchanged.json() as { access_token: string; refresh_token: string };
    assert.equal((await api('/entity', first.access_token)).status, 200);
    const refreshed = await token('code-app', { grant_type: 'refresh_token', refresh_token: first.refresh_token });
    assert.equal(refreshed.status, 200);
    const again = await token('code-app', { grant_type: 'refresh_token', refresh_token: first.refresh_token });
    assert.equal(again.status, 400);
    assert.equal(again.json().error, 'invalid_grant');
  });

  it('API key works in the sandbox; forbidden entity and read-only writes are 403 on real routes', async () => {
    const key = server.secrets.apiKeys['alice@ftf.test'] ?? '';
    assert.equal((await api('/health', key)).status, 200);
    const gamma = await api('/entity/ENT-GAMMA', key);
    assert.equal(gamma.status, 403);
    assert.deepEqual(gamma.json(), { detail: 'Not authorised for this entity' });
    const carol = (await token('cc-carol-readonly', { grant_type: 'client_credentials' })).json() as { access_token: string };
    const write = await api('/webhook', carol.access_token, 'POST', { url: 'https://hook.ftf.test/x' });
    assert.equal(write.status, 403);
    assert.deepEqual(write.json(), { detail: 'Endpoint not enabled for this API user.' });
  });
});

describe('auth through startReferenceServer (production)', () => {
  it('refuses API keys with the production message', async () => {
    const server = await startReferenceServer({ port: 0, mode: 'production' });
    try {
      const res = await call(`${server.baseUrl}/health`, { headers: { authorization: `Bearer ${server.secrets.apiKeys['alice@ftf.test'] ?? ''}` } });
      assert.equal(res.status, 401);
      assert.deepEqual(res.json(), { detail: 'API keys are not accepted in production; use OAuth.' });
    } finally {
      await server.close();
    }
  });
});

/**
 * No secret ever appears in a response (body or headers) other than the token response itself: client
 * secrets, API keys, passwords, and tokens/codes presented back to the server. Over real HTTP (undici).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { request } from 'undici';
import type { ReferenceContext } from '../../src/reference/context.js';
import { ALICE, allSecrets, basic, BOB, buildAuthApp, CALLBACK, clientBasic, makeContext, pkcePair } from './auth-helpers.js';

interface Sent { status: number; text: string; location: string | undefined }

describe('secrets never leak into responses', () => {
  let ctx: ReferenceContext;
  let app: FastifyInstance;
  let origin: string;
  before(async () => {
    ctx = makeContext({ mode: 'production' });
    app = await buildAuthApp(ctx);
    await app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  after(() => app.close());

  async function send(method: 'GET' | 'POST', path: string, headers: Record<string, string> = {}, body?: string): Promise<Sent> {
    const res = await request(`${origin}${path}`, { method, headers, body });
    const text = `${JSON.stringify(res.headers)}\n${await res.body.text()}`;
    const location = res.headers.location;
    return { status: res.statusCode, text, location: typeof location === 'string' ? location : undefined };
  }
  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
  const formHeaders = (authorization?: string) => ({
    'content-type': 'application/x-www-form-urlencoded', ...(authorization === undefined ? {} : { authorization }),
  });

  it('error answers and pages carry none of the secrets sent or configured', async () => {
    const secrets = allSecrets(ctx);
    const aliceSecret = ctx.secrets.clients['cc-alice']!;
    const password = ctx.secrets.passwords[ALICE]!;
    const apiKey = ctx.secrets.apiKeys[ALICE]!;
    const { challenge } = pkcePair();
    const authz = { response_type: 'code', client_id: 'code-app', redirect_uri: CALLBACK, state: 's', code_challenge: challenge, code_challenge_method: 'S256' };
    const responses: Sent[] = [
      await send('POST', '/oauth/token', formHeaders(basic('cc-alice', ctx.secrets.clients['cc-bob']!)), form({ grant_type: 'client_credentials' })),
      await send('POST', '/oauth/token', formHeaders(), form({ grant_type: 'client_credentials', client_id: 'cc-alice', client_secret: aliceSecret })),
      await send('POST', '/oauth/token', formHeaders(clientBasic(ctx, 'cc-alice')), form({ grant_type: aliceSecret })),
      await send('POST', '/oauth/token', formHeaders(clientBasic(ctx, 'cc-alice')), form({ grant_type: 'client_credentials', client_secret: password })),
      await send('POST', '/oauth/token', { 'content-type': 'application/json', authorization: clientBasic(ctx, 'cc-alice') }, JSON.stringify({ client_secret: aliceSecret })),
      await send('GET', `/oauth/token?client_secret=${aliceSecret}`),
      await send('POST', '/oauth/token', formHeaders(clientBasic(ctx, 'code-app')), form({ grant_type: 'refresh_token', refresh_token: apiKey })),
      await send('POST', '/oauth/token', formHeaders(clientBasic(ctx, 'code-app')), form({ grant_type: 'authorization_code', code: password, code_verifier: aliceSecret })),
      await send('GET', `/oauth/authorize?${form({ ...authz, login_hint: ALICE })}`),
      await send('GET', `/oauth/authorize?${form({ ...authz, prompt: 'none', login_hint: ALICE })}`),
      await send('GET', `/oauth/authorize?${form({ ...authz, client_id: 'nope', state: aliceSecret })}`),
      await send('POST', '/oauth/authorize', formHeaders(), form({ ...authz, email: ALICE, password: `${password}x`, decision: 'approve' })),
      await send('POST', '/oauth/authorize', formHeaders(), form({ ...authz, email: BOB, password: ctx.secrets.passwords[BOB]!, decision: 'approve' })),
      await send('GET', '/api/v1/health', { authorization: `Bearer ${apiKey}` }),
      await send('GET', '/api/v1/health', { authorization: `Bearer ${aliceSecret}` }),
      await send('GET', '/api/v1/health', { authorization: clientBasic(ctx, 'cc-alice') }),
    ];
    const expected = [401, 401, 400, 401, 400, 405, 400, 400, 200, 400, 400, 200, 200, 401, 401, 401];
    assert.deepEqual(responses.map((r) => r.status), expected, 'each request hit the rule it was meant to');
    for (const [i, res] of responses.entries()) {
      for (const value of secrets) assert.ok(!res.text.includes(value), `response ${i} (status ${res.status}) contains a secret`);
    }
  });

  it('a successful consent redirect carries a code but no password, and the token response is the only place tokens appear', async () => {
    const { verifier, challenge } = pkcePair();
    const authz = { response_type: 'code', client_id: 'code-app', redirect_uri: CALLBACK, state: 's', code_challenge: challenge, code_challenge_method: 'S256' };
    const consent = await send('POST', '/oauth/authorize', formHeaders(), form({ ...authz, email: ALICE, password: ctx.secrets.passwords[ALICE]!, decision: 'approve' }));
    assert.equal(consent.status, 302);
    for (const value of allSecrets(ctx)) assert.ok(!consent.text.includes(value));
    const code = new URL(consent.location ?? '').searchParams.get('code') ?? '';
    const token = await send('POST', '/oauth/token', formHeaders(clientBasic(ctx, 'code-app')), form({ grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: verifier }));
    assert.equal(token.status, 200);
    for (const value of allSecrets(ctx)) assert.ok(!token.text.includes(value), 'no client secret/password in the token response');
    assert.ok(!token.text.includes(code), 'the code is not echoed');
    const reuse = await send('POST', '/oauth/token', formHeaders(clientBasic(ctx, 'code-app')), form({ grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: verifier }));
    assert.equal(reuse.status, 400);
    assert.ok(!reuse.text.includes(code) && !reuse.text.includes(verifier), 'refusals do not echo the code or verifier');
  });
});

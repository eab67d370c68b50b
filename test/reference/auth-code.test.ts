/** Code Authorisation: /oauth/authorize (consent page, prompt=none), the code exchange with PKCE, refresh rotation. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { ReferenceContext } from '../../src/reference/context.js';
import {
  ALICE, ALT, authorizeQuery, BOB, bearer, buildAuthApp, CALLBACK, clientBasic, codeViaPromptNone, makeContext, manualClock,
  pkcePair, SINGLE_CALLBACK, tokenRequest,
} from './auth-helpers.js';

interface Tokens { access_token: string; refresh_token: string; expires_in: number; token_type: string }

function exchange(app: FastifyInstance, ctx: ReferenceContext, clientId: string, form: Record<string, string>) {
  return tokenRequest(app, { authorization: clientBasic(ctx, clientId), form: { grant_type: 'authorization_code', ...form } });
}

function errorOf(res: { statusCode: number; json: <T>() => T }): string {
  return res.json<{ error: string }>().error;
}

describe('authorization_code + PKCE exchange', () => {
  let ctx: ReferenceContext;
  let app: FastifyInstance;
  const clock = manualClock();
  before(async () => {
    ctx = makeContext();
    app = await buildAuthApp(ctx, clock.now);
  });
  after(() => app.close());

  it('prompt=none gives a code; the exchange returns access + refresh tokens acting as the consenting user', async () => {
    const { verifier, challenge } = pkcePair();
    const { code, location } = await codeViaPromptNone(app, { clientId: 'code-app', user: ALICE, challenge, redirectUri: CALLBACK, state: 's&1' });
    assert.equal(`${location.origin}${location.pathname}`, CALLBACK);
    assert.equal(location.searchParams.get('state'), 's&1');
    const res = await exchange(app, ctx, 'code-app', { code, redirect_uri: CALLBACK, code_verifier: verifier });
    assert.equal(res.statusCode, 200);
    const body = res.json<Tokens>();
    assert.equal(body.token_type, 'Bearer');
    assert.equal(body.expires_in, ctx.options.tokenLifetimeSeconds);
    assert.equal(typeof body.refresh_token, 'string');
    const api = await app.inject({ url: '/api/v1/health', headers: bearer(body.access_token) });
    const principal = api.json<{ principal: Record<string, unknown> }>().principal;
    assert.deepEqual(principal, {
      userEmail: ALICE, clientId: 'code-app', via: 'authorization_code', allowedEntities: ['ENT-ALPHA', 'ENT-BETA'], readOnly: false,
    });
  });

  it('codes are single-use', async () => {
    const { verifier, challenge } = pkcePair();
    const { code } = await codeViaPromptNone(app, { clientId: 'code-app', user: ALICE, challenge, redirectUri: CALLBACK });
    assert.equal((await exchange(app, ctx, 'code-app', { code, redirect_uri: CALLBACK, code_verifier: verifier })).statusCode, 200);
    const again = await exchange(app, ctx, 'code-app', { code, redirect_uri: CALLBACK, code_verifier: verifier });
    assert.equal(again.statusCode, 400);
    assert.equal(errorOf(again), 'invalid_grant');
  });

  it('codes are short-lived: 60 s on the injected clock', async () => {
    const { verifier, challenge } = pkcePair();
    const early = await codeViaPromptNone(app, { clientId: 'code-app', user: ALICE, challenge, redirectUri: CALLBACK });
    const late = await codeViaPromptNone(app, { clientId: 'code-app', user: ALICE, challenge, redirectUri: CALLBACK });
    clock.advance(59_000);
    assert.equal((await exchange(app, ctx, 'code-app', { code: early.code, redirect_uri: CALLBACK, code_verifier: verifier })).statusCode, 200);
    clock.advance(1_000);
    const expired = await exchange(app, ctx, 'code-app', { code: late.code, redirect_uri: CALLBACK, code_verifier: verifier });
    assert.equal(errorOf(expired), 'invalid_grant');
  });

  it('PKCE: a missing or wrong code_verifier -> 400 invalid_grant', async () => {
    const { challenge } = pkcePair();
    const missing = await codeViaPromptNone(app, { clientId: 'code-app', user: ALICE, challenge, redirectUri: CALLBACK });
    const res1 = await exchange(app, ctx, 'code-app', { code: missing.code, redirect_uri: CALLBACK });
    assert.equal(res1.statusCode, 400);
    assert.equal(errorOf(res1), 'invalid_grant');
    const wrong = await codeViaPromptNone(app, { clientId: 'code-app', user: ALICE, challenge, redirectUri: CALLBACK });
    const res2 = await exchange(app, ctx, 'code-app', { code: wrong.code, redirect_uri: CALLBACK, code_verifier: pkcePair().verifier });
    assert.equal(res2.statusCode, 400);
    assert.equal(errorOf(res2), 'invalid_grant');
    // The challenge itself is not a verifier.
    const plain = await codeViaPromptNone(app, { clientId: 'code-app', user: ALICE, challenge, redirectUri: CALLBACK });
    assert.equal(errorOf(await exchange(app, ctx, 'code-app', { code: plain.code, redirect_uri: CALLBACK, code_verifier: challenge })), 'invalid_grant');
  });

  it('two-URI client: redirect_uri is required in the exchange and must be the one used', async () => {
    const { verifier, challenge } = pkcePair();
    const omitted = await codeViaPromptNone(app, { clientId: 'code-app', user: ALICE, challenge, redirectUri: ALT });
    const res1 = await exchange(app, ctx, 'code-app', { code: omitted.code, code_verifier: verifier });
    assert.equal(res1.statusCode, 400);
    assert.equal(errorOf(res1), 'invalid_grant');
    const other = await codeViaPromptNone(app, { clientId: 'code-app', user: ALICE, challenge, redirectUri: ALT });
    // CALLBACK is registered too, but it is not the URI this code was delivered to.
    const res2 = await exchange(app, ctx, 'code-app', { code: other.code, redirect_uri: CALLBACK, code_verifier: verifier });
    assert.equal(errorOf(res2), 'invalid_grant');
    const ok = await codeViaPromptNone(app, { clientId: 'code-app', user: ALICE, challenge, redirectUri: ALT });
    assert.equal((await exchange(app, ctx, 'code-app', { code: ok.code, redirect_uri: ALT, code_verifier: verifier })).statusCode, 200);
  });

  it('one-URI client: redirect_uri may be omitted (authorize and exchange), but a different one is refused', async () => {
    const { verifier, challenge } = pkcePair();
    const a = await codeViaPromptNone(app, { clientId: 'code-app-single', user: BOB, challenge });
    assert.equal(`${a.location.origin}${a.location.pathname}`, 'https://single.ftf.test/cb');
    assert.equal(a.location.searchParams.get('tenant'), '1', 'the registered URI keeps its own query');
    assert.equal((await exchange(app, ctx, 'code-app-single', { code: a.code, code_verifier: verifier })).statusCode, 200);
    const b = await codeViaPromptNone(app, { clientId: 'code-app-single', user: BOB, challenge, redirectUri: SINGLE_CALLBACK });
    assert.equal((await exchange(app, ctx, 'code-app-single', { code: b.code, redirect_uri: SINGLE_CALLBACK, code_verifier: verifier })).statusCode, 200);
    const c = await codeViaPromptNone(app, { clientId: 'code-app-single', user: BOB, challenge });
    const res = await exchange(app, ctx, 'code-app-single', { code: c.code, redirect_uri: 'https://single.ftf.test/other', code_verifier: verifier });
    assert.equal(errorOf(res), 'invalid_grant');
  });

  it('a code issued to one client cannot be exchanged by another', async () => {
    const { verifier, challenge } = pkcePair();
    const { code } = await codeViaPromptNone(app, { clientId: 'code-app', user: ALICE, challenge, redirectUri: CALLBACK });
    const res = await exchange(app, ctx, 'code-app-single', { code, redirect_uri: CALLBACK, code_verifier: verifier });
    assert.equal(errorOf(res), 'invalid_grant');
  });

  it('refresh_token: new access and refresh tokens, no redirect_uri needed; the old refresh token is refused', async () => {
    const { verifier, challenge } = pkcePair();
    const { code } = await codeViaPromptNone(app, { clientId: 'code-app', user: ALICE, challenge, redirectUri: CALLBACK });
    const first = (await exchange(app, ctx, 'code-app', { code, redirect_uri: CALLBACK, code_verifier: verifier })).json<Tokens>();
    const res = await tokenRequest(app, { authorization: clientBasic(ctx, 'code-app'), form: { grant_type: 'refresh_token', refresh_token: first.refresh_token } });
    assert.equal(res.statusCode, 200);
    const second = res.json<Tokens>();
    assert.notEqual(second.access_token, first.access_token);
    assert.notEqual(second.refresh_token, first.refresh_token);
    assert.equal(second.expires_in, ctx.options.tokenLifetimeSeconds);
    assert.equal((await app.inject({ url: '/api/v1/health', headers: bearer(second.access_token) })).statusCode, 200);
    const reused = await tokenRequest(app, { authorization: clientBasic(ctx, 'code-app'), form: { grant_type: 'refresh_token', refresh_token: first.refresh_token } });
    assert.equal(reused.statusCode, 400);
    assert.equal(errorOf(reused), 'invalid_grant');
    const third = await tokenRequest(app, { authorization: clientBasic(ctx, 'code-app'), form: { grant_type: 'refresh_token', refresh_token: second.refresh_token } });
    assert.equal(third.statusCode, 200, 'the rotated refresh token works for the next cycle');
  });

  it('refresh_token: another client, an unknown token or an access token -> invalid_grant; missing -> invalid_request', async () => {
    const { verifier, challenge } = pkcePair();
    const { code } = await codeViaPromptNone(app, { clientId: 'code-app', user: ALICE, challenge, redirectUri: CALLBACK });
    const tokens = (await exchange(app, ctx, 'code-app', { code, redirect_uri: CALLBACK, code_verifier: verifier })).json<Tokens>();
    const refresh = (clientId: string, form: Record<string, string>) =>
      tokenRequest(app, { authorization: clientBasic(ctx, clientId), form: { grant_type: 'refresh_token', ...form } });
    assert.equal(errorOf(await refresh('code-app-single', { refresh_token: tokens.refresh_token })), 'invalid_grant');
    assert.equal(errorOf(await refresh('code-app', { refresh_token: 'not-a-token' })), 'invalid_grant');
    assert.equal(errorOf(await refresh('code-app', { refresh_token: tokens.access_token })), 'invalid_grant');
    assert.equal(errorOf(await refresh('code-app', {})), 'invalid_request');
    assert.equal((await refresh('code-app', { refresh_token: tokens.refresh_token })).statusCode, 200, 'failed attempts by others do not burn it');
  });
});

describe('/oauth/authorize', () => {
  let ctx: ReferenceContext;
  let app: FastifyInstance;
  const { challenge } = pkcePair();
  const base = { response_type: 'code', client_id: 'code-app', redirect_uri: CALLBACK, state: 'xyz', code_challenge: challenge, code_challenge_method: 'S256' };
  before(async () => {
    ctx = makeContext();
    app = await buildAuthApp(ctx);
  });
  after(() => app.close());

  const consent = (fields: Record<string, string>) =>
    app.inject({ method: 'POST', url: '/oauth/authorize', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString() });

  it('GET renders an HTML consent page with a form, credentials fields, Approve/Deny and the request in hidden fields', async () => {
    const res = await app.inject({ url: authorizeQuery(base) });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.equal(res.headers['x-frame-options'], 'DENY');
    assert.match(res.body, /<form method="post" action="\/oauth\/authorize"/);
    assert.match(res.body, /<input type="email" id="email" name="email"/);
    assert.match(res.body, /<input type="password" id="password" name="password"/);
    assert.match(res.body, /name="decision" value="approve">Approve</);
    assert.match(res.body, /name="decision" value="deny" formnovalidate>Deny</);
    for (const [name, value] of Object.entries(base)) assert.ok(res.body.includes(`name="${name}" value="${value}"`), name);
  });

  it('escapes every reflected value', async () => {
    const res = await app.inject({ url: authorizeQuery({ ...base, state: '"><script>alert(1)</script>', login_hint: '<b>x</b>' }) });
    assert.equal(res.statusCode, 200);
    assert.ok(!res.body.includes('<script>'));
    assert.ok(res.body.includes('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;'));
    assert.ok(res.body.includes('value="&lt;b&gt;x&lt;/b&gt;"'));
    const err = await app.inject({ url: authorizeQuery({ ...base, client_id: '<img src=x>' }) });
    assert.equal(err.statusCode, 400);
    assert.ok(!err.body.includes('<img'));
  });

  it('POST approve with the right password -> 302 to redirect_uri with code and state', async () => {
    const res = await consent({ ...base, email: ALICE, password: ctx.secrets.passwords[ALICE]!, decision: 'approve' });
    assert.equal(res.statusCode, 302);
    const location = new URL(String(res.headers.location));
    assert.equal(`${location.origin}${location.pathname}`, CALLBACK);
    assert.ok((location.searchParams.get('code') ?? '').length >= 40);
    assert.equal(location.searchParams.get('state'), 'xyz');
  });

  it('POST deny -> 302 with error=access_denied and state, no code', async () => {
    const res = await consent({ ...base, decision: 'deny' });
    assert.equal(res.statusCode, 302);
    const location = new URL(String(res.headers.location));
    assert.equal(location.searchParams.get('error'), 'access_denied');
    assert.equal(location.searchParams.get('state'), 'xyz');
    assert.equal(location.searchParams.get('code'), null);
  });

  it('POST with a wrong password, an unknown user or a user the client does not act for -> 200 form again, no code', async () => {
    const cases: Array<Record<string, string>> = [
      { email: ALICE, password: 'wrong' },
      { email: 'nobody@ftf.test', password: 'x' },
      { email: BOB, password: ctx.secrets.passwords[BOB]! },
      { email: ALICE },
    ];
    for (const creds of cases) {
      const res = await consent({ ...base, ...creds, decision: 'approve' });
      assert.equal(res.statusCode, 200, JSON.stringify(creds.email));
      assert.equal(res.headers.location, undefined);
      assert.match(res.body, /<p class="error" role="alert">/);
      assert.match(res.body, /<form method="post"/);
      assert.ok(!res.body.includes('password" value'), 'the password is never echoed');
    }
  });

  it('unknown client_id, a client without the code grant, unregistered or missing (two-URI) redirect_uri -> 400 HTML, never a redirect', async () => {
    const cases = [
      { ...base, client_id: 'nope' },
      { ...base, client_id: 'cc-alice' },
      { ...base, redirect_uri: 'https://evil.test/cb' },
      { ...base, redirect_uri: `${CALLBACK}/` },
      { ...base, redirect_uri: undefined },
      { ...base, client_id: undefined },
    ];
    for (const params of cases) {
      const res = await app.inject({ url: authorizeQuery(params) });
      assert.equal(res.statusCode, 400, JSON.stringify(params));
      assert.equal(res.headers.location, undefined);
      assert.match(String(res.headers['content-type']), /^text\/html/);
      const post = await consent(Object.fromEntries(Object.entries({ ...params, email: ALICE, password: ctx.secrets.passwords[ALICE]! }).filter(([, v]) => v !== undefined)) as Record<string, string>);
      assert.equal(post.statusCode, 400, `POST ${JSON.stringify(params)}`);
    }
  });

  it('missing PKCE parameters or a bad response_type -> redirected error (the redirect URI is trusted by then)', async () => {
    const cases: Array<[Record<string, string | undefined>, string]> = [
      [{ ...base, code_challenge: undefined }, 'invalid_request'],
      [{ ...base, code_challenge_method: undefined }, 'invalid_request'],
      [{ ...base, code_challenge_method: 'plain' }, 'invalid_request'],
      [{ ...base, code_challenge: 'short' }, 'invalid_request'],
      [{ ...base, response_type: 'token' }, 'unsupported_response_type'],
      [{ ...base, response_type: undefined }, 'invalid_request'],
    ];
    for (const [params, error] of cases) {
      const res = await app.inject({ url: authorizeQuery(params) });
      assert.equal(res.statusCode, 302, JSON.stringify(params));
      const location = new URL(String(res.headers.location));
      assert.equal(location.searchParams.get('error'), error);
      assert.equal(location.searchParams.get('state'), 'xyz');
      assert.equal(location.searchParams.get('code'), null);
    }
  });

  it('prompt=none (sandbox): login_hint missing -> login_required; another user -> access_denied', async () => {
    const missing = await app.inject({ url: authorizeQuery({ ...base, prompt: 'none' }) });
    assert.equal(new URL(String(missing.headers.location)).searchParams.get('error'), 'login_required');
    const bob = await app.inject({ url: authorizeQuery({ ...base, prompt: 'none', login_hint: BOB }) });
    assert.equal(new URL(String(bob.headers.location)).searchParams.get('error'), 'access_denied');
  });
});

describe('/oauth/authorize in production', () => {
  it('prompt=none is refused with a 400 page; the interactive flow still works', async () => {
    const ctx = makeContext({ mode: 'production' });
    const app = await buildAuthApp(ctx);
    try {
      const { verifier, challenge } = pkcePair();
      const params = { response_type: 'code', client_id: 'code-app', redirect_uri: CALLBACK, code_challenge: challenge, code_challenge_method: 'S256' };
      const shortcut = await app.inject({ url: authorizeQuery({ ...params, prompt: 'none', login_hint: ALICE }) });
      assert.equal(shortcut.statusCode, 400);
      assert.equal(shortcut.headers.location, undefined);
      const post = await app.inject({
        method: 'POST', url: '/oauth/authorize', headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ ...params, email: ALICE, password: ctx.secrets.passwords[ALICE]!, decision: 'approve' }).toString(),
      });
      assert.equal(post.statusCode, 302);
      const code = new URL(String(post.headers.location)).searchParams.get('code') ?? '';
      const res = await exchange(app, ctx, 'code-app', { code, redirect_uri: CALLBACK, code_verifier: verifier });
      assert.equal(res.statusCode, 200);
    } finally {
      await app.close();
    }
  });
});

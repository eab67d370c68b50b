/** Token endpoint: transport rules (POST, form encoding, HTTP Basic) and the client_credentials grant. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { ReferenceContext } from '../../src/reference/context.js';
import { basic, bearer, buildAuthApp, clientBasic, makeContext, tokenRequest } from './auth-helpers.js';

interface OAuthErrorBody { error: string; error_description: string; detail: string }

function assertOAuthError(res: { statusCode: number; json: <T>() => T }, status: number, error: string): OAuthErrorBody {
  assert.equal(res.statusCode, status);
  const body = res.json<OAuthErrorBody>();
  assert.equal(body.error, error);
  assert.equal(typeof body.error_description, 'string');
  assert.ok(body.error_description.length > 0);
  assert.equal(body.detail, body.error_description, 'detail carries the same text for {detail} clients');
  return body;
}

describe('token endpoint', () => {
  let ctx: ReferenceContext;
  let app: FastifyInstance;
  before(async () => {
    ctx = makeContext({ tokenLifetimeSeconds: 7200 });
    app = await buildAuthApp(ctx);
  });
  after(() => app.close());

  it('client_credentials: access_token, Bearer, expires_in from the options, no refresh_token, no caching', async () => {
    const res = await tokenRequest(app, { authorization: clientBasic(ctx, 'cc-alice'), form: { grant_type: 'client_credentials' } });
    assert.equal(res.statusCode, 200);
    const body = res.json<Record<string, unknown>>();
    assert.equal(typeof body.access_token, 'string');
    assert.ok((body.access_token as string).length >= 40);
    assert.equal(body.token_type, 'Bearer');
    assert.equal(body.expires_in, 7200);
    assert.equal('refresh_token' in body, false);
    assert.equal(res.headers['cache-control'], 'no-store');
    const api = await app.inject({ url: '/api/v1/health', headers: bearer(body.access_token as string) });
    assert.equal(api.statusCode, 200);
    assert.equal(api.json<{ principal: { userEmail: string } }>().principal.userEmail, 'alice@ftf.test');
  });

  it('client_credentials: the token is reusable and a second request gives a different token', async () => {
    const form = { grant_type: 'client_credentials' };
    const a = (await tokenRequest(app, { authorization: clientBasic(ctx, 'cc-bob'), form })).json<{ access_token: string }>();
    const b = (await tokenRequest(app, { authorization: clientBasic(ctx, 'cc-bob'), form })).json<{ access_token: string }>();
    assert.notEqual(a.access_token, b.access_token);
    for (let i = 0; i < 3; i++) {
      assert.equal((await app.inject({ url: '/api/v1/health', headers: bearer(a.access_token) })).statusCode, 200);
    }
  });

  it('accepts form client_id and client_secret when they agree with Basic (the spec grant table lists them)', async () => {
    const form = { grant_type: 'client_credentials', client_id: 'cc-alice', client_secret: ctx.secrets.clients['cc-alice']! };
    const res = await tokenRequest(app, { authorization: clientBasic(ctx, 'cc-alice'), form });
    assert.equal(res.statusCode, 200);
  });

  it('accepts a charset parameter on the form Content-Type', async () => {
    const res = await tokenRequest(app, {
      authorization: clientBasic(ctx, 'cc-alice'), form: { grant_type: 'client_credentials' },
      contentType: 'application/x-www-form-urlencoded; charset=UTF-8',
    });
    assert.equal(res.statusCode, 200);
  });

  it('JSON body -> 400 invalid_request', async () => {
    const res = await tokenRequest(app, {
      authorization: clientBasic(ctx, 'cc-alice'), contentType: 'application/json', raw: JSON.stringify({ grant_type: 'client_credentials' }),
    });
    assertOAuthError(res, 400, 'invalid_request');
  });

  it('other or missing Content-Type -> 400 invalid_request (not a 415 from the parser)', async () => {
    const xml = await tokenRequest(app, { authorization: clientBasic(ctx, 'cc-alice'), contentType: 'application/xml', raw: '<a/>' });
    assertOAuthError(xml, 400, 'invalid_request');
    const none = await app.inject({ method: 'POST', url: '/oauth/token', headers: { authorization: clientBasic(ctx, 'cc-alice') } });
    assertOAuthError(none, 400, 'invalid_request');
  });

  it('GET /oauth/token -> 405 with Allow: POST', async () => {
    const res = await app.inject({ url: '/oauth/token?grant_type=client_credentials', headers: { authorization: clientBasic(ctx, 'cc-alice') } });
    assertOAuthError(res, 405, 'invalid_request');
    assert.equal(res.headers.allow, 'POST');
  });

  it('missing Basic -> 401 invalid_client with WWW-Authenticate: Basic, even with form credentials', async () => {
    const form = { grant_type: 'client_credentials', client_id: 'cc-alice', client_secret: ctx.secrets.clients['cc-alice']! };
    const res = await tokenRequest(app, { form });
    assertOAuthError(res, 401, 'invalid_client');
    assert.match(String(res.headers['www-authenticate']), /^Basic /);
    const asBearer = await tokenRequest(app, { authorization: `Bearer ${ctx.secrets.clients['cc-alice']}`, form });
    assertOAuthError(asBearer, 401, 'invalid_client');
  });

  it('wrong secret, unknown client and malformed Basic -> 401 invalid_client with the same message for the first two', async () => {
    const form = { grant_type: 'client_credentials' };
    const wrong = assertOAuthError(await tokenRequest(app, { authorization: basic('cc-alice', 'nope'), form }), 401, 'invalid_client');
    const unknown = assertOAuthError(await tokenRequest(app, { authorization: basic('no-such-client', 'x'), form }), 401, 'invalid_client');
    assert.equal(wrong.error_description, unknown.error_description);
    // Another client's (valid) secret is still the wrong secret.
    assertOAuthError(await tokenRequest(app, { authorization: basic('cc-alice', ctx.secrets.clients['cc-bob']!), form }), 401, 'invalid_client');
    assertOAuthError(await tokenRequest(app, { authorization: 'Basic %%%', form }), 401, 'invalid_client');
    assertOAuthError(await tokenRequest(app, { authorization: `Basic ${Buffer.from('no-colon').toString('base64')}`, form }), 401, 'invalid_client');
  });

  it('form client_id different from Basic, or a wrong form client_secret -> 401 invalid_client', async () => {
    const mismatch = { grant_type: 'client_credentials', client_id: 'cc-bob' };
    assertOAuthError(await tokenRequest(app, { authorization: clientBasic(ctx, 'cc-alice'), form: mismatch }), 401, 'invalid_client');
    const badSecret = { grant_type: 'client_credentials', client_secret: 'wrong' };
    assertOAuthError(await tokenRequest(app, { authorization: clientBasic(ctx, 'cc-alice'), form: badSecret }), 401, 'invalid_client');
  });

  it('unknown or missing grant_type -> 400 unsupported_grant_type / invalid_request', async () => {
    const auth = clientBasic(ctx, 'cc-alice');
    assertOAuthError(await tokenRequest(app, { authorization: auth, form: { grant_type: 'password' } }), 400, 'unsupported_grant_type');
    assertOAuthError(await tokenRequest(app, { authorization: auth, form: { grant_type: 'toString' } }), 400, 'unsupported_grant_type');
    assertOAuthError(await tokenRequest(app, { authorization: auth, form: {} }), 400, 'invalid_request');
  });

  it('repeated grant_type -> 400 invalid_request', async () => {
    const res = await tokenRequest(app, { authorization: clientBasic(ctx, 'cc-alice'), raw: 'grant_type=client_credentials&grant_type=client_credentials' });
    assertOAuthError(res, 400, 'invalid_request');
  });

  it('a grant the client is not provisioned for -> 400 unauthorized_client', async () => {
    assertOAuthError(
      await tokenRequest(app, { authorization: clientBasic(ctx, 'code-app'), form: { grant_type: 'client_credentials' } }), 400, 'unauthorized_client',
    );
    assertOAuthError(
      await tokenRequest(app, { authorization: clientBasic(ctx, 'cc-alice'), form: { grant_type: 'refresh_token', refresh_token: 'x' } }), 400, 'unauthorized_client',
    );
  });

  it('{base_url}/oauth/token is a 404 {detail:"Not Found"} even for a well-formed token request', async () => {
    const res = await tokenRequest(app, { url: '/api/v1/oauth/token', authorization: clientBasic(ctx, 'cc-alice'), form: { grant_type: 'client_credentials' } });
    assert.equal(res.statusCode, 404);
    assert.deepEqual(res.json(), { detail: 'Not Found' });
  });

  it('the form parser is scoped: JSON API routes still parse JSON', async () => {
    const token = (await tokenRequest(app, { authorization: clientBasic(ctx, 'cc-alice'), form: { grant_type: 'client_credentials' } }))
      .json<{ access_token: string }>().access_token;
    const res = await app.inject({
      method: 'POST', url: '/api/v1/webhook', headers: { ...bearer(token), 'content-type': 'application/json' }, payload: { url: 'https://hook.test/x' },
    });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json<{ url: string }>().url, 'https://hook.test/x');
    const form = await app.inject({
      method: 'POST', url: '/api/v1/webhook', headers: { ...bearer(token), 'content-type': 'application/x-www-form-urlencoded' }, payload: 'url=x',
    });
    assert.equal(form.statusCode, 415, 'form bodies are not parsed outside the OAuth routes');
  });
});

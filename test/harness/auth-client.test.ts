import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { FtfError } from '../../src/shared/errors.js';
import { createAuthClient } from '../../src/harness/auth/client.js';
import { challengeFor, createPkce } from '../../src/harness/auth/pkce.js';
import { RecordingTransport } from '../../src/harness/http/recorder.js';
import { Redactor } from '../../src/harness/http/redactor.js';
import { memorySink } from '../../src/harness/http/sinks.js';
import type { Transport } from '../../src/harness/http/types.js';
import { createUndiciTransport } from '../../src/harness/http/undici-transport.js';
import { loadTargetProfile } from '../../src/harness/target/load.js';
import type { ResolvedTarget } from '../../src/harness/target/types.js';
import { startOAuthStub, type OAuthStub } from './auth-stub-oauth.js';

const SECRETS = {
  STUB_PRIMARY_SECRET: 'primary-secret-canary-1',
  STUB_CODE_SECRET: 'code-secret-canary-2',
  STUB_ALICE_PASSWORD: 'alice-password-canary-3',
  STUB_API_KEY: 'api-key-canary-4',
  STUB_PREOBTAINED_RT: 'preobtained-refresh-canary-5',
};
const PROFILE = `name: stub
base_url: https://placeholder.test/api/v1
auth_url: https://placeholder.test
control_url: https://placeholder.test/_sandbox
environment: sandbox
capabilities: [clock, consent]
credentials:
  primary: { kind: client_credentials, client_id: cc-alice, client_secret_env: STUB_PRIMARY_SECRET }
  code:
    kind: authorization_code
    client_id: code-app
    client_secret_env: STUB_CODE_SECRET
    redirect_uri: https://app.test/callback
    consent: { strategy: auto-approve-url, authorize_path: /oauth/authorize, params: { prompt: none, login_hint: alice@ftf.test } }
  form:
    kind: authorization_code
    client_id: code-app
    client_secret_env: STUB_CODE_SECRET
    redirect_uri: https://app.test/callback
    consent: { strategy: form-post, authorize_path: /consent, params: { username: alice, password_env: STUB_ALICE_PASSWORD } }
  manual:
    kind: authorization_code
    client_id: code-app
    client_secret_env: STUB_CODE_SECRET
    redirect_uri: https://app.test/callback
    refresh_token_env: STUB_PREOBTAINED_RT
  api_key: { kind: api_key, api_key_env: STUB_API_KEY }
`;

const dir = mkdtempSync(join(tmpdir(), 'ftf-auth-'));
let stub: OAuthStub;
let inner: Transport;
let target: ResolvedTarget;

before(async () => {
  stub = await startOAuthStub({ 'cc-alice': SECRETS.STUB_PRIMARY_SECRET, 'code-app': SECRETS.STUB_CODE_SECRET }, SECRETS.STUB_ALICE_PASSWORD);
  inner = createUndiciTransport();
  const file = join(dir, 'stub.yaml');
  writeFileSync(file, PROFILE);
  target = loadTargetProfile(file, { env: SECRETS, overrides: { baseUrl: `${stub.url}/api/v1`, authUrl: stub.url, controlUrl: `${stub.url}/_sandbox` } });
});
after(async () => {
  await inner.dispose?.();
  await stub.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  stub.expiresIn = 3600;
  stub.tamperState = undefined;
  stub.grants.length = 0;
});

function tokenCalls() {
  return stub.requests.filter((r) => r.url === '/oauth/token').length;
}

describe('client_credentials', () => {
  it('caches the token and refreshes it when less than max(30 s, 10 %) of its lifetime is left', async () => {
    let now = 1_000_000;
    const auth = createAuthClient(target, inner, new Redactor(), { now: () => now });
    const before = tokenCalls();
    const first = await auth.authorization('primary');
    assert.match(first ?? '', /^Bearer at-/);
    assert.equal(await auth.authorization('primary'), first);
    assert.equal(tokenCalls() - before, 1, 'reused until near expiry');
    const call = stub.requests.filter((r) => r.url === '/oauth/token').at(-1);
    assert.equal(call?.headers.authorization, `Basic ${Buffer.from(`cc-alice:${SECRETS.STUB_PRIMARY_SECRET}`).toString('base64')}`);
    assert.deepEqual(Object.fromEntries(new URLSearchParams(call?.body)), { grant_type: 'client_credentials', client_id: 'cc-alice', client_secret: SECRETS.STUB_PRIMARY_SECRET });
    // 3600 s lifetime: margin 360 s. 361 s before expiry: still cached.
    now += (3600 - 361) * 1000;
    assert.equal(await auth.authorization('primary'), first);
    assert.equal(auth.tokenInfo('primary')?.expiresIn, 3600);
    // 359 s before expiry: refreshed.
    now += 2 * 1000;
    const second = await auth.authorization('primary');
    assert.notEqual(second, first);
    assert.equal(tokenCalls() - before, 2);
  });

  it('uses the 30 s floor for short lifetimes, and forget/forgetAll drop the cache', async () => {
    stub.expiresIn = 100;
    let now = 0;
    const auth = createAuthClient(target, inner, new Redactor(), { now: () => now });
    const first = await auth.authorization('primary');
    now = 69_000; // 31 s left
    assert.equal(await auth.authorization('primary'), first);
    now = 71_000; // 29 s left
    const second = await auth.authorization('primary');
    assert.notEqual(second, first);
    auth.forget('primary');
    const third = await auth.authorization('primary');
    assert.notEqual(third, second);
    auth.forgetAll();
    assert.equal(auth.tokenInfo('primary'), undefined);
  });

  it('concurrent callers share one token request', async () => {
    const auth = createAuthClient(target, inner, new Redactor());
    const before = tokenCalls();
    const [a, b, c] = await Promise.all([auth.authorization('primary'), auth.authorization('primary'), auth.authorization('primary')]);
    assert.equal(tokenCalls() - before, 1);
    assert.ok(a === b && b === c);
  });

  it('a refused token request is FTF_E_AUTH_TOKEN with the status and a redacted body excerpt', async () => {
    const wrong = { ...target, credentials: { ...target.credentials, primary: { ...target.credentials.primary!, secret: 'wrong-secret-canary-9' } } };
    const redactor = new Redactor();
    const auth = createAuthClient(wrong, inner, redactor);
    await assert.rejects(auth.authorization('primary'), (e: unknown) => {
      assert.ok(e instanceof FtfError);
      assert.equal(e.code, 'FTF_E_AUTH_TOKEN');
      assert.match(e.message, /HTTP 401/);
      assert.match(e.message, /invalid_client/);
      assert.ok(!e.message.includes('wrong-secret-canary-9'), 'the stub echoes the secret; the message must not');
      assert.match(e.message, /\[REDACTED:STUB_PRIMARY_SECRET\]/);
      return true;
    });
  });

  it('an unknown credential is FTF_E_AUTH_CREDENTIAL_UNKNOWN naming the configured ones', async () => {
    const auth = createAuthClient(target, inner, new Redactor());
    await assert.rejects(auth.authorization('second'), (e: unknown) => e instanceof FtfError && e.code === 'FTF_E_AUTH_CREDENTIAL_UNKNOWN' && /configured: primary, code/.test(e.message));
  });
});

describe('authorization_code', () => {
  it('PKCE helper: S256 challenge of a 43-char verifier', () => {
    const p = createPkce();
    assert.equal(p.verifier.length, 43);
    assert.equal(p.challenge, challengeFor(p.verifier));
    // RFC 7636 appendix B
    assert.equal(challengeFor('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk'), 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });

  it('auto-approve consent + PKCE exchange, then refresh_token grants with the rotated token', async () => {
    let now = 0;
    const auth = createAuthClient(target, inner, new Redactor(), { now: () => now });
    const first = await auth.authorization('code');
    assert.deepEqual(stub.grants, ['authorization_code']);
    const exchange = stub.requests.filter((r) => r.url === '/oauth/token').at(-1);
    const form = new URLSearchParams(exchange?.body);
    assert.equal(form.get('redirect_uri'), 'https://app.test/callback');
    assert.ok(form.get('code_verifier'));
    assert.equal(form.get('client_secret'), null, 'the code exchange authenticates with Basic only (spec grant table)');
    assert.equal(auth.tokenInfo('code')?.hasRefreshToken, true);
    now += 3600 * 1000; // expired: next call refreshes
    const second = await auth.authorization('code');
    assert.notEqual(second, first);
    now += 3600 * 1000;
    const third = await auth.authorization('code'); // only works if the ROTATED refresh token was kept
    assert.notEqual(third, second);
    assert.deepEqual(stub.grants, ['authorization_code', 'refresh_token', 'refresh_token']);
    const refresh = new URLSearchParams(stub.requests.filter((r) => r.url === '/oauth/token').at(-1)?.body);
    assert.equal(refresh.get('redirect_uri'), null, 'refresh needs no redirect_uri');
  });

  it('form-post consent sends the password from its env var', async () => {
    const auth = createAuthClient(target, inner, new Redactor());
    assert.match((await auth.authorization('form')) ?? '', /^Bearer at-/);
    const post = stub.requests.filter((r) => r.url === '/consent').at(-1);
    assert.equal(new URLSearchParams(post?.body).get('password'), SECRETS.STUB_ALICE_PASSWORD);
  });

  it('a pre-obtained refresh token from the environment works without consent', async () => {
    stub.addRefreshToken(SECRETS.STUB_PREOBTAINED_RT, 'code-app');
    const auth = createAuthClient(target, inner, new Redactor());
    assert.match((await auth.authorization('manual')) ?? '', /^Bearer at-/);
    assert.deepEqual(stub.grants, ['refresh_token']);
  });

  it('falls back to consent when the refresh token is refused', async () => {
    let now = 0;
    const auth = createAuthClient(target, inner, new Redactor(), { now: () => now });
    await auth.authorization('code');
    stub.revokeRefreshTokens();
    now += 3600 * 1000;
    stub.grants.length = 0;
    assert.match((await auth.authorization('code')) ?? '', /^Bearer at-/);
    assert.deepEqual(stub.grants, ['refresh_token', 'authorization_code']);
  });

  it('without consent, a refused refresh token is FTF_E_AUTH_TOKEN', async () => {
    stub.revokeRefreshTokens();
    const auth = createAuthClient(target, inner, new Redactor());
    await assert.rejects(auth.authorization('manual'), (e: unknown) => e instanceof FtfError && e.code === 'FTF_E_AUTH_TOKEN' && /refresh_token/.test(e.message) && /HTTP 400/.test(e.message));
  });

  it('a state that does not round-trip is FTF_E_AUTH_CONSENT', async () => {
    stub.tamperState = 'forged-state';
    const auth = createAuthClient(target, inner, new Redactor());
    await assert.rejects(auth.authorization('code'), (e: unknown) => e instanceof FtfError && e.code === 'FTF_E_AUTH_CONSENT' && /state/.test(e.message));
  });

  it('authorizeCode gives the scenario a code + verifier to exchange itself', async () => {
    const auth = createAuthClient(target, inner, new Redactor());
    const grant = await auth.authorizeCode('code');
    assert.equal(grant.redirectUri, 'https://app.test/callback');
    assert.match(grant.code, /^code-/);
    assert.equal(grant.codeVerifier.length, 43);
    assert.match(auth.clientAuthorization('code'), /^Basic /);
  });
});

describe('api keys and special modes', () => {
  it('api_key: Bearer <key> without a token exchange; refused for production targets', async () => {
    const before = tokenCalls();
    const auth = createAuthClient(target, inner, new Redactor());
    assert.equal(await auth.authorization('api_key'), `Bearer ${SECRETS.STUB_API_KEY}`);
    assert.equal(tokenCalls(), before);
    const prod = createAuthClient({ ...target, environment: 'production' }, inner, new Redactor());
    await assert.rejects(prod.authorization('api_key'), (e: unknown) => e instanceof FtfError && e.code === 'FTF_E_PROFILE_API_KEY_IN_PRODUCTION');
  });

  it('none, invalid, basic-only', async () => {
    const auth = createAuthClient(target, inner, new Redactor());
    assert.equal(await auth.authorization('none'), undefined);
    const a = await auth.authorization('invalid');
    const b = await auth.authorization('invalid');
    assert.match(a ?? '', /^Bearer [A-Za-z0-9_-]{43}$/);
    assert.notEqual(a, b);
    assert.equal(await auth.authorization('basic-only'), `Basic ${Buffer.from(`cc-alice:${SECRETS.STUB_PRIMARY_SECRET}`).toString('base64')}`);
  });

  it('expired: a fresh uncached token, then the clock advanced past its expiry', async () => {
    stub.expiresIn = 1800;
    const auth = createAuthClient(target, inner, new Redactor());
    const cached = await auth.authorization('primary');
    const expired = await auth.authorization('expired');
    assert.match(expired ?? '', /^Bearer at-/);
    assert.notEqual(expired, cached);
    assert.equal(stub.advanced.at(-1), 1801);
    assert.equal(auth.tokenInfo('primary'), undefined, 'cached tokens are dropped after the clock moved');
  });

  it('expired without the clock capability is FTF_E_CAPABILITY_MISSING', async () => {
    const capabilities = new Set(target.capabilities);
    capabilities.delete('clock');
    const auth = createAuthClient({ ...target, capabilities }, inner, new Redactor());
    const before = stub.advanced.length;
    await assert.rejects(auth.authorization('expired'), (e: unknown) => e instanceof FtfError && e.code === 'FTF_E_CAPABILITY_MISSING');
    assert.equal(stub.advanced.length, before);
  });
});

describe('redaction of everything the auth client touches', () => {
  it('no secret, token, code or verifier appears in any recorded exchange', async () => {
    const redactor = new Redactor();
    const mem = memorySink();
    const recorder = new RecordingTransport(inner, redactor, [mem]);
    const auth = createAuthClient(target, recorder, redactor);
    const tokens = [await auth.authorization('primary'), await auth.authorization('code'), await auth.authorization('form'), await auth.authorization('api_key')];
    await auth.authorization('expired');
    const recorded = JSON.stringify(mem.exchanges);
    const consentCodes = stub.requests.length; // sanity: traffic happened
    assert.ok(consentCodes > 0 && mem.exchanges.length >= 6);
    const raw = [...Object.values(SECRETS), ...tokens.map((t) => (t ?? '').replace(/^Bearer /, '')), ...stub.issued.slice(-6)];
    for (const value of raw) assert.ok(!recorded.includes(value), `leaked ${value.slice(0, 8)}…`);
    assert.ok(!/code=code-/.test(recorded), 'authorization codes in Location headers and forms are redacted');
    assert.ok(!/code_verifier=[A-Za-z0-9_-]{43}/.test(recorded), 'verifiers are redacted');
    assert.ok(mem.exchanges.some((x) => x.curl.includes('${FTF_CODE_ACCESS_TOKEN}') || x.curl.includes('${STUB_CODE_SECRET}')));
  });
});

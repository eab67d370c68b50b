/**
 * Engine hooks of the token family: the `authorize` step (consent only, PKCE code + verifier for a
 * scenario's own code exchange), `auth: {form: …}` (client credentials as form fields, no header, or
 * together with {basic: …}) and the base64() expression function.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CodeGrant } from '../../src/harness/auth/types.js';
import type { ResolvedTarget } from '../../src/harness/target/types.js';
import { fakeAuth, json, makeTarget, run, scenarioFromYaml, startStub, type Stub } from './engine-helpers.js';

let stub: Stub;

before(async () => {
  stub = await startStub((req, res) => {
    if (req.method === 'POST' && req.url === '/oauth/token') {
      return json(res, 200, { form: Object.fromEntries(new URLSearchParams(req.body)), auth: req.headers.authorization ?? null });
    }
    return json(res, 404, { detail: 'Not Found' });
  });
});
after(() => stub.close());

function targetWithCode(capabilities: string[] = ['mutation', 'consent', 'sandbox']): ResolvedTarget {
  const t = makeTarget(stub.url);
  return {
    ...t,
    credentials: {
      ...t.credentials,
      code: { name: 'code', kind: 'authorization_code', clientId: 'code-app', secret: 'code-app-secret-value', redirectUri: 'https://app.test/cb' },
    },
    capabilities: new Set(capabilities),
  } as ResolvedTarget;
}

const AUTHORIZE = `
id: t.authorize
title: authorize
covers: [T-ONE]
steps:
  - authorize: { as: grant, redirect_uri: 'https://app.test/\${run_id}' }
  - fail_if: grant.code != 'the-code' || grant.code_verifier != 'the-verifier' || grant.client_id != 'code-app'
    message: wrong grant
  - fail_if: grant.redirect_uri != 'https://app.test/run-1' || grant.state != 's1'
    message: wrong redirect
`;

describe('authorize step', () => {
  it('runs consent for the credential (default code) with the interpolated redirect_uri and keeps the grant', async () => {
    const calls: Array<{ name: string; redirectUri: string | undefined }> = [];
    const auth = {
      ...fakeAuth(),
      authorizeCode: async (name: string, o: { redirectUri?: string } = {}): Promise<CodeGrant> => {
        calls.push({ name, redirectUri: o.redirectUri });
        return { code: 'the-code', codeVerifier: 'the-verifier', redirectUri: o.redirectUri ?? 'https://app.test/cb', state: 's1' };
      },
    };
    const r = await run(scenarioFromYaml(AUTHORIZE), targetWithCode(), { auth });
    assert.equal(r.error, undefined, r.error?.message);
    assert.deepEqual(calls, [{ name: 'code', redirectUri: 'https://app.test/run-1' }]);
    assert.equal(r.titles[0], 'authorize code (consent, PKCE) → grant');
  });

  it('fails with FTF_E_CAPABILITY_MISSING on a target without consent, before any consent request', async () => {
    let called = false;
    const auth = { ...fakeAuth(), authorizeCode: async (): Promise<CodeGrant> => ((called = true), { code: 'c', codeVerifier: 'v', redirectUri: 'r', state: 's' }) };
    const r = await run(scenarioFromYaml(AUTHORIZE), targetWithCode(['mutation', 'sandbox']), { auth });
    assert.equal((r.error as { code?: string } | undefined)?.code, 'FTF_E_CAPABILITY_MISSING');
    assert.equal(called, false);
  });

  it('a failed consent is a readable step error', async () => {
    const auth = { ...fakeAuth(), authorizeCode: async (): Promise<CodeGrant> => Promise.reject(new Error('consent refused')) };
    const r = await run(scenarioFromYaml(AUTHORIZE), targetWithCode(), { auth });
    assert.equal((r.error as { code?: string } | undefined)?.code, 'FTF_E_REQUEST_FAILED');
    assert.match(r.error?.message ?? '', /consent for credential "code" failed: consent refused/);
  });

  it('the loader knows the variable it defines and refuses unknown fields', () => {
    assert.throws(() => scenarioFromYaml(AUTHORIZE.replace('as: grant,', 'as: grant, scope: x,')), /unknown field 'scope'/);
    assert.throws(() => scenarioFromYaml(AUTHORIZE.replace('as: grant,', '')), /as/);
  });
});

describe('auth {form: credential} and base64()', () => {
  it('form only: client_id and client_secret go into the form, no Authorization header', async () => {
    const r = await run(scenarioFromYaml(`
id: t.form
title: form credentials
covers: [T-ONE]
steps:
  - request: { method: POST, base: auth, path: /oauth/token, auth: { form: code }, form: { grant_type: client_credentials, client_id: overridden } }
  - expect:
      json: { auth: null, form: { grant_type: client_credentials, client_id: code-app, client_secret: code-app-secret-value } }
`), targetWithCode());
    assert.equal(r.error, undefined, r.error?.message);
  });

  it('basic + form: both the Basic header and the form fields', async () => {
    const r = await run(scenarioFromYaml(`
id: t.both
title: both
covers: [T-ONE]
steps:
  - request: { method: POST, base: auth, path: /oauth/token, auth: { basic: primary, form: primary }, form: { grant_type: client_credentials } }
  - expect:
      json: { form: { grant_type: client_credentials, client_id: cid, client_secret: very-secret-value } }
      where: last.body.auth == 'Basic ' + base64('primary:secret')
`), targetWithCode());
    assert.equal(r.error, undefined, r.error?.message);
  });

  it('form credentials without a form body, or of an unknown credential, are step errors', async () => {
    const noForm = await run(scenarioFromYaml(`
id: t.noform
title: no form
covers: [T-ONE]
steps:
  - request: { method: POST, base: auth, path: /oauth/token, auth: { form: code }, json: { a: 1 } }
`), targetWithCode());
    assert.match(noForm.error?.message ?? '', /give the request a form/);
    const unknown = await run(scenarioFromYaml(`
id: t.unknown
title: unknown
covers: [T-ONE]
steps:
  - request: { method: POST, base: auth, path: /oauth/token, auth: { form: nobody }, form: { grant_type: x } }
`), targetWithCode());
    assert.match(unknown.error?.message ?? '', /needs an OAuth credential 'nobody'/);
    assert.equal(stub.requests.filter((q) => q.body.includes('grant_type=x') || q.body.includes('"a":1')).length, 0);
  });

  it('base64() encodes UTF-8 text (a hand-made Basic header)', async () => {
    const r = await run(scenarioFromYaml(`
id: t.b64
title: base64
covers: [T-ONE]
steps:
  - request: { method: POST, base: auth, path: /oauth/token, headers: { authorization: "Basic \${base64('cid:wrong-é')}" }, form: { grant_type: client_credentials } }
  - expect:
      where: last.body.auth == 'Basic Y2lkOndyb25nLcOp'
`), targetWithCode());
    assert.equal(r.error, undefined, r.error?.message);
  });
});

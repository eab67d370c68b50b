/**
 * Production refusal probe (AUTH-API-KEY, production half) and the callback capability (listen step):
 * profile fields refusal_probe / callback_host, the derived capabilities api-key-probe / callback, the auth
 * client's api-key-probe mode, and where the listen step binds.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createAuthClient } from '../../src/harness/auth/client.js';
import { callbackAddress } from '../../src/harness/engine/steps/listen.js';
import { Redactor } from '../../src/harness/http/redactor.js';
import type { Transport } from '../../src/harness/http/types.js';
import { isLoopbackUrl } from '../../src/harness/target/capabilities.js';
import { loadTargetProfile } from '../../src/harness/target/load.js';
import { FtfError } from '../../src/shared/errors.js';
import { makeTarget, run, scenarioFromYaml } from './engine-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'ftf-probe-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const ENV = { P_SECRET: 'p-secret-1', PROBE_KEY: 'probe-api-key-1' };
function load(text: string) {
  const file = join(dir, `p${++n}.yaml`);
  writeFileSync(file, text);
  return loadTargetProfile(file, { env: ENV });
}
const profile = (environment: string, credExtra = '', top = '', baseUrl = 'https://x.test/api/v1') => `name: t
base_url: ${baseUrl}
auth_url: https://x.test
environment: ${environment}
${top}credentials:
  primary: { kind: client_credentials, client_id: p, client_secret_env: P_SECRET }
${credExtra}`;
const probe = '  api_key_probe: { kind: api_key, api_key_env: PROBE_KEY, refusal_probe: true }\n';
const isCode = (code: string) => (e: unknown) => e instanceof FtfError && e.code === code;

/** A transport that must never be used (the probe and refusals need no HTTP). */
const noWire: Transport = { send: () => Promise.reject(new Error('no request expected')) };

describe('refusal probe in production profiles', () => {
  it('an ordinary api_key credential in production is still refused at load time', () => {
    assert.throws(() => load(profile('production', '  api_key: { kind: api_key, api_key_env: PROBE_KEY }\n')), isCode('FTF_E_PROFILE_API_KEY_IN_PRODUCTION'));
    assert.throws(() => load(profile('production', '  api_key: { kind: api_key, api_key_env: PROBE_KEY, refusal_probe: false }\n')), isCode('FTF_E_PROFILE_API_KEY_IN_PRODUCTION'));
  });

  it('an api_key marked refusal_probe loads in production and gives api-key-probe', () => {
    const t = load(profile('production', probe));
    assert.equal(t.credentials.api_key_probe?.refusalProbe, true);
    assert.ok(t.capabilities.has('api-key-probe'));
    assert.ok(!load(profile('production')).capabilities.has('api-key-probe'));
  });

  it('refusal_probe outside production or on another kind is a profile error naming the field', () => {
    assert.throws(() => load(profile('sandbox', probe)), (e: unknown) => isCode('FTF_E_PROFILE_INVALID')(e) && /credentials\.api_key_probe\.refusal_probe/.test((e as Error).message));
    assert.throws(() => load(profile('production', '  other: { kind: client_credentials, client_id: o, client_secret_env: P_SECRET, refusal_probe: true }\n')), isCode('FTF_E_PROFILE_INVALID'));
  });

  it('api-key is derived from a sandbox api_key credential, never from a probe or its absence', () => {
    assert.ok(load(profile('sandbox', '  api_key: { kind: api_key, api_key_env: PROBE_KEY }\n')).capabilities.has('api-key'));
    assert.ok(!load(profile('sandbox')).capabilities.has('api-key'));
    assert.ok(!load(profile('production', probe)).capabilities.has('api-key'));
  });

  it('the auth client sends the probe key only in the api-key-probe mode', async () => {
    const t = load(profile('production', probe));
    const auth = createAuthClient(t, noWire, new Redactor());
    assert.equal(await auth.authorization('api-key-probe'), 'Bearer probe-api-key-1');
    await assert.rejects(auth.authorization('api_key_probe'), (e: unknown) => isCode('FTF_E_PROFILE_API_KEY_IN_PRODUCTION')(e) && !(e as Error).message.includes('probe-api-key-1'));
    assert.throws(() => auth.clientAuthorization('api_key_probe'), isCode('FTF_E_AUTH_CREDENTIAL_UNKNOWN'));
  });

  it('the api-key-probe mode needs a production profile with a probe', async () => {
    const sandbox = load(profile('sandbox', '  api_key: { kind: api_key, api_key_env: PROBE_KEY }\n'));
    await assert.rejects(createAuthClient(sandbox, noWire, new Redactor()).authorization('api-key-probe'), isCode('FTF_E_CAPABILITY_MISSING'));
    const production = load(profile('production'));
    await assert.rejects(createAuthClient(production, noWire, new Redactor()).authorization('api-key-probe'), isCode('FTF_E_CAPABILITY_MISSING'));
  });
});

describe('callback capability', () => {
  it('is derived from callback_host or a loopback base_url', () => {
    assert.ok(!load(profile('sandbox')).capabilities.has('callback'));
    const withHost = load(profile('sandbox', '', 'callback_host: harness.internal.example\n'));
    assert.equal(withHost.callbackHost, 'harness.internal.example');
    assert.ok(withHost.capabilities.has('callback'));
    assert.ok(load(profile('sandbox', '', '', 'http://127.0.0.1:8080/api/v1')).capabilities.has('callback'));
  });

  it('callback_host must be a bare host', () => {
    assert.throws(() => load(profile('sandbox', '', 'callback_host: http://h.example:8080/\n')), (e: unknown) => isCode('FTF_E_PROFILE_INVALID')(e) && /callback_host/.test((e as Error).message));
  });

  it('loopback detection and the listener address', () => {
    assert.equal(isLoopbackUrl('http://localhost:1/api/v1'), true);
    assert.equal(isLoopbackUrl('http://[::1]:1/api/v1'), true);
    assert.equal(isLoopbackUrl('https://sandbox.example.com/api/v1'), false);
    assert.equal(isLoopbackUrl('not a url'), false);
    assert.deepEqual(callbackAddress({}), { bind: '127.0.0.1', urlHost: '127.0.0.1' });
    assert.deepEqual(callbackAddress({ callbackHost: '10.1.2.3' }), { bind: '10.1.2.3', urlHost: '10.1.2.3' });
    assert.deepEqual(callbackAddress({ callbackHost: '[fd00::1]' }), { bind: 'fd00::1', urlHost: '[fd00::1]' });
  });

  it('the listen step on a remote target binds and advertises callback_host instead of refusing', async () => {
    const scenario = scenarioFromYaml(`
id: t.listen-callback-host
title: callback host
covers: [T-ONE]
steps:
  - listen: { as: hook }
  - fail_if: "!starts_with(hook.url, 'http://127.0.0.1:')"
    message: 'unexpected callback url \${hook.url}'
`);
    const remote = { ...makeTarget('http://127.0.0.1:9'), baseUrl: 'https://sandbox.example.com/api/v1' };
    const refused = await run(scenario, remote);
    assert.equal((refused.error as { code?: string } | undefined)?.code, 'FTF_E_CAPABILITY_MISSING');
    const r = await run(scenario, { ...remote, callbackHost: '127.0.0.1' });
    assert.equal(r.error, undefined, r.error?.message);
    assert.match(String((r.outcome?.vars.hook as { url: string }).url), /^http:\/\/127\.0\.0\.1:\d+\/ftf-callback\//);
  });
});

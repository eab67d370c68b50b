import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { FtfError } from '../../src/shared/errors.js';
import { ProfileError } from '../../src/harness/target/errors.js';
import { loadTargetProfile, REFERENCE_PROFILE, resolveTargetFile } from '../../src/harness/target/load.js';
import { isEmbedded, readProfile } from '../../src/harness/target/profile.js';
import { checkedDigest, keptKeyOf, validateProfile } from '../../src/harness/target/validate.js';
import { readRunSettings, runSettingsEnv } from '../../src/shared/run-settings.js';
import { CACHE_DIR_ENV } from '../../src/harness/user-cache.js';
import { parseYaml } from '../../src/harness/yaml/source.js';

const dir = mkdtempSync(join(tmpdir(), 'ftf-target-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
function profile(text: string): string {
  const file = join(dir, `p${++n}.yaml`);
  writeFileSync(file, text);
  return file;
}

const MINIMAL = `name: vendor sandbox
base_url: https://sandbox.vendor.test/api/v1
auth_url: https://sandbox.vendor.test
environment: sandbox
credentials:
  primary:
    kind: client_credentials
    client_id: cid-1
    client_secret_env: VENDOR_SECRET
`;
const ENV = { VENDOR_SECRET: 'vendor-secret-value-1' };

const REF_ENV = {
  FTF_PRIMARY_CLIENT_SECRET: 'ref-primary-secret',
  FTF_SECOND_CLIENT_SECRET: 'ref-second-secret',
  FTF_READONLY_CLIENT_SECRET: 'ref-readonly-secret',
  FTF_CODE_CLIENT_SECRET: 'ref-code-secret',
  FTF_API_KEY: 'ref-api-key-value',
};
const REF_URLS = { baseUrl: 'http://127.0.0.1:9/api/v1', authUrl: 'http://127.0.0.1:9', controlUrl: 'http://127.0.0.1:9/_sandbox' };

function profileError(fn: () => unknown): ProfileError {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof ProfileError, `expected a ProfileError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected the profile to be refused');
}

describe('loadTargetProfile: good profiles', () => {
  it('loads the embedded reference profile with overrides, defaults and derived capabilities', () => {
    const t = loadTargetProfile(REFERENCE_PROFILE, { env: REF_ENV, overrides: REF_URLS });
    assert.equal(t.source, 'embedded');
    assert.equal(t.baseUrl, 'http://127.0.0.1:9/api/v1');
    assert.equal(t.controlUrl, 'http://127.0.0.1:9/_sandbox');
    assert.equal(t.credentials.primary?.clientId, 'cc-alice');
    assert.equal(t.credentials.primary?.secret, 'ref-primary-secret');
    assert.equal(t.credentials.primary?.secretEnv, 'FTF_PRIMARY_CLIENT_SECRET');
    assert.equal(t.credentials.api_key?.secret, 'ref-api-key-value');
    assert.deepEqual(t.credentials.code?.consent, {
      strategy: 'auto-approve-url', authorizePath: '/oauth/authorize', params: { prompt: 'none', login_hint: 'alice@ftf.test' }, paramEnv: {},
    });
    assert.deepEqual(t.entities, { allowed: ['ENT-ALPHA', 'ENT-BETA'], forbidden: 'ENT-GAMMA' });
    assert.equal(t.indications.extendable, 'FTF-EXT-6M');
    assert.equal(t.paths.entity_users, '/entity/{code}/user');
    assert.equal(t.fields.subscribe_indication_uid, 'indicationUid');
    // callback: the embedded server's base_url is on loopback, so it can reach the harness's listener.
    assert.deepEqual([...t.capabilities].sort(), ['api-key', 'callback', 'clock', 'consent', 'forbidden-entity', 'funding', 'mutation', 'readonly-user', 'sandbox', 'second-user']);
    assert.equal(t.timeouts.requestMs, 10000);
    assert.equal(isEmbedded(readProfile(REFERENCE_PROFILE)), true);
  });

  it('applies defaults and derives only what a minimal profile offers', () => {
    const t = loadTargetProfile(profile(MINIMAL), { env: ENV });
    assert.equal(t.baseUrl, 'https://sandbox.vendor.test/api/v1');
    assert.equal(t.allowMutations, false);
    assert.deepEqual([...t.capabilities], ['sandbox']);
    assert.deepEqual(t.timeouts, { requestMs: 10000, pollIntervalMs: 200, pollDeadlineMs: 30000, scenarioMs: 60000, maxPages: 10000, maxListPages: 1000 });
    assert.equal(t.paths.health, '/health');
    assert.equal(t.fields.checkpoints_list, '/checkpoints');
  });

  it('lets a profile override paths, fields and timeouts', () => {
    const t = loadTargetProfile(profile(`${MINIMAL}paths:\n  health: /status\nfields:\n  subscribe_indication_uid: indication_uid\ntimeouts:\n  request_ms: 2500\n`), { env: ENV });
    assert.equal(t.paths.health, '/status');
    assert.equal(t.paths.cells, '/cell');
    assert.equal(t.fields.subscribe_indication_uid, 'indication_uid');
    assert.equal(t.timeouts.requestMs, 2500);
  });

  it('the commented sandbox example is a valid profile', () => {
    const example = new URL('../../fixtures/targets/sandbox.example.yaml', import.meta.url).pathname;
    const t = loadTargetProfile(example, {
      env: { VENDOR_PRIMARY_CLIENT_SECRET: 'x-secret-1', VENDOR_SECOND_CLIENT_SECRET: 'x-secret-2', VENDOR_READONLY_CLIENT_SECRET: 'x-secret-3', VENDOR_CODE_CLIENT_SECRET: 'x-secret-4', VENDOR_SANDBOX_USER_PASSWORD: 'x-password-7', VENDOR_API_KEY: 'x-api-key-6' },
    });
    assert.equal(t.environment, 'sandbox');
    assert.ok(t.baseUrl.endsWith('/api/v1'));
    assert.ok(t.capabilities.has('consent'));
  });
});

describe('loadTargetProfile: errors name the field and file:line:col', () => {
  it('base_url not ending in /api/v1', () => {
    const file = profile(MINIMAL.replace('https://sandbox.vendor.test/api/v1', 'https://sandbox.vendor.test/api'));
    const err = profileError(() => loadTargetProfile(file, { env: ENV }));
    assert.equal(err.code, 'FTF_E_PROFILE_INVALID');
    assert.deepEqual(err.location, { file, line: 2, column: 11, field: 'base_url' });
    assert.match(err.message, /p\d+\.yaml:2:11 invalid value "https:\/\/sandbox.vendor.test\/api" for base_url: must be .*\/api\/v1/);
  });

  it('a literal client_secret is refused with a hint to use client_secret_env, and the value is not echoed', () => {
    const file = profile(MINIMAL.replace('    client_secret_env: VENDOR_SECRET\n', '    client_secret: hunter2-literal\n'));
    const err = profileError(() => loadTargetProfile(file, { env: ENV }));
    const issue = err.issues.find((i) => i.field === 'credentials.primary.client_secret');
    assert.ok(issue, JSON.stringify(err.issues));
    assert.equal(issue.line, 9);
    assert.equal(issue.column, 5);
    assert.match(issue.hint ?? '', /client_secret_env/);
    assert.ok(!err.message.includes('hunter2-literal'));
    // the kind-specific requirement is reported too
    assert.ok(err.issues.some((i) => /missing required field credentials\.primary\.client_secret_env \(required for kind client_credentials\)/.test(i.message)));
  });

  it('missing client_id for a client_credentials credential', () => {
    const err = profileError(() => loadTargetProfile(profile(MINIMAL.replace('    client_id: cid-1\n', '')), { env: ENV }));
    assert.equal(err.issues.length, 1);
    assert.match(err.issues[0]?.message ?? '', /missing required field credentials\.primary\.client_id/);
    assert.equal(err.issues[0]?.line, 6);
  });

  it('missing primary credential', () => {
    const err = profileError(() => loadTargetProfile(profile(MINIMAL.replace('  primary:', '  second:')), { env: ENV }));
    assert.match(err.message, /missing required field credentials\.primary/);
  });

  it('a derived capability cannot be declared', () => {
    const err = profileError(() => loadTargetProfile(profile(`${MINIMAL}capabilities: [mutation, second-user]\n`), { env: ENV }));
    const issue = err.issues[0];
    assert.equal(issue?.field, 'capabilities[1]');
    assert.equal(issue?.line, 10);
    assert.equal(issue?.column, 26);
    assert.match(issue?.hint ?? '', /derived/);
  });

  it('bad enum, bad type, bad path, unknown field — all reported at once, in file order', () => {
    const text = MINIMAL.replace('environment: sandbox', 'environment: staging') + 'timeouts:\n  request_ms: fast\npaths:\n  health: health\nflavour: x\n';
    const err = profileError(() => loadTargetProfile(profile(text), { env: ENV }));
    assert.deepEqual(err.issues.map((i) => [i.field, i.line]), [
      ['environment', 4], ['timeouts.request_ms', 11], ['paths.health', 13], ['flavour', 14],
    ]);
    assert.match(err.issues[0]?.message ?? '', /must be one of sandbox, production/);
    assert.match(err.issues[3]?.message ?? '', /unknown field flavour/);
  });

  it('a literal password in consent params is refused', () => {
    const text = `${MINIMAL}  code:\n    kind: authorization_code\n    client_id: app\n    client_secret_env: VENDOR_SECRET\n    redirect_uri: https://app.test/cb\n    consent:\n      strategy: form-post\n      params:\n        password: pw-literal-1\n`;
    const err = profileError(() => loadTargetProfile(profile(text), { env: ENV }));
    const issue = err.issues.find((i) => i.field === 'credentials.code.consent.params.password');
    assert.ok(issue, JSON.stringify(err.issues));
    assert.equal(issue.line, 18);
    assert.match(issue.hint ?? '', /password_env/);
  });

  it('YAML syntax errors carry the line', () => {
    const err = profileError(() => loadTargetProfile(profile('name: x\nbase_url: [unclosed\n'), { env: ENV }));
    assert.equal(err.code, 'FTF_E_PROFILE_INVALID');
    assert.match(err.issues[0]?.message ?? '', /YAML syntax/);
    assert.ok((err.issues[0]?.line ?? 0) >= 2);
  });

  it('a missing file is FTF_E_PROFILE_NOT_FOUND', () => {
    assert.throws(() => loadTargetProfile(join(dir, 'nope.yaml')), (e: unknown) => e instanceof FtfError && e.code === 'FTF_E_PROFILE_NOT_FOUND' && /nope\.yaml/.test(e.message));
  });
});

describe('loadTargetProfile: secrets from the environment', () => {
  it('names the missing variable and its field, never a value', () => {
    const file = profile(`${MINIMAL}  second:\n    kind: client_credentials\n    client_id: cid-2\n    client_secret_env: VENDOR_SECOND\n`);
    const err = profileError(() => loadTargetProfile(file, { env: ENV }));
    assert.equal(err.code, 'FTF_E_PROFILE_SECRET_MISSING');
    assert.equal(err.issues.length, 1);
    assert.match(err.message, /VENDOR_SECOND \(named by credentials\.second\.client_secret_env\) is not set/);
    assert.equal(err.location?.line, 13);
    assert.match(err.hint ?? '', /export VENDOR_SECOND/);
    assert.ok(!err.describe().includes(ENV.VENDOR_SECRET));
  });

  it('an empty variable counts as missing', () => {
    const err = profileError(() => loadTargetProfile(profile(MINIMAL), { env: { VENDOR_SECRET: '' } }));
    assert.equal(err.code, 'FTF_E_PROFILE_SECRET_MISSING');
  });

  it('resolves *_env consent parameters into params and remembers their variable names', () => {
    const text = `${MINIMAL}  code:\n    kind: authorization_code\n    client_id: app\n    client_secret_env: VENDOR_SECRET\n    redirect_uri: https://app.test/cb\n    consent:\n      strategy: form-post\n      authorize_path: /consent\n      params:\n        username: alice\n        password_env: VENDOR_PASSWORD\ncapabilities: [consent]\n`;
    const t = loadTargetProfile(profile(text), { env: { ...ENV, VENDOR_PASSWORD: 'alice-password-1' } });
    assert.deepEqual(t.credentials.code?.consent, { strategy: 'form-post', authorizePath: '/consent', params: { username: 'alice', password: 'alice-password-1' }, paramEnv: { password: 'VENDOR_PASSWORD' } });
    assert.ok(t.capabilities.has('consent'));
  });
});

describe('loadTargetProfile: URL overrides', () => {
  it('FTF_BASE_URL / FTF_AUTH_URL override the profile; explicit overrides beat the environment', () => {
    const file = profile(MINIMAL);
    const fromEnv = loadTargetProfile(file, { env: { ...ENV, FTF_BASE_URL: 'http://127.0.0.1:7/api/v1/', FTF_AUTH_URL: 'http://127.0.0.1:7' } });
    assert.equal(fromEnv.baseUrl, 'http://127.0.0.1:7/api/v1');
    assert.equal(fromEnv.authUrl, 'http://127.0.0.1:7');
    const explicit = loadTargetProfile(file, { env: { ...ENV, FTF_BASE_URL: 'http://127.0.0.1:7/api/v1' }, overrides: { baseUrl: 'http://127.0.0.1:8/api/v1' } });
    assert.equal(explicit.baseUrl, 'http://127.0.0.1:8/api/v1');
  });

  it('an override must still end in /api/v1, and an auth_url must not', () => {
    const err = profileError(() => loadTargetProfile(profile(MINIMAL), { env: { ...ENV, FTF_BASE_URL: 'http://127.0.0.1:7/api/v2', FTF_AUTH_URL: 'http://127.0.0.1:7/api/v1' } }));
    assert.deepEqual(err.issues.map((i) => i.field), ['base_url', 'auth_url']);
    assert.match(err.issues[0]?.message ?? '', /base_url from FTF_BASE_URL must end in \/api\/v1/);
    assert.match(err.issues[1]?.message ?? '', /environment root/);
  });

  it('an `embedded` URL without an override is FTF_E_PROFILE_EMBEDDED_UNRESOLVED', () => {
    assert.throws(() => loadTargetProfile(REFERENCE_PROFILE, { env: REF_ENV }), (e: unknown) => e instanceof FtfError && e.code === 'FTF_E_PROFILE_EMBEDDED_UNRESOLVED' && e.location?.field === 'base_url');
  });

  it('resolveTargetFile: FTF_TARGET else the embedded reference', () => {
    assert.equal(resolveTargetFile({}), REFERENCE_PROFILE);
    assert.equal(resolveTargetFile({ FTF_TARGET: '/x/y.yaml' }), '/x/y.yaml');
  });
});

describe('loadTargetProfile: capability rules', () => {
  it('consent needs a code credential with consent or a refresh token', () => {
    const err = profileError(() => loadTargetProfile(profile(`${MINIMAL}capabilities: [consent]\n`), { env: ENV }));
    assert.match(err.message, /capability consent needs credentials\.code/);
    assert.equal(err.issues[0]?.line, 10);
  });

  it('clock and funding need a control_url (FTF_CONTROL_URL counts)', () => {
    const file = profile(`${MINIMAL}capabilities: [clock, funding]\n`);
    const err = profileError(() => loadTargetProfile(file, { env: ENV }));
    assert.equal(err.issues.length, 2);
    const t = loadTargetProfile(file, { env: { ...ENV, FTF_CONTROL_URL: 'http://127.0.0.1:7/_sandbox' } });
    assert.ok(t.capabilities.has('clock') && t.capabilities.has('funding'));
    assert.equal(t.controlUrl, 'http://127.0.0.1:7/_sandbox');
  });

  it('forbidden entity must not be allowed', () => {
    const err = profileError(() => loadTargetProfile(profile(`${MINIMAL}entities:\n  allowed: [A1, B2]\n  forbidden: B2\n`), { env: ENV }));
    assert.equal(err.issues[0]?.field, 'entities.forbidden');
  });
});

describe('validateProfile: checked once per run (run setting profilesChecked)', () => {
  it('a profile that passed is remembered for child processes; a failing one is checked again; the digest names the profile, not the file', () => {
    const good = parseYaml(MINIMAL, 'good.yaml');
    const bad = parseYaml(MINIMAL.replace('/api/v1', '/no-version'), 'bad.yaml');
    const env: NodeJS.ProcessEnv = { [CACHE_DIR_ENV]: 'off' };
    assert.deepEqual(validateProfile(good.value, good, env), []);
    assert.deepEqual(readRunSettings(env).profilesChecked, [checkedDigest(good.value)], 'the passing profile is remembered');
    assert.ok(validateProfile(bad.value, bad, env).length > 0, 'a failing profile is checked, and not remembered');
    assert.deepEqual(readRunSettings(env).profilesChecked, [checkedDigest(good.value)]);
    // What is remembered is trusted without ajv: shown with a digest planted for the failing profile.
    const planted: NodeJS.ProcessEnv = { [CACHE_DIR_ENV]: 'off', ...runSettingsEnv({ profilesChecked: [checkedDigest(bad.value)] }) };
    assert.deepEqual(validateProfile(bad.value, bad, planted), []);
    assert.notEqual(checkedDigest({ n: Number.NaN }), checkedDigest({ n: null }), 'numbers JSON cannot spell keep their own digest');
  });

  it('a later run finds a profile that passed in the cache folder; a failing one is never kept', () => {
    const folder = mkdtempSync(join(tmpdir(), 'ftf-profiles-kept-'));
    try {
      const good = parseYaml(MINIMAL, 'good.yaml');
      const bad = parseYaml(MINIMAL.replace('/api/v1', '/no-version'), 'bad.yaml');
      assert.deepEqual(validateProfile(good.value, good, { [CACHE_DIR_ENV]: folder }), []);
      assert.ok(validateProfile(bad.value, bad, { [CACHE_DIR_ENV]: folder }).length > 0);
      const kept = (): string[] => readFileSync(join(folder, 'profiles-checked'), 'utf8').split('\n').filter(Boolean);
      assert.deepEqual(kept(), [keptKeyOf(checkedDigest(good.value))], 'only the passing profile is kept');
      // A later run (nothing in its environment) trusts the kept line without ajv: shown with a line planted for the failing profile.
      writeFileSync(join(folder, 'profiles-checked'), `${keptKeyOf(checkedDigest(bad.value))}\n`);
      const later: NodeJS.ProcessEnv = { [CACHE_DIR_ENV]: folder };
      assert.deepEqual(validateProfile(bad.value, bad, later), []);
      assert.deepEqual(readRunSettings(later).profilesChecked, [checkedDigest(bad.value)], 'and hands it to its children');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { FtfError } from '../../src/shared/errors.js';
import { assertMutationsAllowed, missingCapabilities, requireCapabilities, withMutationGuard } from '../../src/harness/target/capabilities.js';
import { loadTargetProfile } from '../../src/harness/target/load.js';

const dir = mkdtempSync(join(tmpdir(), 'ftf-caps-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
function load(text: string, env: NodeJS.ProcessEnv = { P_SECRET: 'p-secret-1', S_SECRET: 's-secret-1', K: 'api-key-1' }) {
  const file = join(dir, `c${++n}.yaml`);
  writeFileSync(file, text);
  return loadTargetProfile(file, { env });
}

const base = (environment: string, extra = '') => `name: t
base_url: https://x.test/api/v1
auth_url: https://x.test
environment: ${environment}
credentials:
  primary: { kind: client_credentials, client_id: p, client_secret_env: P_SECRET }
${extra}`;

describe('capability derivation', () => {
  it('second/readonly credentials, forbidden entity and environment become capabilities', () => {
    const t = load(base('sandbox', `  second: { kind: client_credentials, client_id: s, client_secret_env: S_SECRET }
  readonly: { kind: client_credentials, client_id: r, client_secret_env: S_SECRET }
entities: { allowed: [A], forbidden: G }
capabilities: [mutation]
`));
    assert.deepEqual([...t.capabilities].sort(), ['forbidden-entity', 'mutation', 'readonly-user', 'sandbox', 'second-user']);
    assert.deepEqual(missingCapabilities(t, ['mutation', 'clock', 'consent']), ['clock', 'consent']);
    assert.throws(() => requireCapabilities(t, ['clock'], 'scenario X'), (e: unknown) => e instanceof FtfError && e.code === 'FTF_E_CAPABILITY_MISSING' && /scenario X needs capability clock/.test(e.message));
  });

  it('consent is kept for a code credential with only a refresh token', () => {
    const t = load(base('sandbox', `  code: { kind: authorization_code, client_id: c, client_secret_env: S_SECRET, redirect_uri: 'https://a.test/cb', refresh_token_env: RT }
capabilities: [consent]
`), { P_SECRET: 'p-secret-1', S_SECRET: 's-secret-1', RT: 'refresh-token-1' });
    assert.ok(t.capabilities.has('consent'));
    assert.equal(t.credentials.code?.refreshToken, 'refresh-token-1');
  });

  it('a code credential without consent needs its refresh token variable set', () => {
    assert.throws(
      () => load(base('sandbox', `  code: { kind: authorization_code, client_id: c, client_secret_env: S_SECRET, redirect_uri: 'https://a.test/cb', refresh_token_env: RT }\n`)),
      (e: unknown) => e instanceof FtfError && e.code === 'FTF_E_PROFILE_SECRET_MISSING' && /RT \(named by credentials\.code\.refresh_token_env\)/.test(e.message),
    );
  });
});

describe('production guard', () => {
  it('an api_key credential in a production profile is FTF_E_PROFILE_API_KEY_IN_PRODUCTION', () => {
    assert.throws(() => load(base('production', '  api_key: { kind: api_key, api_key_env: K }\n')),
      (e: unknown) => e instanceof FtfError && e.code === 'FTF_E_PROFILE_API_KEY_IN_PRODUCTION' && e.location?.field === 'credentials.api_key' && e.location.line === 7);
  });

  it('mutation in production needs allow_mutations in the profile', () => {
    assert.throws(() => load(base('production', 'capabilities: [mutation]\n')), (e: unknown) => e instanceof FtfError && e.code === 'FTF_E_PROFILE_INVALID' && /allow_mutations/.test(e.message));
  });

  it('and the CLI flag at run time', () => {
    const prod = load(base('production', 'allow_mutations: true\ncapabilities: [mutation]\n'));
    assert.ok(prod.capabilities.has('production'));
    assert.throws(() => assertMutationsAllowed(prod, false), (e: unknown) => e instanceof FtfError && e.code === 'FTF_E_PRODUCTION_MUTATIONS_REFUSED' && /CLI opt-in/.test(e.message));
    assert.doesNotThrow(() => assertMutationsAllowed(prod, true));
    assert.equal(withMutationGuard(prod, false).capabilities.has('mutation'), false);
    assert.equal(prod.capabilities.has('mutation'), true, 'the guard returns a copy');
    assert.equal(withMutationGuard(prod, true).capabilities.has('mutation'), true);
  });

  it('sandboxes need no CLI flag', () => {
    const sandbox = load(base('sandbox', 'capabilities: [mutation]\n'));
    assert.doesNotThrow(() => assertMutationsAllowed(sandbox, false));
    assert.equal(withMutationGuard(sandbox, false).capabilities.has('mutation'), true);
  });
});

describe('bindEmbedded', () => {
  it('binds the server secrets to the profile credentials from data (client_id, embedded.api_keys); fresh values win over stale env', async () => {
    const { bindEmbedded } = await import('../../src/harness/target/binding.js');
    const { readProfile } = await import('../../src/harness/target/profile.js');
    const { resolveTarget } = await import('../../src/harness/target/resolve.js');
    const { REFERENCE_PROFILE } = await import('../../src/harness/target/load.js');
    const profile = readProfile(REFERENCE_PROFILE);
    const binding = bindEmbedded(profile, {
      baseUrl: 'http://127.0.0.1:5/api/v1',
      authUrl: 'http://127.0.0.1:5',
      controlUrl: 'http://127.0.0.1:5/_sandbox',
      secrets: { clients: { 'cc-alice': 'gen-alice-1', 'cc-bob': 'gen-bob-1', 'cc-carol-readonly': 'gen-carol-1', 'code-app': 'gen-code-1' }, apiKeys: { 'alice@ftf.test': 'gen-api-key-1' } },
    });
    const t = resolveTarget(profile, { env: { FTF_PRIMARY_CLIENT_SECRET: 'stale-value-1', ...binding.env }, overrides: binding.overrides });
    assert.equal(t.credentials.primary?.secret, 'gen-alice-1');
    assert.equal(t.credentials.readonly?.secret, 'gen-carol-1');
    assert.equal(t.credentials.api_key?.secret, 'gen-api-key-1');
    assert.equal(t.baseUrl, 'http://127.0.0.1:5/api/v1');
    assert.equal(t.source, 'embedded');
    assert.deepEqual(binding.secrets.sort(), ['gen-alice-1', 'gen-api-key-1', 'gen-bob-1', 'gen-carol-1', 'gen-code-1']);
  });

  it('a client the server does not know is FTF_E_PROFILE_EMBEDDED_UNRESOLVED naming the field', async () => {
    const { bindEmbedded } = await import('../../src/harness/target/binding.js');
    const { readProfile } = await import('../../src/harness/target/profile.js');
    const { REFERENCE_PROFILE } = await import('../../src/harness/target/load.js');
    assert.throws(() => bindEmbedded(readProfile(REFERENCE_PROFILE), { baseUrl: 'http://127.0.0.1:5/api/v1', authUrl: 'http://127.0.0.1:5', secrets: { clients: {}, apiKeys: {} } }),
      (e: unknown) => e instanceof FtfError && e.code === 'FTF_E_PROFILE_EMBEDDED_UNRESOLVED' && /reference\.yaml:\d+:\d+ .*cc-alice/.test(e.message) && e.location?.field === 'credentials.primary.client_id');
  });
});

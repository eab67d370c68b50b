import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { after, test } from 'node:test';
import { REPO_ROOT } from '../../src/harness/repo-root.js';
import { loadTargetProfile } from '../../src/harness/target/load.js';
import { cli, scratch } from './helpers.js';

const dir = scratch('ftf-cli-init-');
after(() => rmSync(dir, { recursive: true, force: true }));

test('init writes a commented, loadable profile from flags and never overwrites', async () => {
  const out = join(dir, 'targets/acme.yaml');
  const args = ['init', '--base-url', 'https://sandbox.acme.test/api/v1', '--auth-url', 'https://sandbox.acme.test', '--environment', 'sandbox', '--client-id', 'acme-cc', '--secret-env', 'ACME_SECRET', '--out', out];
  const r = await cli(...args);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /export ACME_SECRET=/);
  const text = readFileSync(out, 'utf8');
  // First line: the schema modeline, relative to the file, so an editor validates the profile at once.
  const [first, second] = text.split('\n');
  assert.equal(first, `# yaml-language-server: $schema=${relative(dirname(out), join(REPO_ROOT, 'schemas/target.schema.json'))}`);
  assert.ok(existsSync(resolve(dirname(out), first!.replace(/^.*\$schema=/, ''))), 'the modeline points at the schema');
  assert.match(second ?? '', /^# ftf-conformance target profile/);
  assert.match(text, /client_secret_env: ACME_SECRET/);
  const target = loadTargetProfile(out, { env: { ACME_SECRET: 'x'.repeat(20) } });
  assert.equal(target.baseUrl, 'https://sandbox.acme.test/api/v1');
  assert.equal(target.credentials.primary?.clientId, 'acme-cc');
  assert.equal(target.name, 'sandbox.acme.test');

  const again = await cli(...args);
  assert.equal(again.code, 2);
  assert.match(again.err, /FTF_E_INIT_EXISTS: .*already exists/);
  assert.equal(readFileSync(out, 'utf8'), text, 'unchanged');
});

test('init without a terminal names the missing flag; bad values are refused', async () => {
  const r = await cli('init', '--out', join(dir, 'x.yaml'));
  assert.equal(r.code, 2);
  assert.match(r.err, /--base-url is required when stdin is not a terminal/);
  const bad = await cli('init', '--base-url', 'https://x.test/v2', '--client-id', 'c', '--out', join(dir, 'y.yaml'));
  assert.equal(bad.code, 2);
  assert.match(bad.err, /FTF_E_INIT_INVALID: .*base_url/);
});

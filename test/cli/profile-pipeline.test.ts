import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { embeddedLaunchCount } from '../../src/embedded/launch.js';
import { cli, fakePlaywright, FIXTURES, scratch, writeProfile } from './helpers.js';

const dir = scratch('ftf-cli-profile-');
after(() => rmSync(dir, { recursive: true, force: true }));

const VALID = 'name: p\nbase_url: http://127.0.0.1:1/api/v1\nauth_url: http://127.0.0.1:1\nenvironment: sandbox\ncredentials:\n  primary:\n    kind: client_credentials\n    client_id: x\n    client_secret_env: FTF_TEST_SECRET\n';

test('run: a profile with a YAML syntax error exits 2 with FTF_E_PROFILE_INVALID at file:line:col where the error starts', async () => {
  const fake = fakePlaywright(join(FIXTURES, 'playwright-results.json'));
  const profile = writeProfile(dir, 'syntax.yaml', VALID.replace('environment: sandbox', 'environment: "sandbox'));
  const r = await cli('run', '--no-report', '--target', profile);
  assert.equal(r.code, 2, r.err);
  assert.match(r.err, /FTF_E_PROFILE_INVALID/);
  assert.match(r.err, /syntax\.yaml:4:14 YAML syntax error: Missing closing "quote/);
  assert.equal(fake.calls.length, 0, 'Playwright never starts');
});

test('run: a field error names the field and its position', async () => {
  fakePlaywright(join(FIXTURES, 'playwright-results.json'));
  const profile = writeProfile(dir, 'field.yaml', VALID.replace('environment: sandbox', 'environment: staging'));
  const r = await cli('run', '--no-report', '--target', profile);
  assert.equal(r.code, 2, r.err);
  assert.match(r.err, /field\.yaml:4:14 invalid value "staging" for environment: must be one of sandbox, production/);
});

test('run on the embedded reference profile: the CLI launches no server (each worker launches its own)', async () => {
  const before = embeddedLaunchCount();
  const refused = await cli('run', '--no-report', '--fail-on', 'never');
  assert.equal(refused.code, 2, refused.err);
  assert.equal(embeddedLaunchCount(), before, 'a run refused by its checks launched nothing');

  const fake = fakePlaywright(join(FIXTURES, 'playwright-results.json'));
  const r = await cli('run', '--no-report', '--workers', '2');
  assert.ok([0, 1].includes(r.code), r.err);
  assert.equal(fake.calls.length, 1);
  assert.equal(fake.calls[0]!.env.FTF_TARGET, undefined);
  assert.equal(fake.calls[0]!.env.FTF_PRIMARY_CLIENT_SECRET, undefined, 'no secret is handed to Playwright: a worker makes its own server\'s');
  assert.equal(embeddedLaunchCount(), before, 'the servers are the workers\' own (specs/fixtures.ts)');
});

test('doctor on an embedded profile launches exactly one server, through the launcher', async () => {
  const before = embeddedLaunchCount();
  const r = await cli('doctor');
  assert.equal(r.code, 0, r.out + r.err);
  assert.equal(embeddedLaunchCount(), before + 1);
  assert.match(r.out, /embedded reference server started/);
});

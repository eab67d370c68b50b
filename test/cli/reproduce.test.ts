/**
 * Issue 30, item 5: `reproduce:` reproduces (the profile, the scenario by id, the variables the profile reads, never
 * a value), and `ftf-conformance list | head` ends quietly with the command's own exit code (EPIPE on stdout).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { reproduceCommand, secretEnvNames } from '../../src/cli/reproduce.js';
import { REPO_ROOT } from '../../src/harness/repo-root.js';
import { REFERENCE_PROFILE } from '../../src/harness/target/load.js';
import type { ResolvedTarget } from '../../src/harness/target/types.js';

const credentials = {
  primary: { name: 'primary', kind: 'client_credentials', clientId: 'c', secretEnv: 'VENDOR_PRIMARY_SECRET', secret: 'never-printed-1' },
  consent: { name: 'consent', kind: 'authorization_code', clientId: 'd', secretEnv: 'VENDOR_CODE_SECRET', secret: 'never-printed-2', refreshTokenEnv: 'VENDOR_REFRESH', consent: { strategy: 'form-post', authorizePath: '/a', params: { password: 'never-printed-3' }, paramEnv: { password: 'VENDOR_PASSWORD' } } },
} as unknown as ResolvedTarget['credentials'];

test('reproduce names the target, the scenario by id, the *_env variables and the URL overrides, never a value', () => {
  const profileFile = join(process.cwd(), 'fixtures/targets/vendor.yaml');
  const cmd = reproduceCommand({ id: 'token.expiry', title: 'token.expiry: a token works…' }, { profileFile, target: { credentials }, allowMutations: true, env: { FTF_BASE_URL: 'https://x.test/api/v1' } });
  assert.equal(cmd, "VENDOR_CODE_SECRET=… VENDOR_PASSWORD=… VENDOR_PRIMARY_SECRET=… VENDOR_REFRESH=… FTF_BASE_URL=… npx ftf-conformance run --target fixtures/targets/vendor.yaml --grep '^token\\.expiry:' --allow-mutations");
  assert.doesNotMatch(cmd, /never-printed|x\.test/);
  assert.deepEqual(secretEnvNames({ credentials }), ['VENDOR_CODE_SECRET', 'VENDOR_PASSWORD', 'VENDOR_PRIMARY_SECRET', 'VENDOR_REFRESH']);
  // The selection reproduces: the pasted --grep selects exactly that scenario (and a broken file by its path).
  assert.ok(new RegExp("^token\\.expiry:").test('token.expiry: a token works @token'));
  assert.ok(!new RegExp("^token\\.expiry:").test('token.expiry-realtime: … @token'));
  assert.equal(reproduceCommand({ id: 'fam.x', title: 'scenario file is invalid: fam/x.yaml' }, { profileFile: REFERENCE_PROFILE, target: { credentials } }), "npx ftf-conformance run --grep 'fam/x\\.yaml'");
  // The embedded reference: nothing to name.
  assert.equal(reproduceCommand({ id: 'demo.health', title: 'demo.health: …' }, { profileFile: REFERENCE_PROFILE, target: { credentials } }), "npx ftf-conformance run --grep '^demo\\.health:'");
});

/** The bin with its stdout read once, then closed (as `| head -1` does); resolves with its exit code and stderr. */
function closedEarly(...args: string[]): Promise<{ code: number | null; err: string; first: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'bin/ftf-conformance.mjs'), ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
    let err = '';
    let first = '';
    child.stderr.on('data', (d: Buffer) => void (err += d.toString()));
    child.stdout.once('data', (d: Buffer) => {
      first = d.toString().split('\n')[0] ?? '';
      child.stdout.destroy();
    });
    child.on('close', (code) => resolve({ code, err, first }));
  });
}

test('list | head: EPIPE on stdout ends quietly with the command\'s own exit code', { timeout: 120_000 }, async () => {
  const ok = await closedEarly('list');
  assert.ok(ok.first.length > 0);
  assert.equal(ok.code, 0, ok.err);
  assert.doesNotMatch(ok.err, /EPIPE|internal error/);
  const help = await closedEarly('help', 'run');
  assert.equal(help.code, 0, help.err);
  assert.doesNotMatch(help.err, /EPIPE/);
});

/**
 * The certificate's harness identity (src/harness/report/outputs/harness-identity.ts): the file list of an installed package
 * (bin/, dist/ without what a run writes there, package.json) and its digest, which must equal what the shell line of
 * docs/package.md prints (sha512sum of every file, sorted, then sha512sum of that), so a vendor can recompute it.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { harnessFileList, harnessFilesDigest, harnessIdentity } from '../../src/harness/report/outputs/harness-identity.js';

const dir = mkdtempSync(join(tmpdir(), 'ftf-identity-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function put(rel: string, body: string): void {
  mkdirSync(dirname(join(dir, rel)), { recursive: true });
  writeFileSync(join(dir, rel), body);
}

test('package scope: bin/, dist/ and package.json; what a run writes under dist/ is left out', () => {
  put('package.json', '{"name":"ftf-conformance"}');
  put('README.md', 'not a harness file');
  put('bin/ftf-conformance.mjs', 'bin');
  put('dist/src/cli/main.js', 'main');
  put('dist/specs/a b.yaml', 'id: a');
  put('dist/package.json', '{"version":"1.0.0"}');
  put('dist/test-results/x.txt', 'written by a run');
  put('dist/.ftf/keys/key.pem', 'a signing key');
  put('node_modules/yaml/index.js', 'a dependency');
  const files = harnessFileList(dir, 'package');
  assert.deepEqual(files, ['bin/ftf-conformance.mjs', 'dist/package.json', 'dist/specs/a b.yaml', 'dist/src/cli/main.js', 'package.json']);
  const digest = harnessFilesDigest(dir, files);
  assert.match(digest, /^[0-9a-f]{128}$/);
  // The shell line of docs/package.md gives the same digest.
  const shell = spawnSync('bash', ['-c', "{ find bin dist -type f ! -path 'dist/test-results/*' ! -path 'dist/.ftf/*' ! -path 'dist/reports/*'; echo package.json; } | LC_ALL=C sort | tr '\\n' '\\0' | xargs -0 sha512sum | sha512sum"], { cwd: dir, encoding: 'utf8' });
  assert.equal(shell.status, 0, shell.stderr);
  assert.equal(shell.stdout.split(' ')[0], digest);
  // Any change of a harness file changes it; a run's output does not.
  put('dist/test-results/y.txt', 'more run output');
  assert.equal(harnessFilesDigest(dir, harnessFileList(dir, 'package')), digest);
  put('dist/src/cli/main.js', 'main, patched');
  assert.notEqual(harnessFilesDigest(dir, harnessFileList(dir, 'package')), digest);
});

test('in the repository: scope repository, the sources that run, the commit of the clone', () => {
  const id = harnessIdentity();
  assert.equal(id.name, 'ftf-conformance');
  assert.match(id.version, /^\d+\.\d+\.\d+/);
  assert.equal(id.files.scope, 'repository');
  assert.equal(id.files.algorithm, 'sha512');
  assert.ok(id.files.count > 100, `${id.files.count} files`);
  assert.match(id.files.digest, /^[0-9a-f]{128}$/);
  assert.match(id.commit, /^([0-9a-f]{40}|unknown)$/);
});

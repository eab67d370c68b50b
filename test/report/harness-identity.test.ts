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
import { harnessFileList, harnessFilesDigest, harnessIdentity, headFromFiles } from '../../src/harness/report/outputs/harness-identity.js';

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
  const git = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: join(import.meta.dirname, '..', '..'), encoding: 'utf8' });
  if (git.status === 0) assert.equal(id.commit, git.stdout.trim(), 'what git says');
});

test("HEAD's commit from the .git files as git reads them: a loose ref, packed-refs, a detached HEAD; anything else is git's to answer", () => {
  const git = join(dir, 'git-files');
  const [a, b] = ['a'.repeat(40), '0123456789abcdef0123456789abcdef01234567'];
  mkdirSync(join(git, 'refs', 'heads', 'feature'), { recursive: true });
  writeFileSync(join(git, 'HEAD'), 'ref: refs/heads/feature/x\n');
  assert.equal(headFromFiles(git), undefined, 'no such ref anywhere');
  writeFileSync(join(git, 'packed-refs'), `# pack-refs with: peeled fully-peeled sorted\n${a} refs/heads/feature/xy\n${b} refs/heads/feature/x\n^${a}\n`);
  assert.equal(headFromFiles(git), b, 'packed, the exact ref (not a longer name)');
  writeFileSync(join(git, 'refs', 'heads', 'feature', 'x'), `${a}\n`);
  assert.equal(headFromFiles(git), a, 'a loose ref wins over packed-refs');
  writeFileSync(join(git, 'HEAD'), `${b}\n`);
  assert.equal(headFromFiles(git), b, 'detached');
  writeFileSync(join(git, 'HEAD'), 'garbage');
  assert.equal(headFromFiles(git), undefined);
  assert.equal(headFromFiles(join(dir, 'no-git-here')), undefined);
});

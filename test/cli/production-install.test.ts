/**
 * The CLI works after a production install (`npm ci --omit=dev`), without asking the registry: a copy of
 * the harness whose node_modules holds only the packages package-lock.json does not mark `dev` (links to
 * this clone's). The copy sits outside this clone, so an import of a devDependency by anything on the run
 * path (bin, src, specs, the Playwright config) fails here exactly as after a production install. A missing
 * runtime piece must exit 2 naming it, and the missing Allure CLI (a devDependency) must leave the verdict
 * and the exit code alone.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { REPO_ROOT } from '../../src/harness/repo-root.js';
import { specDir } from '../../src/harness/spec/clauses.js';

/** What a production install needs from the repository (package.json "files" would list the same). */
const SHIPPED = ['bin', 'src', 'specs', 'schemas', 'fixtures', 'package.json', 'playwright.config.ts', 'tsconfig.json'];

interface LockEntry {
  dev?: boolean;
}

const lock = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
const topLevel = Object.entries(lock.packages).filter(([path]) => /^node_modules\/(@[^/]+\/)?[^/]+$/.test(path));
const devOnly = topLevel.filter(([, e]) => e.dev).map(([path]) => path.slice('node_modules/'.length));

let copy = '';

before(() => {
  copy = mkdtempSync(join(tmpdir(), 'ftf-prod-install-'));
  for (const entry of SHIPPED) cpSync(join(REPO_ROOT, entry), join(copy, entry), { recursive: true });
  for (const [path, entry] of topLevel) {
    // Optional platform packages (other CPUs' esbuild) are in the lock file but not on disk.
    if (entry.dev || !existsSync(join(REPO_ROOT, path))) continue;
    mkdirSync(dirname(join(copy, path)), { recursive: true });
    symlinkSync(join(REPO_ROOT, path), join(copy, path));
  }
});
after(() => rmSync(copy, { recursive: true, force: true }));

function bin(args: string[]): { code: number | null; out: string; err: string } {
  const env: NodeJS.ProcessEnv = { ...process.env, FTF_SPEC_DIR: specDir(), FTF_REPORTS_DIR: join(copy, 'reports'), FTF_WORKERS: '1', CI: '1' };
  delete env.FTF_TARGET;
  delete env.NODE_OPTIONS;
  const r = spawnSync(process.execPath, [join(copy, 'bin/ftf-conformance.mjs'), ...args], { cwd: copy, env, encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** Hides one installed package for the duration of `fn`, as a broken or partial install would. */
function without<T>(pkg: string, fn: () => T): T {
  const path = join(copy, 'node_modules', pkg);
  renameSync(path, `${path}.hidden`);
  try {
    return fn();
  } finally {
    renameSync(`${path}.hidden`, path);
  }
}

test('production install: the lock file leaves the dev tools out (the copy really lacks them)', () => {
  for (const dev of ['typescript', 'eslint', 'allure']) {
    assert.ok(devOnly.includes(dev), `${dev} is expected to be a devDependency`);
    assert.equal(existsSync(join(copy, 'node_modules', dev)), false);
  }
  assert.equal(devOnly.includes('tsx'), false, 'the bin loads the TypeScript through tsx: it must be a runtime dependency');
});

test('production install: `run` gives a verdict and exit 0; the missing Allure CLI is only a message', () => {
  const r = bin(['run', '--grep', 'resources\\.health\\b']);
  assert.equal(r.code, 0, `${r.out}\n${r.err}`);
  assert.match(r.out, /verdict: CONFORMANT/);
  assert.match(r.out, /Allure report not built \(the verdict stands\): FTF_E_ALLURE_MISSING: the Allure CLI is not installed/);
  assert.ok(existsSync(join(copy, 'reports/verdicts.json')));
});

test('production install: `report` without the Allure CLI exits 2 and says what is missing', () => {
  const r = bin(['report']);
  assert.equal(r.code, 2, r.err);
  assert.match(r.err, /FTF_E_ALLURE_MISSING: the Allure CLI is not installed/);
});

test('a missing runtime dependency exits 2 naming it, never 1', () => {
  const noTsx = without('tsx', () => bin(['list']));
  assert.equal(noTsx.code, 2, noTsx.err);
  assert.match(noTsx.err, /cannot start: 'tsx' is not installed/);
  const noYaml = without('yaml', () => bin(['list']));
  assert.equal(noYaml.code, 2, noYaml.err);
  assert.match(noYaml.err, /cannot start: 'yaml' is not installed/);
  const noPlaywright = without('@playwright/test', () => bin(['run', '--grep', 'resources\\.health\\b']));
  assert.equal(noPlaywright.code, 2, noPlaywright.err);
  assert.match(noPlaywright.err, /@playwright\/test/);
  assert.match(noPlaywright.err, /not installed/);
});

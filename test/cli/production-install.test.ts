/**
 * The CLI works after a production install, without asking the registry, in two forms:
 *
 * 1. The repository's own (`npm ci --omit=dev` in a clone): a copy of the harness whose node_modules holds only
 *    the packages package-lock.json does not mark `dev` (links to this clone's). The copy sits outside this clone,
 *    so an import of a devDependency by anything on the run path (bin, src, specs, the Playwright config) fails
 *    here exactly as after a production install. A missing runtime piece must exit 2 naming it, and the missing
 *    Allure CLI (a devDependency) must leave the verdict and the exit code alone.
 * 2. The installable package (docs/package.md): `npm pack` (prepack builds dist/), then the tarball installed into
 *    an empty folder with `npm ci --omit=dev --offline` (a lock file written from this repository's: the tarball plus
 *    the runtime entries, so every package comes from the npm cache `npm ci` filled; the proxies point at a dead
 *    port so any request would fail loudly), then `npx ftf-conformance run` from that folder against an external
 *    reference server (the repository's `reference` command) with a profile written there.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse, stringify } from 'yaml';
import { REPO_ROOT } from '../../src/harness/repo-root.js';
import { specDir } from '../../src/harness/spec/clauses.js';

/** What a production install of the repository needs (the installable package ships dist/ instead: docs/package.md). */
const SHIPPED = ['bin', 'src', 'specs', 'schemas', 'fixtures', 'package.json', 'playwright.config.ts', 'tsconfig.json'];

interface LockEntry {
  dev?: boolean;
  devOptional?: boolean;
  optional?: boolean;
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

// ---- 2. the installable package -------------------------------------------------------------------------------

interface Pkg {
  name: string;
  version: string;
  license?: string;
  bin: Record<string, string>;
  engines?: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}

const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as Pkg;
/** Three cheap scenarios: a read, a read of reference data, a write (the profile allows mutations). */
const SELECTION = 'resources\\.health\\b|amounts\\.indication-get\\b|checkpoints\\.create\\b';
/** Any request npm (or anything else) tries to make leaves through a proxy that is not there. */
const DEAD = 'http://127.0.0.1:9';

/** The environment of every child here: no outside network, nothing of the test runner's own set-up. */
function offlineEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, http_proxy: DEAD, https_proxy: DEAD, HTTP_PROXY: DEAD, HTTPS_PROXY: DEAD, npm_config_proxy: DEAD, npm_config_https_proxy: DEAD, npm_config_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false', ...extra };
  for (const name of ['NODE_OPTIONS', 'FTF_TARGET', 'FTF_REPORTS_DIR', 'FTF_SPEC_DIR', 'FTF_SPECS_DIR', 'FTF_BASE_URL', 'FTF_AUTH_URL', 'FTF_CONTROL_URL', 'npm_config_omit', 'npm_config_include']) {
    if (!(name in extra)) delete env[name];
  }
  return env;
}

function npm(args: string[], cwd: string, env = offlineEnv()): { code: number | null; out: string; err: string; ms: number } {
  const started = performance.now();
  const r = spawnSync('npm', args, { cwd, env, encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr, ms: performance.now() - started };
}

/**
 * The install folder's lock file, from this repository's: the tarball as the one dependency, and every package
 * the repository's lock does not mark `dev`, at the same place and with the same integrity (so `npm ci --offline`
 * takes each from the npm cache and never needs the registry's metadata).
 */
function installLock(tarball: string): object {
  const integrity = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
  const spec = `file:./${tarball.split('/').pop() ?? ''}`;
  const packages: Record<string, object> = {
    '': { name: 'ftf-packed-install', dependencies: { [pkg.name]: spec } },
    [`node_modules/${pkg.name}`]: { version: pkg.version, resolved: spec, integrity, license: pkg.license, dependencies: pkg.dependencies, bin: pkg.bin, engines: pkg.engines },
  };
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path === '' || entry.dev) continue;
    const { devOptional, ...rest } = entry;
    packages[path] = devOptional ? { ...rest, optional: true } : rest;
  }
  return { name: 'ftf-packed-install', lockfileVersion: 3, requires: true, packages };
}

interface ExternalReference {
  child: ChildProcess;
  urls: { base_url: string; auth_url: string; control_url: string };
  secrets: { clients: Record<string, string>; apiKeys: Record<string, string> };
}

/** The repository's `reference` command on a free port, as an external server the packaged CLI knows only by URL. */
async function startExternalReference(): Promise<ExternalReference> {
  const child = spawn(process.execPath, [join(REPO_ROOT, 'bin/ftf-conformance.mjs'), 'reference', '--port', '0', '--print-secrets'], {
    cwd: REPO_ROOT,
    env: offlineEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err += d.toString('utf8')));
  return new Promise((resolve, reject) => {
    child.on('close', (code) => reject(new Error(`the reference server exited (${code}) before it listened: ${err}`)));
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString('utf8');
      const at = out.indexOf('secrets (generated for this start only):');
      if (at < 0) return;
      let secrets: ExternalReference['secrets'];
      try {
        secrets = JSON.parse(out.slice(out.indexOf('{', at))) as ExternalReference['secrets'];
      } catch {
        return; // the JSON has not all arrived yet
      }
      const url = (name: string): string => new RegExp(`^${name}:\\s+(\\S+)`, 'm').exec(out)?.[1] ?? '';
      resolve({ child, secrets, urls: { base_url: url('base_url'), auth_url: url('auth_url'), control_url: url('control_url') } });
    });
  });
}

/** The embedded reference profile, pointed at the external server (its URLs; secrets from the environment). */
function externalProfile(ref: ExternalReference): string {
  const profile = parse(readFileSync(join(REPO_ROOT, 'fixtures/targets/reference.yaml'), 'utf8')) as Record<string, unknown>;
  delete profile.embedded;
  return stringify({ ...profile, name: 'FTF reference server (external, for the packed install test)', ...ref.urls });
}

/** Every file under `dir`, relative, with `/` separators. */
function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? filesUnder(join(dir, name), `${prefix}${name}/`) : [`${prefix}${name}`]));
}

describe('installable package: npm pack, production install of the tarball into an empty folder, npx ftf-conformance run', () => {
  let work = '';
  let app = '';
  let tarball = '';
  let ref: ExternalReference | undefined;

  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'ftf-packed-'));
    app = join(work, 'app');
    mkdirSync(app);
    // prepack builds dist/ (scripts/build-package.mjs) with the spec the repository uses.
    const pack = npm(['pack', '--pack-destination', work, '--json'], REPO_ROOT, offlineEnv({ FTF_SPEC_DIR: specDir() }));
    assert.equal(pack.code, 0, `npm pack failed:\n${pack.out}\n${pack.err}`);
    const [info] = JSON.parse(pack.out.slice(pack.out.indexOf('['))) as { filename: string; size: number; unpackedSize: number; entryCount: number }[];
    assert.ok(info);
    tarball = join(work, info.filename);
    console.log(`# npm pack (build included): ${(pack.ms / 1000).toFixed(1)} s; ${info.filename}: ${(info.size / 1024).toFixed(0)} kB packed, ${(info.unpackedSize / 1024).toFixed(0)} kB unpacked, ${info.entryCount} files`);
    cpSync(tarball, join(app, info.filename));
    writeFileSync(join(app, 'package.json'), `${JSON.stringify({ name: 'ftf-packed-install', private: true, dependencies: { [pkg.name]: `file:./${info.filename}` } }, null, 2)}\n`);
    writeFileSync(join(app, 'package-lock.json'), `${JSON.stringify(installLock(join(app, info.filename)), null, 2)}\n`);
    const install = npm(['ci', '--omit=dev', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], app);
    assert.equal(install.code, 0, `npm ci --omit=dev --offline failed (the npm cache is filled by \`npm ci\` in the repository):\n${install.out}\n${install.err}`);
    console.log(`# npm ci --omit=dev --offline of the tarball: ${(install.ms / 1000).toFixed(1)} s`);
    ref = await startExternalReference();
    writeFileSync(join(app, 'target.yaml'), externalProfile(ref));
  });

  after(() => {
    ref?.child.kill('SIGTERM');
    rmSync(work, { recursive: true, force: true });
  });

  test('the tarball holds compiled JavaScript, the data files and the spec; no TypeScript, tests or docs', () => {
    const installed = join(app, 'node_modules', pkg.name);
    const files = filesUnder(installed);
    assert.equal(files.filter((f) => f.endsWith('.ts')).length, 0, 'no TypeScript ships');
    for (const f of ['bin/ftf-conformance.mjs', 'dist/src/cli/main.js', 'dist/playwright.config.js', 'dist/specs/conformance.spec.js', 'dist/schemas/operations.yaml', 'dist/fixtures/targets/reference.yaml', 'dist/spec/clauses.yaml', 'dist/spec/ftf-interface-spec.md', 'dist/src/harness/report/waivers.schema.json']) {
      assert.ok(files.includes(f), `${f} is in the package`);
    }
    assert.ok(files.some((f) => /^dist\/specs\/[^/]+\/.+\.yaml$/.test(f)), 'the YAML scenarios ship');
    assert.equal(files.filter((f) => /^(src|test|bench|docs|scripts)\//.test(f)).length, 0, 'sources, tests, benchmarks, docs and scripts stay out');
    assert.equal(readFileSync(join(installed, 'dist/spec/clauses.yaml'), 'utf8'), readFileSync(join(specDir(), 'clauses.yaml'), 'utf8'), 'the shipped clauses are the spec the build read');
  });

  test('the production install has every runtime dependency and no devDependency', () => {
    for (const dep of Object.keys(pkg.dependencies)) assert.ok(existsSync(join(app, 'node_modules', dep, 'package.json')), `${dep} is installed`);
    const present = devOnly.filter((dev) => existsSync(join(app, 'node_modules', dev)));
    assert.deepEqual(present, [], 'no devDependency (nor a package only they need) is installed');
    for (const dev of Object.keys(pkg.devDependencies)) assert.equal(existsSync(join(app, 'node_modules', dev)), false, `${dev} is not installed`);
  });

  test('`npx ftf-conformance run` from the install folder against the external reference: exit 0, CONFORMANT, reports in that folder', () => {
    assert.ok(ref);
    const secrets = {
      FTF_PRIMARY_CLIENT_SECRET: ref.secrets.clients['cc-alice'],
      FTF_SECOND_CLIENT_SECRET: ref.secrets.clients['cc-bob'],
      FTF_READONLY_CLIENT_SECRET: ref.secrets.clients['cc-carol-readonly'],
      FTF_CODE_CLIENT_SECRET: ref.secrets.clients['code-app'],
      FTF_API_KEY: ref.secrets.apiKeys['alice@ftf.test'],
    };
    const started = performance.now();
    const r = spawnSync('npx', ['--no-install', 'ftf-conformance', 'run', '--target', 'target.yaml', '--grep', SELECTION], {
      cwd: app,
      env: offlineEnv({ ...secrets, FTF_WORKERS: '1', CI: '1' }),
      encoding: 'utf8',
    });
    console.log(`# npx ftf-conformance run (3 scenarios, 1 worker): ${((performance.now() - started) / 1000).toFixed(1)} s`);
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
    // Tests are shown at their YAML files (redacting-reporter.ts); the file suite in results.json is still the spec Playwright ran.
    // (the entry conformance.spec.js; the tests are declared in scenario-tests.js beside it)
    assert.match(readFileSync(join(app, 'reports', 'results.json'), 'utf8'), /dist\/specs\/scenario-tests\.js/, 'Playwright ran the compiled spec of the installed package');
    assert.doesNotMatch(readFileSync(join(app, 'reports', 'results.json'), 'utf8'), /conformance\.spec\.ts|scenario-tests\.ts/);
    assert.match(r.stdout, /3 scenarios: 3 passed, 0 failed/);
    assert.match(r.stdout, /verdict: CONFORMANT/);
    const verdicts = JSON.parse(readFileSync(join(app, 'reports', 'verdicts.json'), 'utf8')) as unknown;
    assert.match(JSON.stringify(verdicts), /resources\.health/);
    assert.equal(existsSync(join(app, 'node_modules', pkg.name, 'dist', 'reports')), false, 'no report is written inside node_modules');
    for (const secret of Object.values(secrets)) {
      assert.ok(secret, 'the reference printed every secret');
      assert.equal(`${r.stdout}${r.stderr}`.includes(secret), false, 'no secret in the output');
    }
  });
});

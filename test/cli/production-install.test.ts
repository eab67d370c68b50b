/**
 * The production install runs compiled JavaScript only (tsx is a devDependency), without asking the registry:
 *
 * 1. A clone installed with `npm ci --omit=dev` and never built: a copy of the harness whose node_modules holds only
 *    the packages package-lock.json does not mark `dev` (links to this clone's). It has neither tsx nor dist/, so
 *    the bin exits 2 naming tsx and the two ways out (cheap: nothing is built here).
 * 2. The installable package (docs/package.md): `npm pack` (prepack builds dist/), then the tarball installed into
 *    an empty folder with `npm ci --omit=dev --offline` (a lock file written from this repository's: the tarball plus
 *    the runtime entries, so every package comes from the npm cache `npm ci` filled; the proxies point at a dead
 *    port so any request would fail loudly), then `npx ftf-conformance run` from that folder against an external
 *    reference server (the repository's `reference` command) with a profile written there; a certificate of that run
 *    names the package version and the sha-512 of the installed harness files; the install's size is within budget
 *    (30 MiB), which holds because the embedded reference server's packages are optional peers: not installed, and
 *    what needs them (the default target, `reference`) exits 2 with the install line.
 *    The one install is reused: a missing runtime piece exits 2 naming it, and the missing Allure CLI (a
 *    devDependency) leaves the verdict and the exit code alone.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess, type SpawnSyncReturns } from 'node:child_process';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse, stringify } from 'yaml';
import { REPO_ROOT } from '../../src/harness/repo-root.js';
import { specDir } from '../../src/harness/spec/clauses.js';
import { harnessFileList, harnessFilesDigest } from '../../src/harness/report/outputs/harness-identity.js';

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

/** Hides one file or folder (an installed package, a vendor file) for the duration of `fn`, as a broken or partial install would. */
function without<T>(path: string, fn: () => T): T {
  renameSync(path, `${path}.hidden`);
  try {
    return fn();
  } finally {
    renameSync(`${path}.hidden`, path);
  }
}

test('production install: the lock file leaves the dev tools out, tsx included (the copy really lacks them)', () => {
  for (const dev of ['typescript', 'eslint', 'allure', 'tsx', 'esbuild']) {
    assert.ok(devOnly.includes(dev), `${dev} is expected to be a devDependency`);
    assert.equal(existsSync(join(copy, 'node_modules', dev)), false);
  }
});

test('a clone installed without devDependencies and not built: exit 2 naming tsx and the two ways out', () => {
  const r = bin(['list']);
  assert.equal(r.code, 2, r.err);
  assert.match(r.err, /cannot start: 'tsx' is not installed/);
  assert.match(r.err, /npm ci/);
  assert.match(r.err, /npm run build/);
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
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as Pkg;
/** Three cheap scenarios: a read, a read of reference data, a write (the profile allows mutations). */
const SELECTION = 'resources\\.health\\b|amounts\\.indication-get\\b|checkpoints\\.create\\b';
/**
 * The production install's node_modules (docs/package.md "Size"): issue 30's budget, 30 MB (decimal, as the issue
 * writes it), for the bytes of its files (du --apparent-size) and for the blocks they take on disk (du -sk, 4 KiB per
 * small file on ext4/overlayfs) alike. It holds because the harness's own dependencies are bundled into dist/vendor/
 * at pack time (scripts/bundle-dependencies.mjs) and the reference server's Fastify tree is an optional peer: what
 * remains installed is Playwright.
 */
const SIZE_BUDGET_MB = 30;
/** The harness's runtime libraries, bundled into dist/vendor/ by the build: devDependencies, never installed. */
const BUNDLED = ['ajv', 'ajv-formats', 'allure-js-commons', 'allure-playwright', 'decimal.js', 'fast-check', 'undici', 'uuid', 'yaml'];
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
    [`node_modules/${pkg.name}`]: { version: pkg.version, resolved: spec, integrity, license: pkg.license, dependencies: pkg.dependencies, peerDependencies: pkg.peerDependencies, peerDependenciesMeta: pkg.peerDependenciesMeta, bin: pkg.bin, engines: pkg.engines },
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
    // prepack builds dist/ (scripts/build-package.mjs) with the spec the repository uses; without type-checking
    // (FTF_BUILD_NO_CHECK: the same JavaScript, the typecheck stage of `npm test` checks the types).
    const pack = npm(['pack', '--pack-destination', work, '--json'], REPO_ROOT, offlineEnv({ FTF_SPEC_DIR: specDir(), FTF_BUILD_NO_CHECK: '1' }));
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

  test('the tarball holds compiled JavaScript, the data files, the spec and the user docs; no TypeScript, tests or sources', () => {
    const installed = join(app, 'node_modules', pkg.name);
    const files = filesUnder(installed);
    assert.equal(files.filter((f) => f.endsWith('.ts')).length, 0, 'no TypeScript ships');
    for (const f of ['bin/ftf-conformance.mjs', 'dist/src/cli/main.js', 'dist/playwright.config.js', 'dist/specs/conformance.spec.js', 'dist/schemas/operations.yaml', 'dist/fixtures/targets/reference.yaml', 'dist/spec/clauses.yaml', 'dist/spec/ftf-interface-spec.md', 'dist/src/harness/report/verdicts/waivers.schema.json', 'dist/docs/target-profiles.md', 'dist/docs/cli.md', 'dist/docs/ci/github-actions.yml']) {
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

  test('the harness libraries are bundled into dist/vendor/ with their licences; the compiled code loads none of them by name', () => {
    const installed = join(app, 'node_modules', pkg.name);
    const licences = readFileSync(join(installed, 'dist', 'vendor', 'LICENSES.md'), 'utf8');
    for (const name of BUNDLED) {
      assert.ok(name in pkg.devDependencies && !(name in pkg.dependencies), `${name} is a devDependency (bundled, not installed)`);
      assert.equal(existsSync(join(app, 'node_modules', name)), false, `${name} is not installed`);
      assert.ok(licences.includes(`## ${name} ${pkg.devDependencies[name]} (`), `dist/vendor/LICENSES.md carries ${name} ${pkg.devDependencies[name]} and its licence`);
    }
    const byName = new RegExp(`(?:from\\s*|import\\s*\\(\\s*|require\\(\\s*)['"](?:${BUNDLED.map((n) => n.replace(/\./g, '\\.')).join('|')})(?:/[^'"]*)?['"]`);
    const loaders = filesUnder(join(installed, 'dist')).filter((f) => f.endsWith('.js') && !f.startsWith('vendor/') && byName.test(readFileSync(join(installed, 'dist', f), 'utf8')));
    assert.deepEqual(loaders, [], 'no compiled file loads a bundled package by name');
  });

  /** The profile's *_env secrets, from the external reference. */
  const secretEnv = (): Record<string, string | undefined> => ({
    FTF_PRIMARY_CLIENT_SECRET: ref?.secrets.clients['cc-alice'],
    FTF_SECOND_CLIENT_SECRET: ref?.secrets.clients['cc-bob'],
    FTF_READONLY_CLIENT_SECRET: ref?.secrets.clients['cc-carol-readonly'],
    FTF_CODE_CLIENT_SECRET: ref?.secrets.clients['code-app'],
    FTF_API_KEY: ref?.secrets.apiKeys['alice@ftf.test'],
  });
  /** `npx ftf-conformance …` in the install folder, offline, one worker. */
  const npx = (args: string[]): SpawnSyncReturns<string> =>
    spawnSync('npx', ['--no-install', 'ftf-conformance', ...args], { cwd: app, env: offlineEnv({ ...secretEnv(), FTF_WORKERS: '1', CI: '1' }), encoding: 'utf8' });

  test('`npx ftf-conformance run` from the install folder against the external reference: exit 0, CONFORMANT, reports in that folder', () => {
    assert.ok(ref);
    const secrets = secretEnv();
    const started = performance.now();
    const r = npx(['run', '--target', 'target.yaml', '--grep', SELECTION, '--report']);
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
    // The Allure CLI is a devDependency: without it the verdict and the exit code of `run --report` stand, and it says so.
    assert.match(r.stdout, /Allure report not built \(the verdict stands\): FTF_E_ALLURE_MISSING: the Allure CLI is not installed/);
    // The bundled Allure runtime works in the workers: each scenario's clause links reach its Allure result.
    const results = readdirSync(join(app, 'reports', 'allure-results')).filter((f) => f.endsWith('-result.json'));
    const health = results.map((f) => JSON.parse(readFileSync(join(app, 'reports', 'allure-results', f), 'utf8')) as { name: string; links?: { name: string; type: string }[] }).find((res) => res.name.startsWith('resources.health'));
    assert.ok(health, `an Allure result for resources.health among ${results.length}`);
    assert.ok(health.links?.some((link) => link.type === 'clause'), `resources.health's Allure result links its clauses: ${JSON.stringify(health.links)}`);
    for (const secret of Object.values(secrets)) {
      assert.ok(secret, 'the reference printed every secret');
      assert.equal(`${r.stdout}${r.stderr}`.includes(secret), false, 'no secret in the output');
    }
  });

  test('a certificate from the installed package names its version, build commit and the sha-512 of the installed harness files', () => {
    const key = join(work, 'key.pem');
    writeFileSync(key, generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    // The run above is evaluated again in certification mode (a full certify run is the same code, and costs the catalogue).
    const r = npx(['certify', '--target', 'target.yaml', '--key', key, '--evaluate-only', '--no-report']);
    assert.ok(r.status === 0 || r.status === 1, `${r.stdout}\n${r.stderr}`);
    const file = join(app, 'reports', 'certificate', 'certificate.json');
    const cert = JSON.parse(readFileSync(file, 'utf8')) as { harness: { name: string; version: string; commit: string; files: { algorithm: string; scope: string; count: number; digest: string } } };
    assert.equal(cert.harness.name, pkg.name);
    assert.equal(cert.harness.version, pkg.version);
    const head = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' });
    if (head.status === 0) assert.equal(cert.harness.commit, head.stdout.trim(), 'the commit the package was built from');
    const installed = join(app, 'node_modules', pkg.name);
    const files = harnessFileList(installed, 'package');
    assert.deepEqual({ ...cert.harness.files }, { algorithm: 'sha512', scope: 'package', count: files.length, digest: harnessFilesDigest(installed, files) });
    assert.ok(files.includes('dist/src/cli/main.js') && files.includes('bin/ftf-conformance.mjs'));
    assert.match(readFileSync(join(app, 'reports', 'certificate', 'certificate.md'), 'utf8'), new RegExp(`${pkg.version}.*\\n.*Harness files \\| sha512 \`${cert.harness.files.digest}`));
    const verify = npx(['verify', file]);
    assert.equal(verify.status, 0, `${verify.stdout}\n${verify.stderr}`);
  });

  test('the installed package: init links its docs; `report` without the Allure CLI exits 2; a missing runtime dependency exits 2 naming it, never 1', () => {
    // A profile written by the installed package points at docs the package holds.
    const init = npx(['init', '--base-url', 'https://sandbox.example.com/api/v1', '--client-id', 'c', '--out', 'written.yaml']);
    assert.equal(init.status, 0, init.stderr);
    const link = /^# Field reference: (\S+?)\.? /m.exec(readFileSync(join(app, 'written.yaml'), 'utf8'))?.[1];
    assert.ok(link && existsSync(join(app, link)), `the profile's docs link ${link} exists in the install`);
    const report = npx(['report']);
    assert.equal(report.status, 2, report.stderr);
    assert.match(report.stderr, /FTF_E_ALLURE_MISSING: the Allure CLI is not installed/);
    // yaml is bundled (dist/vendor/required.cjs, loaded on the first parse: src/harness/yaml/source.ts): a package whose
    // vendor file is gone is as broken as one missing a package, and no scenario or profile is blamed for it.
    const noYaml = without(join(app, 'node_modules', pkg.name, 'dist', 'vendor', 'required.cjs'), () => npx(['list']));
    assert.equal(noYaml.status, 2, noYaml.stderr);
    assert.match(noYaml.stderr, /cannot start: the file '[^']*dist\/vendor\/required\.cjs' is missing from the installation \(a broken or partial install\)/);
    const noYamlRun = without(join(app, 'node_modules', pkg.name, 'dist', 'vendor', 'required.cjs'), () => npx(['run', '--target', 'written.yaml']));
    assert.equal(noYamlRun.status, 2, noYamlRun.stderr);
    assert.doesNotMatch(noYamlRun.stderr, /FTF_E_PROFILE_NOT_FOUND/);
    assert.match(noYamlRun.stderr, /dist\/vendor\/required\.cjs' is missing from the installation/);
    const noPlaywright = without(join(app, 'node_modules', '@playwright/test'), () => npx(['run', '--target', 'target.yaml', '--grep', 'resources\\.health\\b']));
    assert.equal(noPlaywright.status, 2, noPlaywright.stderr);
    assert.match(noPlaywright.stderr, /@playwright\/test/);
    assert.match(noPlaywright.stderr, /not installed/);
  });

  test('size: the production install of the package (du of its node_modules) is within 30 MB, in bytes of files and on disk', () => {
    const du = (...flags: string[]): number => {
      const r = spawnSync('du', [...flags, '-sk', join(app, 'node_modules')], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      return Number(r.stdout.split('\t')[0]) * 1024;
    };
    const files = du('--apparent-size');
    const disk = du();
    const show = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB (${(bytes / 2 ** 20).toFixed(1)} MiB)`;
    console.log(`# production install: ${show(files)} of files (du --apparent-size -sk), ${show(disk)} on disk (du -sk); budget ${SIZE_BUDGET_MB} MB each`);
    assert.ok(files <= SIZE_BUDGET_MB * 1e6, `the production install holds ${show(files)} of files, over the ${SIZE_BUDGET_MB} MB budget`);
    assert.ok(disk <= SIZE_BUDGET_MB * 1e6, `the production install takes ${show(disk)} on disk, over the ${SIZE_BUDGET_MB} MB budget`);
    for (const pkgName of ['tsx', 'esbuild', 'fastify', 'pino']) assert.equal(existsSync(join(app, 'node_modules', pkgName)), false, `${pkgName} is not installed`);
  });

  test("the embedded reference server's packages are optional: what needs them exits 2 with the install line, the rest works", () => {
    for (const peer of Object.keys(pkg.peerDependencies ?? {})) assert.equal(existsSync(join(app, 'node_modules', peer)), false, `${peer} (optional peer) is not installed by default`);
    const run = npx(['run', '--no-report']);
    assert.equal(run.status, 2, `${run.stdout}\n${run.stderr}`);
    assert.match(run.stderr, /FTF_E_RUNTIME_MISSING: .*reference\.yaml \(base_url: embedded\) needs the embedded reference server, whose packages are not installed: .*fastify/);
    assert.match(run.stderr, /npm install --omit=dev .*fastify@\d/);
    const reference = npx(['reference', '--port', '0']);
    assert.equal(reference.status, 2, reference.stderr);
    assert.match(reference.stderr, /`reference` needs the embedded reference server/);
    const help = npx(['--help']);
    assert.equal(help.status, 0, help.stderr);
  });
});

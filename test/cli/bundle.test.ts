/**
 * The bundled harness (bin/bundle.mjs): built once per state of the sources, used by the bin and by Playwright's
 * runner and workers (the bundled config, src/shared/bundle.ts), and never used when FTF_CACHE_DIR=off, when esbuild
 * is missing or when the sources do not build (the sources then run through tsx and report their own error).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, test } from 'node:test';
import { REPO_ROOT } from '../../src/harness/repo-root.js';

// @ts-expect-error -- plain JavaScript of the bin, no declarations
const { bundledHarness } = (await import('../../bin/bundle.mjs')) as { bundledHarness(root: string, env?: NodeJS.ProcessEnv): Promise<{ dir: string; cli: string } | undefined> };

const dir = mkdtempSync(join(tmpdir(), 'ftf-bundle-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const RUN_BOUND_MS = 120_000;

/** A checkout in miniature: the entry points bin/bundle.mjs bundles, and esbuild in its node_modules. */
function miniCheckout(name: string, withEsbuild = true): string {
  const root = join(dir, name);
  const file = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  file('src/cli/main.ts', "import { shared } from '../shared.js';\nexport const here: string = import.meta.url;\nexport const sharedFromCli = shared;\ndeclare const __FTF_BUNDLE__: { dir: string } | undefined;\nexport const bundle = typeof __FTF_BUNDLE__ === 'object' ? __FTF_BUNDLE__.dir : undefined;\n");
  file('src/shared.ts', 'export const shared = { made: Math.random() };\n');
  file('playwright.config.ts', "import { shared } from './src/shared.js';\nexport const here: string = import.meta.url;\nexport const sharedFromConfig = shared;\n");
  file('specs/a.spec.ts', "import { shared } from '../src/shared.js';\nexport const sharedFromSpec = shared;\n");
  for (const r of ['redacting-reporter', 'outcome-reporter', 'allure-reporter']) file(`src/harness/report/outputs/${r}.ts`, 'export default class {}\n');
  file('package.json', '{ "type": "module" }\n');
  cpSync(join(REPO_ROOT, 'bin', 'bundle.mjs'), join(root, 'bin', 'bundle.mjs'));
  mkdirSync(join(root, 'node_modules'), { recursive: true });
  if (withEsbuild) symlinkSync(join(REPO_ROOT, 'node_modules', 'esbuild'), join(root, 'node_modules', 'esbuild'));
  return root;
}

const bundles = (root: string): string[] => readdirSync(join(root, 'node_modules', '.cache', 'ftf-conformance')).filter((n) => n.startsWith('bundle-')).sort();

describe('bundledHarness', () => {
  test('builds once per state of the sources: the same folder again, a new one after an edit', async () => {
    const root = miniCheckout('states');
    const first = await bundledHarness(root, {});
    assert.ok(first, 'a bundle was built');
    assert.ok(first.dir.startsWith(join(root, 'node_modules', '.cache', 'ftf-conformance', 'bundle-')), first.dir);
    for (const f of ['src/cli/main.mjs', 'playwright.config.mjs', 'specs/a.spec.mjs', 'src/harness/report/outputs/outcome-reporter.mjs']) assert.ok(existsSync(join(first.dir, f)), f);
    const built = statSync(join(first.dir, 'KEY')).mtimeMs;
    assert.deepEqual(await bundledHarness(root, {}), first, 'unchanged sources: the same bundle');
    assert.equal(statSync(join(first.dir, 'KEY')).mtimeMs, built, 'not built again');

    writeFileSync(join(root, 'src', 'shared.ts'), 'export const shared = { made: 2 };\n');
    const second = await bundledHarness(root, {});
    assert.ok(second && second.dir !== first.dir, 'an edit makes another bundle');
    assert.equal(((await import(second.cli)) as { sharedFromCli: { made: number } }).sharedFromCli.made, 2, 'the new bundle has the edit');
    assert.deepEqual(bundles(root).length, 2, 'the previous bundle is kept (a run may still load its chunks)');
  });

  test('modules keep their source URL; one copy of a module the entries share; the bundle knows its folder; a shim under specs/ per spec entry', async () => {
    const root = miniCheckout('urls');
    const b = await bundledHarness(root, {});
    assert.ok(b);
    const cli = (await import(b.cli)) as { here: string; bundle: string; sharedFromCli: object };
    assert.equal(cli.here, pathToFileURL(join(root, 'src', 'cli', 'main.ts')).href, 'REPO_ROOT and the data files are found from the sources');
    assert.equal(cli.bundle, b.dir);
    const config = (await import(pathToFileURL(join(b.dir, 'playwright.config.mjs')).href)) as { here: string; sharedFromConfig: object };
    assert.equal(config.here, pathToFileURL(join(root, 'playwright.config.ts')).href, 'the config finds specs/ and the reports folder from the sources');
    const key = b.dir.slice(b.dir.lastIndexOf('bundle-') + 'bundle-'.length);
    const shim = join(root, 'specs', '.ftf-bundle', key, 'a.spec.mjs');
    assert.match(readFileSync(shim, 'utf8'), new RegExp(`import "${pathToFileURL(join(b.dir, 'specs', 'a.spec.mjs')).href}"`));
    const spec = (await import(pathToFileURL(join(b.dir, 'specs', 'a.spec.mjs')).href)) as { sharedFromSpec: object };
    assert.equal(spec.sharedFromSpec, config.sharedFromConfig, 'the config and a spec share one instance of a module (chunks)');
    rmSync(join(root, 'specs', '.ftf-bundle'), { recursive: true });
    assert.deepEqual(await bundledHarness(root, {}), b);
    assert.ok(existsSync(shim), 'a shim removed is written again');
  });

  test('none: FTF_CACHE_DIR=off, sources that do not build, no esbuild', async () => {
    const root = miniCheckout('none');
    assert.equal(await bundledHarness(root, { FTF_CACHE_DIR: 'off' }), undefined);
    assert.equal(existsSync(join(root, 'node_modules', '.cache')), false, 'nothing written');
    writeFileSync(join(root, 'src', 'shared.ts'), 'export const shared = {;\n');
    assert.equal(await bundledHarness(root, {}), undefined, 'a syntax error: the sources run through tsx and report it');
    assert.equal(await bundledHarness(miniCheckout('no-esbuild', false), {}), undefined, 'the installed package has no esbuild: it runs dist/');
  });
});

/** Runs the bin in the repository. */
function runBin(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, [join(REPO_ROOT, 'bin/ftf-conformance.mjs'), ...args], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => void (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => void (out += d.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, out })));
}

describe('a run', () => {
  const configOf = (reports: string): string => (JSON.parse(readFileSync(join(reports, 'results.json'), 'utf8')) as { config: { configFile: string } }).config.configFile;

  for (const [what, cacheDir, expected] of [
    ['uses the bundled config', undefined, /node_modules\/\.cache\/ftf-conformance\/bundle-[0-9a-f]+\/playwright\.config\.mjs$/],
    ['with FTF_CACHE_DIR=off, the sources', 'off', /\/playwright\.config\.ts$/],
  ] as const) {
    test(what, { timeout: RUN_BOUND_MS }, async () => {
      const reports = join(dir, `run-${cacheDir ?? 'bundled'}`, 'reports');
      const env: NodeJS.ProcessEnv = { ...process.env, FTF_REPORTS_DIR: reports, FTF_WORKERS: '1', CI: '1' };
      delete env.FTF_TARGET;
      if (cacheDir) env.FTF_CACHE_DIR = cacheDir;
      else delete env.FTF_CACHE_DIR;
      const r = await runBin(['run', '--no-report', '--grep', '^amounts\\.indication-get:', '--', '--output', join(reports, '..', 'test-results')], env);
      assert.equal(r.code, 0, r.out);
      assert.match(r.out, /1 passed/);
      assert.match(configOf(reports), expected);
    });
  }
});

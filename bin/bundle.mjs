// The harness as a few JavaScript files: in a clone (TypeScript sources, esbuild installed), esbuild bundles the CLI,
// playwright.config.ts, the spec entries and the reporters once per state of the sources, into
// node_modules/.cache/ftf-conformance/bundle-<key>/ (inside the checkout: the bundle imports the npm packages from its
// node_modules). The CLI then runs without tsx, and Playwright's runner and workers load a few files instead of ~150
// modules through its TypeScript loader (src/shared/bundle.ts switches that loader off).
// Playwright finds the test files under specs/ (reports name files relative to it: Allure's history ids, the YAML
// locations), so each bundled spec entry gets a one-line shim there, specs/.ftf-bundle/<key>/*.spec.mjs (git-ignored).
// Saves, one-scenario run (the bench row's command, alternating rounds, 2026-11-28): with the bundle and Playwright's
// loader off 3,257 ms against 4,404 ms before (6 rounds); the CLI reaches its main at ~300 ms instead of ~970 ms.
// docs/performance.md, "Issue 28, tenth pass".
// The key is each source file's path, size and mtime (a stat, not a read), plus Node's and esbuild's versions; an
// edit makes a new bundle (~0.4 s, once). No bundle (the sources through tsx, as before) when FTF_CACHE_DIR=off,
// when esbuild is not installed (the installed package runs dist/), or when esbuild fails (the sources then report
// their own error).
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The code a bundle is built from, relative to the checkout: TypeScript under these folders, and the config. */
const SOURCE_DIRS = ['src', 'specs'];
const CONFIG = 'playwright.config.ts';
/** The entry points besides the CLI: what Playwright loads by path (the config names the reporters and spec files). */
const REPORTERS = ['redacting-reporter', 'outcome-reporter', 'allure-reporter'].map((r) => `src/harness/report/outputs/${r}.ts`);
const KEEP = 3;
/** Where the spec shims go, under specs/ (bin/bundle.mjs's header says why). */
const SHIMS = join('specs', '.ftf-bundle');

function tsFiles(root) {
  const out = [];
  for (const dir of SOURCE_DIRS) {
    for (const name of readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })) {
      if (name.endsWith('.ts') && !name.endsWith('.test.ts')) out.push(join(dir, name));
    }
  }
  return out.sort();
}

function bundleKey(root, files, esbuildVersion) {
  const hash = createHash('sha256').update(`bundle 1\0node ${process.version}\0esbuild ${esbuildVersion}\0`);
  for (const f of [...files, CONFIG, 'bin/bundle.mjs']) {
    const st = statSync(join(root, f));
    hash.update(`${f}\0${st.size}\0${st.mtimeMs}\0`);
  }
  return hash.digest('hex').slice(0, 16);
}

/** `import.meta.url` of every bundled module stays its source file's URL: REPO_ROOT, the fixtures and schemas are found from it. */
const pinImportMeta = {
  name: 'pin-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8').replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
      loader: 'ts',
    }));
  },
};

/** The bundle for this checkout's sources, built when missing: its folder and the CLI's URL, or undefined (above). */
export async function bundledHarness(root, env = process.env) {
  if (env.FTF_CACHE_DIR?.trim() === 'off') return undefined;
  let esbuildVersion;
  try {
    esbuildVersion = JSON.parse(readFileSync(createRequire(join(root, 'package.json')).resolve('esbuild/package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
  try {
    const files = tsFiles(root);
    const cache = join(root, 'node_modules', '.cache', 'ftf-conformance');
    const key = bundleKey(root, files, esbuildVersion);
    const dir = join(cache, `bundle-${key}`);
    const cli = join(dir, 'src', 'cli', 'main.mjs');
    const specs = files.filter((f) => f.startsWith('specs') && f.endsWith('.spec.ts'));
    try {
      statSync(join(dir, 'KEY'));
      writeShims(root, key, dir, specs);
      return { dir, cli: pathToFileURL(cli).href };
    } catch {
      // not built yet
    }
    const building = `${dir}.${process.pid}.tmp`;
    const esbuild = await import('esbuild');
    await esbuild.build({
      entryPoints: ['src/cli/main.ts', CONFIG, ...specs, ...REPORTERS].map((f) => join(root, f)),
      outdir: building,
      outbase: root,
      outExtension: { '.js': '.mjs' },
      bundle: true,
      splitting: true, // one copy of each module in a process that loads several entries (the config, a spec, the reporters)
      format: 'esm',
      platform: 'node',
      target: 'node20',
      packages: 'external',
      sourcemap: 'linked',
      define: { __FTF_BUNDLE__: JSON.stringify({ dir, key }) },
      plugins: [pinImportMeta],
      logLevel: 'silent',
    });
    writeFileSync(join(building, 'KEY'), `${dir}\n`);
    try {
      renameSync(building, dir);
    } catch {
      rmSync(building, { recursive: true, force: true }); // another process built the same bundle first
    }
    writeShims(root, key, dir, specs);
    prune(root, cache, dir);
    return { dir, cli: pathToFileURL(cli).href };
  } catch {
    return undefined;
  }
}

/** The spec shims of bundle `key`, unless they are there. */
function writeShims(root, key, dir, specs) {
  for (const spec of specs) {
    const shim = join(root, SHIMS, key, spec.slice('specs/'.length).replace(/\.ts$/, '.mjs'));
    const text = `// ${spec}, bundled (bin/bundle.mjs)\nimport ${JSON.stringify(pathToFileURL(join(dir, spec.replace(/\.ts$/, '.mjs'))).href)};\n`;
    try {
      if (readFileSync(shim, 'utf8') === text) continue;
    } catch {
      // missing
    }
    mkdirSync(dirname(shim), { recursive: true });
    writeFileSync(`${shim}.${process.pid}.tmp`, text);
    renameSync(`${shim}.${process.pid}.tmp`, shim);
  }
}

/** Keeps the newest bundles and their shims (a run of an older state of the sources may still be loading its chunks). */
function prune(root, cache, current) {
  try {
    const bundles = readdirSync(cache)
      .filter((n) => /^bundle-[0-9a-f]+$/.test(n))
      .map((n) => ({ path: join(cache, n), key: n.slice('bundle-'.length), mtime: statSync(join(cache, n)).mtimeMs }))
      .filter((b) => b.path !== current)
      .sort((a, b) => b.mtime - a.mtime);
    for (const b of bundles.slice(KEEP - 1)) {
      rmSync(join(root, SHIMS, b.key), { recursive: true, force: true });
      rmSync(b.path, { recursive: true, force: true });
    }
  } catch {
    // a cache that cannot be pruned only takes space
  }
}

#!/usr/bin/env node
// `npm run build` (and `prepack`, so `npm pack` / `npm publish` always ship a fresh build): writes dist/, the
// runtime tree of the installed package. dist/ mirrors the repository layout with compiled JavaScript in place of
// the TypeScript (tsconfig.build.json: src/, specs/*.spec.ts, playwright.config.ts) and copies of the data files
// the code finds relative to itself (specs/**/*.yaml, schemas/, fixtures/, src/**/*.json), plus the package's own
// copy of the spec (dist/spec: ftf-interface-spec.md + clauses.yaml, from FTF_SPEC_DIR or ../shared/spec) and a
// small dist/package.json (ESM, name, version). The repository workflow does not use dist/ (bin/ftf-conformance.mjs
// loads the TypeScript through tsx whenever src/ is present). See docs/package.md.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleDependencies } from './bundle-dependencies.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');

function fail(message) {
  process.stderr.write(`build: ${message}\n`);
  process.exit(1);
}

rmSync(dist, { recursive: true, force: true });

const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
if (!existsSync(tsc)) fail('typescript is not installed (a devDependency): run `npm ci` first');
// FTF_BUILD_NO_CHECK=1: emit without type-checking (the same JavaScript, about 5x faster). For the packed-install
// self-test only: `npm test` type-checks in its own stage; a release `npm pack` checks.
const noCheck = process.env.FTF_BUILD_NO_CHECK === '1' ? ['--noCheck'] : [];
const compiled = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), ...noCheck], { cwd: root, stdio: 'inherit' });
if (compiled.status !== 0) fail(`tsc exited ${compiled.status ?? compiled.signal}`);

/** Data files: everything under `from` that is not TypeScript (the compiled .js is already in place). */
const notTypeScript = (src) => statSync(src).isDirectory() || !src.endsWith('.ts');
for (const dir of ['specs', 'schemas', 'fixtures', 'src']) {
  cpSync(join(root, dir), join(dist, dir), { recursive: true, filter: notTypeScript });
}

// The harness's npm dependencies (all but Playwright and the optional peers) are bundled into dist/vendor/, and the
// compiled files import them from there: the production install stays small (scripts/bundle-dependencies.mjs).
const bundled = await bundleDependencies({ root, dist, fail });
console.log(`build: bundled ${bundled.join(', ')} into ${join(dist, 'vendor')}`);

// The user docs ship too (Markdown pages and the CI pipelines), where the code and generated profiles point: <root>/docs.
cpSync(join(root, 'docs'), join(dist, 'docs'), { recursive: true, filter: (src) => statSync(src).isDirectory() ? !src.endsWith('bench-runs') : /\.(md|ya?ml)$/.test(src) });

// The spec ships inside the package: src/harness/spec/clauses.ts looks in <root>/spec first.
const specSource = process.env.FTF_SPEC_DIR ? resolve(process.env.FTF_SPEC_DIR) : resolve(root, '../shared/spec');
mkdirSync(join(dist, 'spec'), { recursive: true });
for (const file of ['ftf-interface-spec.md', 'clauses.yaml']) {
  if (!existsSync(join(specSource, file))) fail(`${join(specSource, file)} is missing (set FTF_SPEC_DIR to the spec folder)`);
  cpSync(join(specSource, file), join(dist, 'spec', file));
}

// The compiled tree's own package.json: "type": "module" for the .js files, and the name and version that reports
// and certificates read from <root>/package.json.
// `commit`: the git commit built from (certificates name it: src/harness/report/outputs/harness-identity.ts), 'unknown' outside git.
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const git = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' });
const commit = git.status === 0 && git.stdout.trim() ? git.stdout.trim() : 'unknown';
writeFileSync(
  join(dist, 'package.json'),
  `${JSON.stringify({ name: pkg.name, version: pkg.version, description: `${pkg.description} (compiled runtime tree)`, private: true, type: 'module', commit }, null, 2)}\n`,
);
console.log(`build: wrote ${dist}`);

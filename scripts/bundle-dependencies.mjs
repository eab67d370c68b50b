// Part of `npm run build` (scripts/build-package.mjs): the harness's own npm dependencies go into the package as
// bundled JavaScript (dist/vendor/), so the production install holds only what must stay a package: Playwright,
// which runs the specs and loads the reporters, and the optional peers of the embedded reference server (Fastify).
// docs/package.md ("Size").
//
// The compiled files keep their module graph: only the places that name a bundled package change, to the vendor file
// that stands for it (`from 'yaml'` -> `from '../../vendor/yaml.js'`). Each vendor file exports what Node's own
// import of that package gives (the same names, `default` included, for ESM and CommonJS packages alike), and the
// vendor files share their code through chunks, so a package is loaded once per process. A package the code loads
// with `require()` (Ajv, loaded on first use: src/harness/schemas/ajv.ts) comes from one CommonJS bundle of all such
// packages, vendor/required.cjs, so that they too share their code (ajv-formats builds code with Ajv's own classes).
//
// Which packages: every package the compiled code loads by name that the installed package will not have, i.e. that
// is neither in package.json `dependencies` nor a peer; those stay loaded by name. A package the code names that
// package.json does not list at all stops the build. The bundled packages' licences go to dist/vendor/LICENSES.md.
import { builtinModules } from 'node:module';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

/** Where an import names its module (`from '…'`, `import '…'`, `import('…')`): the rewrite of a bundled package's name. */
const IMPORT = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])([^'"\n]+)\2/g;
/** `require('…')` of a plain string (the compiled code makes its own `require` with createRequire). */
const REQUIRE = /\brequire\(\s*(['"])([^'"\n]+)\1\s*\)/g;
/** The ES module vendor files carry their own `require` (a CommonJS package's `require('node:…')` inside an ES module). */
const BANNER = "import { createRequire as __ftfCreateRequire } from 'node:module';\nconst require = __ftfCreateRequire(import.meta.url);";
/** The CommonJS bundle of the packages the code loads with `require()`. */
const REQUIRED = 'required.cjs';

const packageName = (specifier) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
const isBuiltin = (specifier) => specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0]);
const isPackage = (specifier) => !/^(\.|\/|[a-z][a-z0-9+.-]*:)/i.test(specifier) && !isBuiltin(specifier);

function jsFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? jsFiles(path) : path.endsWith('.js') ? [path] : [];
  });
}

/** specifier -> the files that load it. */
function add(found, specifier, file) {
  found.set(specifier, [...new Set([...(found.get(specifier) ?? []), file])]);
}

/**
 * Every package the compiled files import (static, re-export or dynamic `import()` of a string). esbuild reads the
 * imports (comments and strings that look like one are not imports); it writes nothing here.
 */
async function importsByName(build, files, root) {
  const found = new Map();
  const record = {
    name: 'record-package-imports',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, ({ path, importer }) => {
        if (isPackage(path)) add(found, path, importer);
        return { path, external: true };
      });
    },
  };
  // One entry importing every file: each is read once (an entry point per file would bundle the graph once per file).
  const stdin = { contents: files.map((file) => `import ${JSON.stringify(file)};`).join('\n'), resolveDir: root, loader: 'js' };
  await build({ stdin, bundle: true, write: false, outdir: join(root, '.esbuild-scan'), platform: 'node', format: 'esm', logLevel: 'silent', absWorkingDir: root, plugins: [record] });
  return found;
}

/** Every package the compiled files load with `require('…')`. */
function requiresByName(files) {
  const found = new Map();
  for (const file of files) {
    for (const [, , specifier] of readFileSync(file, 'utf8').matchAll(REQUIRE)) if (isPackage(specifier)) add(found, specifier, file);
  }
  return found;
}

/** The vendor file's name for a specifier: `allure-js-commons/sdk/reporter` -> `allure-js-commons_sdk_reporter`. */
const vendorName = (specifier) => specifier.replace(/\.[cm]?js$/, '').replace(/[^A-Za-z0-9_-]+/g, '_');

/**
 * The entry of one ES module vendor file: the names Node's own `import()` of the package gives (this file is in the
 * repository, so the import resolves in its node_modules). A module that cannot be loaded outside its host
 * (allure-playwright/autoconfig needs a running Playwright test) is imported for its effects, which is how the
 * code imports it.
 */
async function entrySource(specifier) {
  let names;
  try {
    names = Object.keys(await import(specifier));
  } catch (error) {
    console.log(`build: vendor/${vendorName(specifier)}.js imports ${specifier} for its effects only (${String(error?.message ?? error).split('\n')[0]})`);
    return `import ${JSON.stringify(specifier)};\n`;
  }
  const lines = [`import * as ns from ${JSON.stringify(specifier)};`];
  names.forEach((name, i) => lines.push(`const e${i} = ns[${JSON.stringify(name)}];`, `export { e${i} as ${JSON.stringify(name)} };`));
  return `${lines.join('\n')}\n`;
}

/** The packages (name, version, licence and its text) whose files esbuild put into the vendor files. */
function licenses(metafiles, root) {
  const dirs = new Set();
  for (const input of metafiles.flatMap((m) => Object.keys(m.inputs))) {
    const m = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (m) dirs.add(m[1]);
  }
  const sections = [...dirs].sort().map((dir) => {
    const pkg = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
    const file = readdirSync(join(root, dir)).find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f));
    const text = file ? readFileSync(join(root, dir, file), 'utf8').trim() : `(no licence file in the package; its package.json says ${pkg.license})`;
    return `## ${pkg.name} ${pkg.version} (${pkg.license})\n\n\`\`\`text\n${text}\n\`\`\`\n`;
  });
  return `# Bundled packages\n\nThe npm packages bundled into this folder by the build (scripts/bundle-dependencies.mjs), with their licences.\n\n${sections.join('\n')}`;
}

/** A relative module path from `file` to `target`, as an import names it. */
function modulePath(file, target) {
  const path = relative(dirname(file), target).split(sep).join('/');
  return path.startsWith('.') ? path : `./${path}`;
}

/**
 * Bundles into `<dist>/vendor/` every package that the compiled files load by name and the installed package will
 * not have, and points those places at the vendor files. Returns the bundled specifiers.
 */
export async function bundleDependencies({ root, dist, fail }) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const installed = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})]);
  const { build } = await import('esbuild').catch(() => fail('esbuild is not installed (a devDependency): run `npm ci` first'));
  const files = jsFiles(dist);
  const notInstalled = (found) => [...found.keys()].filter((s) => !installed.has(packageName(s))).sort();
  const imports = await importsByName(build, files, root);
  const requires = requiresByName(files);
  const imported = notInstalled(imports);
  const required = notInstalled(requires);
  for (const [specifier, found] of [...imported.map((s) => [s, imports]), ...required.map((s) => [s, requires])]) {
    if (!(packageName(specifier) in (pkg.devDependencies ?? {}))) fail(`${found.get(specifier)[0]} loads '${specifier}', which package.json does not list`);
  }
  const vendor = join(dist, 'vendor');
  const common = {
    bundle: true,
    platform: 'node',
    target: 'node20',
    external: [...installed].flatMap((name) => [name, `${name}/*`]),
    // Readable stack traces, and `.name`s as the packages set them: only white space and syntax are minified.
    keepNames: true,
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
    absWorkingDir: root,
  };
  const metafiles = [];
  const esbuild = (options) => build({ ...common, ...options }).then((r) => metafiles.push(r.metafile), (error) => fail(`esbuild: ${error.message}`));

  // The entries sit inside the repository so that esbuild resolves the packages from its node_modules.
  const entries = join(dist, '.vendor-entries');
  mkdirSync(entries, { recursive: true });
  const names = new Map();
  if (imported.length) {
    const entryPoints = [];
    for (const specifier of imported) {
      const name = vendorName(specifier);
      if ([...names.values()].includes(name)) fail(`two bundled imports map to vendor/${name}.js`);
      names.set(specifier, name);
      writeFileSync(join(entries, `${name}.mjs`), await entrySource(specifier));
      entryPoints.push({ in: join(entries, `${name}.mjs`), out: name });
    }
    await esbuild({ entryPoints, outdir: vendor, splitting: true, format: 'esm', banner: { js: BANNER }, chunkNames: 'chunks/[name]-[hash]' });
  }
  if (required.length) {
    writeFileSync(join(entries, 'required.cjs'), `module.exports = {\n${required.map((s) => `  ${JSON.stringify(s)}: require(${JSON.stringify(s)}),`).join('\n')}\n};\n`);
    await esbuild({ entryPoints: [join(entries, 'required.cjs')], outfile: join(vendor, REQUIRED), format: 'cjs' });
  }
  rmSync(entries, { recursive: true, force: true });
  if (metafiles.length === 0) return [];
  writeFileSync(join(vendor, 'LICENSES.md'), licenses(metafiles, root));

  // The compiled files load the vendor files instead of the packages.
  const loaders = new Set([...imported.flatMap((s) => imports.get(s)), ...required.flatMap((s) => requires.get(s))]);
  for (const file of loaders) {
    const text = readFileSync(file, 'utf8');
    const rewritten = text
      .replace(IMPORT, (whole, lead, quote, specifier) => (names.has(specifier) ? `${lead}${quote}${modulePath(file, join(vendor, `${names.get(specifier)}.js`))}${quote}` : whole))
      .replace(REQUIRE, (whole, quote, specifier) => (required.includes(specifier) ? `require(${quote}${modulePath(file, join(vendor, REQUIRED))}${quote})[${JSON.stringify(specifier)}]` : whole));
    if (rewritten !== text) writeFileSync(file, rewritten);
  }
  // Nothing the installed package lacks is loaded by name any more.
  const left = [...notInstalled(await importsByName(build, files, root)), ...notInstalled(requiresByName(files))];
  if (left.length) fail(`after bundling, dist/ still loads ${left.join(', ')} by name`);
  return [...new Set([...imported, ...required])];
}

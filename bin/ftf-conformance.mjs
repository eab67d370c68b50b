#!/usr/bin/env node
// The `ftf-conformance` command. In a clone with its devDependencies (the TypeScript sources are here and tsx, a
// devDependency, is installed) it loads the TypeScript CLI through tsx, no build step (a dist/ left by `npm pack` is
// then never used, so it cannot go stale). Everywhere else it loads the compiled JavaScript of dist/ (written by
// scripts/build-package.mjs): the installed package, which has no src/ and no tsx, and a clone installed with
// `npm ci --omit=dev` after `npm run build`. Nothing at run time needs tsx.
// Exit codes are a contract with CI (docs/cli.md): a missing runtime piece is 2 and a crash 3, never Node's
// default 1, which a CI gate would read as "non-conformant".
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundledHarness } from './bundle.mjs';

const CANNOT_START = 2;
const INTERNAL = 3;

function die(code, message) {
  process.stderr.write(`ftf-conformance: ${message}\n`);
  process.exit(code);
}

/** ERR_MODULE_NOT_FOUND names the package (or file) that a broken or partial install lacks. */
function missingModule(error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' && error?.code !== 'MODULE_NOT_FOUND') return undefined;
  const name = /Cannot find (?:package|module) '([^']+)'/.exec(String(error.message))?.[1] ?? String(error.message).split('\n')[0];
  // A relative require (a vendor file of the package, loaded by a compiled file): the file it names, absolute.
  const from = error.requireStack?.[0];
  return name.startsWith('.') && from ? resolve(dirname(from), name) : name;
}

const notInstalled = (missing) =>
  die(
    CANNOT_START,
    missing === 'tsx'
      ? `cannot start: 'tsx' is not installed. It runs the TypeScript sources of a clone and is a devDependency: run \`npm ci\` in ${new URL('..', import.meta.url).pathname}, or \`npm run build\` before \`npm ci --omit=dev\` to run the compiled dist/ (docs/package.md)`
      : missing.startsWith('/') || missing.startsWith('file:')
        ? `cannot start: the file '${missing}' is missing from the installation (a broken or partial install). Reinstall the package, or run \`npm ci\` in ${new URL('..', import.meta.url).pathname}`
        : `cannot start: '${missing}' is not installed. Run \`npm ci\` (or \`npm ci --omit=dev\`) in ${new URL('..', import.meta.url).pathname}`,
  );
const crash = (error) => die(INTERNAL, `internal error: ${error instanceof Error ? error.message : String(error)}`);
process.on('uncaughtException', crash);
process.on('unhandledRejection', crash);
// `ftf-conformance list | head`: the reader went away. What no one reads is dropped, and the command ends with its
// own exit code (never "internal error: write EPIPE", exit 3). Any other stream error is still a crash.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error?.code !== 'EPIPE') crash(error);
  });
}

const sources = new URL('../src/cli/main.ts', import.meta.url);
const compiled = new URL('../dist/src/cli/main.js', import.meta.url);

/** tsx (a devDependency) is installed beside the sources: false after `npm ci --omit=dev`. */
function tsxInstalled() {
  try {
    import.meta.resolve('tsx/esm/api');
    return true;
  } catch {
    return false;
  }
}

const hasSources = existsSync(sources);
const fromSources = hasSources && (tsxInstalled() || !existsSync(compiled));
if (!hasSources && !existsSync(compiled)) die(CANNOT_START, `cannot start: neither ${sources.pathname} nor ${compiled.pathname} exists (a broken install)`);

let cli;
try {
  if (fromSources) {
    // The sources bundled (bin/bundle.mjs), else through tsx. Without tsx this import names it: "'tsx' is not
    // installed" (exit 2); `npm ci`, or `npm run build` for dist/.
    const bundle = await bundledHarness(fileURLToPath(new URL('..', import.meta.url)));
    if (bundle) cli = await import(bundle.cli);
    else {
      const { register } = await import('tsx/esm/api');
      register();
      cli = await import(sources.href);
    }
  } else {
    cli = await import(compiled.href);
  }
} catch (error) {
  const missing = missingModule(error);
  if (missing) notInstalled(missing);
  crash(error);
}

// SIGINT/SIGTERM/SIGHUP: a running Playwright group is stopped and the run ends through main (exit 128+n);
// with nothing running the CLI exits at once with that code.
for (const signal of cli.FORWARDED_SIGNALS) {
  process.on(signal, () => {
    const code = cli.onSignal(signal);
    if (code !== undefined) die(code, `interrupted by ${signal}`);
  });
}
// main loads the command it runs on demand (and a command may load a dependency on first use): a package missing
// there is the same "cannot start" as one missing above.
try {
  // The process's own console only (in-process callers of main, e.g. tests, keep theirs untouched).
  cli.guardTerminalStreams();
  process.exitCode = await cli.main(process.argv.slice(2));
} catch (error) {
  const missing = missingModule(error);
  if (missing) notInstalled(missing);
  crash(error);
}
// The command's end is the process's end: Playwright run in this process (src/cli/in-process-runner.ts) leaves open
// what its own command closes by exiting (UI mode's server, say).
process.exit();

#!/usr/bin/env node
// The `ftf-conformance` command. In the repository (the TypeScript sources are here) it loads the TypeScript CLI
// through tsx (a runtime dependency, so a production install `npm ci --omit=dev` runs it and a clone needs no
// build step; a dist/ left by `npm pack` is never used, so it cannot go stale). In the installed package (no
// src/, only the compiled dist/ written by scripts/build-package.mjs) it loads the compiled JavaScript.
// Exit codes are a contract with CI (docs/cli.md): a missing runtime piece is 2 and a crash 3, never Node's
// default 1, which a CI gate would read as "non-conformant".
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { prestartRunner } from './runner-prestart.mjs';

const CANNOT_START = 2;
const INTERNAL = 3;

function die(code, message) {
  process.stderr.write(`ftf-conformance: ${message}\n`);
  process.exit(code);
}

/** ERR_MODULE_NOT_FOUND names the package (or file) that a broken or partial install lacks. */
function missingModule(error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' && error?.code !== 'MODULE_NOT_FOUND') return undefined;
  return /Cannot find (?:package|module) '([^']+)'/.exec(String(error.message))?.[1] ?? String(error.message).split('\n')[0];
}

const notInstalled = (missing) => die(CANNOT_START, `cannot start: '${missing}' is not installed. Run \`npm ci\` (or \`npm ci --omit=dev\`) in ${new URL('..', import.meta.url).pathname}`);
const crash = (error) => die(INTERNAL, `internal error: ${error instanceof Error ? error.message : String(error)}`);
process.on('uncaughtException', crash);
process.on('unhandledRejection', crash);

const sources = new URL('../src/cli/main.ts', import.meta.url);
const compiled = new URL('../dist/src/cli/main.js', import.meta.url);

const fromSources = existsSync(sources) || !existsSync(compiled);
// `run`/`certify`: Playwright's runner starts loading now, beside the CLI, and waits for its go (runner-prestart.mjs).
const prestarted = prestartRunner(process.argv.slice(2), fileURLToPath(new URL(fromSources ? '..' : '../dist', import.meta.url)));

let cli;
try {
  if (fromSources) {
    const { register } = await import('tsx/esm/api');
    register();
    cli = await import(sources.href);
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
  if (prestarted) cli.adoptPrestartedRunner(prestarted);
  process.exitCode = await cli.main(process.argv.slice(2));
} catch (error) {
  const missing = missingModule(error);
  if (missing) notInstalled(missing);
  crash(error);
} finally {
  // Not used (an error before the run, another selection of arguments): it goes now, not at exit.
  prestarted?.cancel();
}

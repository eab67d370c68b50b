#!/usr/bin/env node
// The `ftf-conformance` command. Loads the TypeScript CLI through tsx (a runtime dependency, so a production
// install `npm ci --omit=dev` runs it and a clone needs no build step).
// Exit codes are a contract with CI (docs/cli.md): a missing runtime piece is 2 and a crash 3, never Node's
// default 1, which a CI gate would read as "non-conformant".
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

const crash = (error) => die(INTERNAL, `internal error: ${error instanceof Error ? error.message : String(error)}`);
process.on('uncaughtException', crash);
process.on('unhandledRejection', crash);

let cli;
try {
  const { register } = await import('tsx/esm/api');
  register();
  cli = await import('../src/cli/main.ts');
} catch (error) {
  const missing = missingModule(error);
  if (missing) die(CANNOT_START, `cannot start: '${missing}' is not installed. Run \`npm ci\` (or \`npm ci --omit=dev\`) in ${new URL('..', import.meta.url).pathname}`);
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
process.exitCode = await cli.main(process.argv.slice(2));

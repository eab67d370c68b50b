// Playwright's runner, started by the CLI before it has checked anything (bin/runner-prestart.mjs) or when it runs
// Playwright (src/cli/gated-runner.ts):
//   node runner-gated.mjs <@playwright/test/cli.js>
// It loads Playwright while the CLI loads and checks the flags, the profile and the target, then waits for the go
// on fd 3, JSON: `args`, Playwright's arguments (`test` and what the user passed after `--`), and `env`, the run's
// environment changes ({ NAME: value, or null to unset }). Then it is `playwright <args>` exactly as Playwright's
// cli.js runs it, with the same process.argv. End of fd 3 without a go means the CLI is not
// running the suite (an error, a signal): the runner exits having printed nothing. End of fd 4 (the lifeline) means
// the CLI died: the runner's whole process group is killed.
import { createReadStream } from 'node:fs';
import { Socket } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const [cli] = process.argv.slice(2);
const requireHere = createRequire(cli);
const { program } = requireHere('playwright/lib/program');
// Warm what `playwright test` loads next, while the go is awaited. A cache warm only: a path a later Playwright moved
// changes nothing. Saves: one-scenario run, median of 7 alternating rounds, 11.6 s with it vs 12.9 s without (slower
// without in 6 of 7 pairs; load 4-8 on 2 cores, h28 00:15 UTC 2026-11-28, the command of runner-prestart.mjs).
for (const load of [
  () => requireHere('playwright/lib/runner'),
  () => requireHere('playwright/lib/transform/babelBundle'),
  () => requireHere(join(dirname(requireHere.resolve('playwright/package.json')), 'lib/cli/testActions.js')),
]) {
  try {
    load();
  } catch {
    // not there in this version
  }
}

// The lifeline (fd 4): the CLI holds its write end for as long as it lives and never writes to it. When it ends, the
// CLI is gone (killed with SIGKILL, say, which no signal forwarding can see): this runner and its workers (its
// process group: it leads one) stop at once instead of testing the target unsupervised and writing reports no
// leak scan will read. A runner started without a lifeline (by hand) has none to watch.
try {
  const lifeline = new Socket({ fd: 4, readable: true, writable: false });
  const orphaned = () => {
    try {
      process.kill(-process.pid, 'SIGKILL');
    } catch {
      // not a group leader: at least this process
    }
    process.kill(process.pid, 'SIGKILL');
  };
  lifeline.on('end', orphaned);
  lifeline.on('close', orphaned);
  lifeline.on('error', orphaned);
  lifeline.resume();
  lifeline.unref();
} catch {
  // no fd 4
}

const chunks = [];
const go = createReadStream('', { fd: 3 });
go.on('data', (chunk) => chunks.push(chunk));
go.on('error', () => process.exit(0));
go.on('end', () => {
  const text = Buffer.concat(chunks).toString('utf8');
  if (text === '') process.exit(0);
  const { args, env } = JSON.parse(text);
  for (const [name, value] of Object.entries(env)) {
    if (value === null) delete process.env[name];
    else process.env[name] = value;
  }
  process.argv = [process.argv[0], cli, ...args];
  program.parse(process.argv);
});

// Playwright's runner in a process of its own (src/cli/gated-runner.ts: selftest's passes, the TypeScript sources;
// a bundled `run` runs it in the CLI's process, src/cli/in-process-runner.ts):
//   node runner-gated.mjs <@playwright/test/cli.js> <playwright arguments…>
// It is `playwright <arguments>` exactly as Playwright's cli.js runs it, with the same process.argv, plus a lifeline:
// fd 3, a pipe the CLI holds and never writes. Its end means the CLI died (killed with SIGKILL, say, which no signal
// forwarding can see): the runner's whole process group (it leads one) is killed at once instead of testing the
// target unsupervised and writing reports no leak scan will read. A runner started without it (by hand) has none to watch.
import { Socket } from 'node:net';
import { createRequire } from 'node:module';

const [cli, ...args] = process.argv.slice(2);
try {
  const lifeline = new Socket({ fd: 3, readable: true, writable: false });
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
  // no fd 3
}
process.argv = [process.argv[0], cli, ...args];
createRequire(cli)('playwright/lib/program').program.parse(process.argv);

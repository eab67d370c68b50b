// Playwright's runner in a process of its own (src/cli/gated-runner.ts: selftest's passes, the TypeScript sources):
//   node runner-gated.mjs <@playwright/test/cli.js> <playwright arguments…>
// `playwright <arguments>` as Playwright's cli.js runs it, plus a lifeline: the IPC channel of the CLI that started it,
// never written. Its end means the CLI died (SIGKILL, say, which no signal forwarding sees): the runner's process group
// (it leads one) is killed at once, rather than test the target unsupervised and write reports no leak scan reads.
// A runner started by hand has no channel to watch.
import { createRequire } from 'node:module';

const [cli, ...args] = process.argv.slice(2);
if (process.channel) {
  process.channel.unref();
  process.once('disconnect', () => {
    try {
      process.kill(-process.pid, 'SIGKILL');
    } catch {
      // not a group leader: at least this process
    }
    process.kill(process.pid, 'SIGKILL');
  });
}
process.argv = [process.argv[0], cli, ...args];
createRequire(cli)('playwright/lib/program').program.parse(process.argv);

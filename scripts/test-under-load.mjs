#!/usr/bin/env node
// Runs the project's test command (default `npm test`; another one after `--`) with CPU-bound processes
// beside it (FTF_LOAD_PROCS, default 2), so the self-tests prove they do not depend on an idle machine.
// The burners end when the run ends, whatever happens: they are killed on exit and on signals, and each
// exits by itself when its IPC channel to this process closes (this process killed with SIGKILL).
// Exits with the test command's status (128 + n when it or this script was stopped by signal n); prints the
// burners' pids, the wall time and the load average. test/cli/test-under-load.test.ts runs it on small commands.
import { spawn } from 'node:child_process';
import { constants, loadavg } from 'node:os';

const sep = process.argv.indexOf('--');
const command = sep >= 0 ? process.argv.slice(sep + 1) : ['npm', 'test'];
const rawProcs = process.env.FTF_LOAD_PROCS ?? '2';
if (!/^\d+$/.test(rawProcs.trim()) || Number(rawProcs) > 64) {
  console.error(`test-under-load: FTF_LOAD_PROCS must be an integer from 0 to 64 (got '${rawProcs}')`);
  process.exit(2);
}
if (command.length === 0) {
  console.error('test-under-load: no command after --');
  process.exit(2);
}
const procs = Number(rawProcs);
const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');
const signalStatus = (signal) => 128 + (constants.signals[signal] ?? 1);

// A busy loop that yields every 100 ms so it can hear its parent go away.
const BURN = `process.on('disconnect', () => process.exit(0));
(async () => { for (;;) { const t = Date.now(); while (Date.now() - t < 100) {} await new Promise((r) => setImmediate(r)); } })();`;

const burners = Array.from({ length: procs }, () => spawn(process.execPath, ['-e', BURN], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] }));
const stopBurners = () => {
  for (const b of burners) if (b.exitCode === null && b.signalCode === null) b.kill('SIGKILL');
};
process.on('exit', stopBurners);
let child;
// Before anything is announced: a signal at any moment stops the command and the burners, and names itself in the status.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    child?.kill(signal);
    stopBurners();
    process.exit(signalStatus(signal));
  });
}

const started = Date.now();
console.log(`test-under-load: ${procs} CPU-bound process(es) (pids ${burners.map((b) => b.pid).join(',') || 'none'}) beside \`${command.join(' ')}\` (load average ${load()})`);
child = spawn(command[0], command.slice(1), { stdio: 'inherit' });
child.on('error', (error) => {
  console.error(`test-under-load: cannot start \`${command.join(' ')}\`: ${error.message}`);
  process.exit(2);
});
child.on('exit', (code, signal) => {
  stopBurners();
  const status = code ?? (signal ? signalStatus(signal) : 0);
  console.log(`test-under-load: \`${command.join(' ')}\` exited ${status}${signal ? ` (${signal})` : ''} after ${((Date.now() - started) / 1000).toFixed(1)} s with ${procs} burner(s); load average ${load()}`);
  process.exit(status);
});

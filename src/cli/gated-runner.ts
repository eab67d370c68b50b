/**
 * `playwright test` in a process of its own, bin/runner-gated.mjs: it leads its own process group and watches its
 * lifeline (the IPC channel to this process, never written), dying with the CLI even when the CLI is killed with
 * SIGKILL, which no signal forwarding sees.
 */
import { spawn, type ChildProcess, type IOType } from 'node:child_process';
import { resolve } from 'node:path';
import { PACKAGED, REPO_ROOT } from '../harness/repo-root.js';

export function startGatedRunner(cli: string, args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv; stdio?: readonly [IOType | number, IOType | number, IOType | number] }): ChildProcess {
  const gated = resolve(REPO_ROOT, PACKAGED ? '..' : '.', 'bin', 'runner-gated.mjs');
  const [stdin, stdout, stderr] = options.stdio ?? ['inherit', 'inherit', 'inherit'];
  return spawn(process.execPath, [gated, cli, ...args], { cwd: options.cwd, env: options.env, stdio: [stdin, stdout, stderr, 'ipc'], detached: true });
}

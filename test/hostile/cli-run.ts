/**
 * `ftf-conformance run` (bin/ftf-conformance.mjs) as a user starts it, in its own process group, output
 * collected, the group killed at `timeoutMs`. Environment entries set to undefined are removed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '../../src/harness/repo-root.js';
import { runBounded } from '../../src/selftest/catalogue-run.js';

export interface CliRun {
  code: number | null;
  killed: boolean;
  stdout: string;
  stderr: string;
}

export function cliEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const full: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0', ...env };
  for (const [k, v] of Object.entries(full)) if (v === undefined) delete full[k];
  return full;
}

/** Starts the CLI; `done` resolves when it has exited and its output is closed. */
export function startCli(args: string[], env: Record<string, string | undefined>, timeoutMs: number): { child: ChildProcess; done: Promise<CliRun> } {
  const child = spawn(process.execPath, [join(REPO_ROOT, 'bin/ftf-conformance.mjs'), ...args], { cwd: REPO_ROOT, env: cliEnv(env), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  let killed = false;
  const timer = setTimeout(() => {
    killed = true;
    if (child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }, timeoutMs);
  const done = new Promise<CliRun>((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, killed, stdout, stderr });
    }),
  );
  return { child, done };
}

export async function runCli(args: string[], env: Record<string, string | undefined>, timeoutMs: number): Promise<CliRun> {
  const r = await runBounded([join(REPO_ROOT, 'bin/ftf-conformance.mjs'), ...args], { env: cliEnv(env), timeoutMs });
  return { code: r.exitCode, killed: r.killed, stdout: r.stdout, stderr: r.stderr };
}

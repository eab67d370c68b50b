/**
 * Killing a run leaves nothing behind: SIGTERM or SIGINT sent to the CLI's pid only (as a CI runner or a
 * timeout does) ends Playwright (in the CLI's process for a bundled `run`, in a gated runner for selftest), its
 * workers (which host the per-worker reference servers) and the server the CLI started, and the CLI exits
 * 128 + signal (docs/cli.md). Linux only: the process tree is read from /proc.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { killGraceMs, onSignal, signalExitCode } from '../../src/cli/process-group.js';
import { REPO_ROOT } from '../../src/harness/repo-root.js';
import { alive, commandOf, descendants, envOf, processes, until } from './procs.js';

const dir = mkdtempSync(join(tmpdir(), 'ftf-cli-signals-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const GRACE_MS = 5000;
/** Playwright start-up on a loaded machine, then the grace, then the CLI's own teardown. */
const START_BOUND_MS = 120_000;
const EXIT_BOUND_MS = killGraceMs({ FTF_KILL_GRACE_MS: String(GRACE_MS) }) + 30_000;
const TEARDOWN_BOUND_MS = 5_000;
/** Two waits for start-up (the workers, then one past exec), the exit, the teardown. */
const TEST_BOUND_MS = 2 * START_BOUND_MS + EXIT_BOUND_MS + TEARDOWN_BOUND_MS + 10_000;

async function interruptRun(signal: 'SIGTERM' | 'SIGINT', args: string[], command: string[] = ['run', '--no-report']): Promise<void> {
  const reports = join(dir, signal + command[0], 'reports');
  const env: NodeJS.ProcessEnv = { ...process.env, FTF_REPORTS_DIR: reports, FTF_WORKERS: '2', FTF_KILL_GRACE_MS: String(GRACE_MS), CI: '1' };
  delete env.FTF_TARGET;
  const child = spawn(process.execPath, [join(REPO_ROOT, 'bin/ftf-conformance.mjs'), ...command, ...args], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stdout.resume();
  child.stderr.on('data', (d: Buffer) => void (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const cli = child.pid!;

  // Playwright is running its workers: children of the process running Playwright, the CLI itself (a bundled `run`:
  // cli/in-process-runner.ts) or its gated runner (selftest, the TypeScript sources: CLI -> runner -> worker).
  const worker = await until('Playwright workers started', START_BOUND_MS, () => descendants(cli).find((p) => commandOf(p.pid).includes('workerProcessEntry')));
  const runner = worker.ppid === cli ? { pid: cli, pgrp: -1 } : descendants(cli).find((p) => p.pid === worker.ppid)!;
  // /proc shows a process's environment as it was at exec. A worker between fork and exec still shows its parent's
  // (no FTF_BASE_URL; seen in CI on a loaded machine): with --target, wait for one that has exec'd.
  const serverOfWorkers = (): string | undefined => descendants(runner.pid).map((p) => envOf(p.pid, 'FTF_BASE_URL')).find((url) => url !== undefined);
  const cliServer = args.includes('--target')
    ? await until('a Playwright worker started with the URL of the CLI\'s server (FTF_BASE_URL)', START_BOUND_MS, serverOfWorkers)
    : serverOfWorkers();
  const tree = runner.pid === cli ? descendants(cli) : [runner, ...descendants(runner.pid)];
  if (runner.pid !== cli) assert.ok(tree.every((p) => p.pgrp === runner.pid), 'a gated runner and its workers share one process group');

  child.kill(signal);
  const code = await Promise.race([exited, sleep(EXIT_BOUND_MS, undefined, { ref: false }).then(() => 'timeout' as const)]);
  assert.notEqual(code, 'timeout', `the CLI did not exit within ${EXIT_BOUND_MS} ms after ${signal}`);
  assert.equal(code, signal === 'SIGTERM' ? 143 : 130, err);
  assert.match(err, new RegExp(`FTF_E_INTERRUPTED: interrupted by ${signal}: .*Playwright and its workers.* stopped, no verdict`));
  const left = () => [...tree.filter((p) => alive(p.pid)), ...processes().filter((p) => p.pgrp === runner.pid && alive(p.pid))];
  // A process SIGKILLed as the CLI exits is still in /proc while the kernel tears it down: a short bound, not zero.
  await until(`no process of the run left after ${signal}`, TEARDOWN_BOUND_MS, () => (left().length === 0 ? true : undefined)).catch(() =>
    assert.deepEqual(left(), [], `processes of the run survived ${signal}`),
  );
  if (cliServer) {
    await assert.rejects(fetch(`${cliServer}/health`, { signal: AbortSignal.timeout(5000) }), `the server the CLI started (${cliServer}) is closed`);
  }
  assert.equal(existsSync(join(reports, 'verdicts.json')), false, 'an interrupted run writes no verdict');
}

test('SIGTERM to the CLI ends Playwright, its workers and the CLI\'s own server; exit 143', { timeout: TEST_BOUND_MS }, async () => {
  // A non-default embedded profile: the CLI itself starts the reference server and shares it with Playwright.
  await interruptRun('SIGTERM', ['--target', join(REPO_ROOT, 'fixtures/targets/reference-production.yaml')]);
});

test('SIGINT to the CLI ends Playwright and its per-worker servers; exit 130', { timeout: TEST_BOUND_MS }, async () => {
  await interruptRun('SIGINT', []);
});

test('with no child group running a signal is answered at once with 128 + signal (SIGHUP 129, SIGINT 130, SIGTERM 143)', () => {
  assert.deepEqual([onSignal('SIGHUP'), onSignal('SIGINT'), onSignal('SIGTERM')], [129, 130, 143]);
  assert.equal(signalExitCode('SIGTERM'), 143);
  assert.equal(killGraceMs({ FTF_KILL_GRACE_MS: 'soon' }), killGraceMs({}), 'a bad grace falls back to the default');
});

test('SIGTERM to `selftest` ends the mutation pass\'s Playwright and its workers; exit 143', { timeout: TEST_BOUND_MS }, async () => {
  await interruptRun('SIGTERM', ['--faults', 'token-no-expires-in'], ['selftest']);
});

/**
 * Killing a run leaves nothing behind: SIGTERM or SIGINT sent to the CLI's pid only (as a CI runner or a
 * timeout does) ends Playwright, its workers (which host the per-worker reference servers) and the server
 * the CLI started, and the CLI exits 128 + signal (docs/cli.md). Linux only: the process tree is read from /proc.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { killGraceMs, onSignal, signalExitCode } from '../../src/cli/process-group.js';
import { REPO_ROOT } from '../../src/harness/repo-root.js';

const dir = mkdtempSync(join(tmpdir(), 'ftf-cli-signals-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const GRACE_MS = 5000;
/** Playwright start-up on a loaded machine, then the grace, then the CLI's own teardown. */
const START_BOUND_MS = 120_000;
const EXIT_BOUND_MS = killGraceMs({ FTF_KILL_GRACE_MS: String(GRACE_MS) }) + 30_000;
const POLL_MS = 100;

interface Proc {
  pid: number;
  ppid: number;
  pgrp: number;
}

function processes(): Proc[] {
  const out: Proc[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // Fields after "(comm)": state ppid pgrp ...; comm may contain spaces and parentheses.
      const [, ppid, pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.push({ pid: Number(name), ppid: Number(ppid), pgrp: Number(pgrp) });
    } catch {
      // the process ended while we looked
    }
  }
  return out;
}

function descendants(root: number): Proc[] {
  const all = processes();
  const found: Proc[] = [];
  let frontier = [root];
  while (frontier.length) {
    const next = all.filter((p) => frontier.includes(p.ppid));
    found.push(...next);
    frontier = next.map((p) => p.pid);
  }
  return found;
}

const alive = (pid: number): boolean => {
  try {
    const state = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) Z /.test(state);
  } catch {
    return false;
  }
};

async function until<T>(what: string, boundMs: number, probe: () => T | undefined): Promise<T> {
  for (let waited = 0; waited < boundMs; waited += POLL_MS) {
    const v = probe();
    if (v !== undefined) return v;
    await sleep(POLL_MS);
  }
  throw new Error(`${what}: not within ${boundMs} ms`);
}

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

  // Playwright is running its workers: a grandchild of the CLI (CLI -> runner -> worker).
  // The CLI may have other children (tsx's esbuild service on a cold cache): the runner is the one with children.
  const runner = await until('Playwright workers started', START_BOUND_MS, () => {
    const tree = descendants(cli);
    return tree.filter((p) => p.ppid === cli).find((top) => tree.some((p) => p.ppid === top.pid));
  });
  const environ = readFileSync(`/proc/${runner.pid}/environ`, 'utf8').split('\0');
  const cliServer = environ.find((v) => v.startsWith('FTF_BASE_URL='))?.slice('FTF_BASE_URL='.length);
  const tree = [runner, ...descendants(runner.pid)];
  assert.ok(tree.every((p) => p.pgrp === runner.pid), 'Playwright and its workers share one process group');

  child.kill(signal);
  const code = await Promise.race([exited, sleep(EXIT_BOUND_MS, undefined, { ref: false }).then(() => 'timeout' as const)]);
  assert.notEqual(code, 'timeout', `the CLI did not exit within ${EXIT_BOUND_MS} ms after ${signal}`);
  assert.equal(code, signal === 'SIGTERM' ? 143 : 130, err);
  assert.match(err, new RegExp(`FTF_E_INTERRUPTED: interrupted by ${signal}: .*Playwright and its workers.* stopped, no verdict`));
  const left = [...tree.filter((p) => alive(p.pid)), ...processes().filter((p) => p.pgrp === runner.pid && alive(p.pid))];
  assert.deepEqual(left, [], `processes of the run survived ${signal}`);
  if (cliServer) {
    await assert.rejects(fetch(`${cliServer}/health`, { signal: AbortSignal.timeout(5000) }), `the server the CLI started (${cliServer}) is closed`);
  }
  assert.equal(existsSync(join(reports, 'verdicts.json')), false, 'an interrupted run writes no verdict');
}

test('SIGTERM to the CLI ends Playwright, its workers and the CLI\'s own server; exit 143', { timeout: START_BOUND_MS + EXIT_BOUND_MS + 10_000 }, async () => {
  // A non-default embedded profile: the CLI itself starts the reference server and shares it with Playwright.
  await interruptRun('SIGTERM', ['--target', join(REPO_ROOT, 'fixtures/targets/reference-production.yaml')]);
});

test('SIGINT to the CLI ends Playwright and its per-worker servers; exit 130', { timeout: START_BOUND_MS + EXIT_BOUND_MS + 10_000 }, async () => {
  await interruptRun('SIGINT', []);
});

test('with no child group running a signal is answered at once with 128 + signal (SIGHUP 129, SIGINT 130, SIGTERM 143)', () => {
  assert.deepEqual([onSignal('SIGHUP'), onSignal('SIGINT'), onSignal('SIGTERM')], [129, 130, 143]);
  assert.equal(signalExitCode('SIGTERM'), 143);
  assert.equal(killGraceMs({ FTF_KILL_GRACE_MS: 'soon' }), killGraceMs({}), 'a bad grace falls back to the default');
});

test('SIGTERM to `selftest` ends the mutation pass\'s Playwright and its workers; exit 143', { timeout: START_BOUND_MS + EXIT_BOUND_MS + 10_000 }, async () => {
  await interruptRun('SIGTERM', ['--faults', 'token-no-expires-in'], ['selftest']);
});

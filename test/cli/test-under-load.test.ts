/**
 * scripts/test-under-load.sh (docs/robustness.md "Tests on a busy machine"): it passes the test command's status
 * through, its burners are gone when it ends (normally or stopped by a signal), and bad input exits 2. Run on tiny
 * commands with one burner; the full `npm test` under load is run by hand (it is the whole suite).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT } from '../../src/harness/repo-root.js';

const SCRIPT = join(REPO_ROOT, 'scripts/test-under-load.sh');

function runScript(args: string[], env: NodeJS.ProcessEnv = {}, onStart?: (pid: number) => void): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', [SCRIPT, ...args], { env: { ...process.env, FTF_LOAD_PROCS: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString('utf8');
      if (onStart && /pids /.test(out)) {
        onStart(child.pid!);
        onStart = undefined;
      }
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

const burnerPids = (out: string): number[] => (/pids ([\d,]+)/.exec(out)?.[1] ?? '').split(',').filter(Boolean).map(Number);
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
/** A burner killed a moment ago may still be reaped by its parent: poll (bounded by the poll count, not a clock guess). */
async function gone(pids: number[]): Promise<boolean> {
  for (let i = 0; i < 100 && pids.some(alive); i++) await new Promise((r) => setTimeout(r, 20));
  return !pids.some(alive);
}

test("the test command's status passes through; the burners are gone afterwards", async () => {
  const r = await runScript(['--', process.execPath, '-e', 'process.exit(3)']);
  assert.equal(r.code, 3, r.err);
  const pids = burnerPids(r.out);
  assert.equal(pids.length, 1, r.out);
  assert.match(r.out, /exited 3 after [\d.]+ s with 1 burner\(s\); load average/);
  assert.ok(await gone(pids), 'the burner ended with the run');
  assert.equal((await runScript(['--', process.execPath, '-e', '0'])).code, 0);
});

test('stopped by SIGTERM: exit 143, the command and the burners stopped too', async () => {
  let pid = 0;
  const r = await runScript(['--', process.execPath, '-e', 'setTimeout(() => {}, 60_000)'], {}, (p) => {
    pid = p;
    process.kill(p, 'SIGTERM');
  });
  assert.ok(pid > 0);
  assert.equal(r.code, 143, r.err);
  assert.ok(await gone(burnerPids(r.out)));
});

test('bad input exits 2 with the reason: a count that is no integer, a command that cannot start', async () => {
  const bad = await runScript(['--', 'true'], { FTF_LOAD_PROCS: 'two' });
  assert.equal(bad.code, 2);
  assert.match(bad.err, /FTF_LOAD_PROCS must be an integer/);
  const missing = await runScript(['--', 'no-such-command-ftf']);
  assert.equal(missing.code, 2);
  assert.match(missing.err, /cannot start `no-such-command-ftf`/);
  assert.ok(await gone(burnerPids(missing.out)));
});

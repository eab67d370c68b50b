/**
 * The runner dies with the CLI (issue 29 item 4). A CI job killed with SIGKILL (a timeout, an OOM kill) takes
 * only the CLI's pid: no signal handler runs, so nothing forwards it. Here `ftf-conformance run` tests the hostile
 * stub (every request answered 502 at once, so requests keep coming), the CLI alone is SIGKILLed, and then no request
 * may reach the target and every process the CLI had started must be gone. Both homes of the runner: the CLI's own
 * process (a bundled run, src/cli/in-process-runner.ts: each worker watches its IPC channel and kills itself) and a
 * gated runner (the TypeScript sources, FTF_CACHE_DIR=off, bin/runner-gated.mjs: it leads its own process group,
 * watches its IPC channel to the CLI and kills the group). (The next run in that reports folder removes what the
 * dead run wrote: test/hostile/reports-folder.test.ts.)
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startCli } from './cli-run.js';
import { hostileEnv, hostileSecrets } from './profile.js';
import { startHostileStub } from './stub.js';

const dir = mkdtempSync(join(tmpdir(), 'ftf-orphan-'));
const leftovers: number[] = [];
after(() => {
  // Whatever survived (older code): ended by pid, group first.
  for (const pid of leftovers) {
    for (const target of [-pid, pid]) {
      try {
        process.kill(target, 'SIGKILL');
      } catch {
        // gone
      }
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

/** Direct children of `pid` (Linux /proc). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) out.push(Number(name));
    } catch {
      // exited meanwhile
    }
  }
  return out;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

const total = (seen: Map<string, number>): number => [...seen.values()].reduce((a, b) => a + b, 0);

for (const [home, extra] of [['in the CLI\'s process', {}], ['in a gated runner', { FTF_CACHE_DIR: 'off' }]] as const) {
  it(`SIGKILL of the CLI leaves no runner testing the target (Playwright ${home})`, { timeout: 150_000, skip: process.platform !== 'linux' ? 'reads /proc' : false }, async () => {
    const stub = await startHostileStub('html-502');
    try {
      const cli = startCli(['run', '--no-report', '--', '--workers=2', `--output=${join(dir, 'out', home)}`], { ...hostileEnv(stub.url, hostileSecrets()), ...extra, FTF_REPORTS_DIR: join(dir, 'reports', home) }, 110_000);
      const pid = cli.child.pid as number;
      for (let i = 0; i < 900 && total(stub.seen) < 4; i++) await sleep(100);
      assert.ok(total(stub.seen) >= 4, 'the run is testing the target');
      const started = childrenOf(pid);
      leftovers.push(...started);
      assert.ok(started.length > 0, 'the CLI has started the runner');
      const exited = new Promise((resolve) => cli.child.once('exit', resolve));
      process.kill(pid, 'SIGKILL');
      // 'exit', not the end of its output: an orphaned runner would still hold the CLI's stdout.
      await exited;
      // The IPC channels end with the CLI; the runner kills its group (the workers themselves) at once. A moment for the kernel to deliver it.
      await sleep(2_000);
      const before = total(stub.seen);
      await sleep(6_000);
      const later = total(stub.seen) - before;
      const survivors = started.filter(alive);
      assert.equal(later, 0, `${later} requests reached the target after the CLI was killed (processes still alive: ${survivors.join(', ') || 'none'})`);
      assert.deepEqual(survivors, [], 'every process the CLI started is gone');
    } finally {
      await stub.close();
    }
  });
}

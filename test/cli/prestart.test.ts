/**
 * The runner the bin starts early (bin/runner-prestart.mjs, bin/runner-gated.mjs, src/cli/prestarted-runner.ts):
 * it is used for any `playwright` arguments (they come with its go) when the environment differs in FTF_* variables alone, the run's
 * variables reach its workers, and when the CLI does not run the suite it goes without a trace or a line of output.
 * Linux only: processes are read from /proc.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { adoptPrestartedRunner, ftfDelta, takePrestartedRunner, type PrestartedRunner } from '../../src/cli/prestarted-runner.js';
import { playwrightCli } from '../../src/cli/playwright.js';
import { REPO_ROOT } from '../../src/harness/repo-root.js';
import { workerNodeOptions } from '../../src/harness/worker-heap.js';
import { alive, commandOf, envOf, processes, until } from './procs.js';
import { readRunSettings } from '../../src/shared/run-settings.js';

const dir = mkdtempSync(join(tmpdir(), 'ftf-cli-prestart-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Playwright start-up and one scenario on a loaded machine. */
const RUN_BOUND_MS = 120_000;

describe('the hand-over', () => {
  test('ftfDelta: only FTF_* differences (and the bundled runner\'s switch) make a delta; an unset variable is null', () => {
    assert.deepEqual(ftfDelta({ PATH: '/bin', FTF_A: '1', FTF_GONE: 'x' }, { PATH: '/bin', FTF_A: '2', FTF_NEW: '3' }), { FTF_A: '2', FTF_GONE: null, FTF_NEW: '3' });
    assert.deepEqual(ftfDelta({ PATH: '/bin' }, { PATH: '/bin' }), {});
    assert.equal(ftfDelta({ PATH: '/bin' }, { PATH: '/usr/bin' }), undefined, 'Playwright may read any other variable while it loads');
    assert.equal(ftfDelta({}, { NODE_OPTIONS: '--x' }), undefined);
    assert.deepEqual(ftfDelta({}, { PW_DISABLE_TS_ESM: '1' }), { PW_DISABLE_TS_ESM: '1' }, 'read when the config loads (src/shared/bundle.ts)');
  });

  /** A runner that records what it was told. */
  function fakeRunner(over: Partial<Pick<PrestartedRunner, 'usable' | 'cwd'>> = {}): PrestartedRunner & { told: string[] } {
    const told: string[] = [];
    return {
      child: { pid: 1 } as ChildProcess,
      cli: '/pw/cli.js',
      env: { PATH: '/bin' },
      cwd: '/repo',
      usable: true,
      ...over,
      go: (args, delta) => void told.push(`go ${JSON.stringify(args)} ${JSON.stringify(delta)}`),
      cancel: () => void told.push('cancel'),
      told,
    };
  }

  test('taken when it runs the same cli.js in the same folder and only FTF_* variables differ, whatever the arguments; taken once', () => {
    const runner = fakeRunner();
    adoptPrestartedRunner(runner);
    assert.equal(takePrestartedRunner('/pw/cli.js', ['test', '--output', '/tmp/x'], '/repo', { PATH: '/bin', FTF_RUN: '{}' }), runner.child);
    assert.deepEqual(runner.told, ['go ["test","--output","/tmp/x"] {"FTF_RUN":"{}"}']);
    assert.equal(takePrestartedRunner('/pw/cli.js', ['test'], '/repo', { PATH: '/bin' }), undefined, 'a second run starts its own');
  });

  test('cancelled, and the caller starts Playwright afresh, for another folder or environment, or a runner that ended', () => {
    const cases: [string, Partial<Pick<PrestartedRunner, 'usable' | 'cwd'>>, string[], NodeJS.ProcessEnv][] = [
      ['another folder', { cwd: '/elsewhere' }, ['test'], { PATH: '/bin' }],
      ['a non-FTF variable changed', {}, ['test'], { PATH: '/usr/bin' }],
      ['ended on its own', { usable: false }, ['test'], { PATH: '/bin' }],
    ];
    for (const [what, over, args, env] of cases) {
      const runner = fakeRunner(over);
      adoptPrestartedRunner(runner);
      assert.equal(takePrestartedRunner('/pw/cli.js', args, '/repo', env), undefined, what);
      assert.deepEqual(runner.told, ['cancel'], what);
    }
  });
});

/** Runs the bin; `watch` is called every poll while it runs. */
function runBin(args: string[], env: NodeJS.ProcessEnv, watch: () => void = () => {}): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, [join(REPO_ROOT, 'bin/ftf-conformance.mjs'), ...args], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => void (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => void (out += d.toString()));
  const timer = setInterval(watch, 50);
  return new Promise((resolve) => child.once('close', (code) => {
    clearInterval(timer);
    resolve({ code, out });
  }));
}

/** Early runners started for this test (their environment carries the marker). */
const earlyRunners = (marker: string): number[] =>
  processes().filter((p) => alive(p.pid) && commandOf(p.pid).includes('runner-gated.mjs') && envOf(p.pid, 'FTF_PRESTART_TEST') === marker).map((p) => p.pid);

describe('through the bin', () => {
  test('a run that cannot start leaves no early runner and no Playwright output', { timeout: RUN_BOUND_MS }, async () => {
    const marker = randomUUID();
    const env: NodeJS.ProcessEnv = { ...process.env, FTF_PRESTART_TEST: marker, FTF_REPORTS_DIR: join(dir, 'bad', 'reports') };
    delete env.FTF_TARGET;
    let started = 0;
    const r = await runBin(['run', '--target', join(dir, 'no-such-profile.yaml')], env, () => void (started += earlyRunners(marker).length));
    assert.equal(r.code, 2, r.out);
    assert.ok(started > 0, 'an early runner was started (and so had to go)');
    assert.doesNotMatch(r.out, /Running \d+ test|playwright/i, 'the early runner printed nothing');
    // cancel() kills its group before the CLI exits; a last look for a straggler.
    await until('the early runner gone', RUN_BOUND_MS, () => (earlyRunners(marker).length === 0 ? true : undefined));
  });

  test('a run uses it: its workers are its children and see the variables the CLI decided after it started', { timeout: RUN_BOUND_MS }, async () => {
    const marker = randomUUID();
    const env: NodeJS.ProcessEnv = { ...process.env, FTF_PRESTART_TEST: marker, FTF_REPORTS_DIR: join(dir, 'ok', 'reports'), FTF_WORKERS: '1', CI: '1' };
    delete env.FTF_TARGET;
    const grep = '^amounts\\.indication-get:';
    const seen = new Set<string>();
    const workerOptions = new Set<string>();
    const parents = new Set<string | undefined>();
    // Arguments for Playwright after `--` come with the go: they do not make the CLI start a runner afresh.
    const r = await runBin(['run', '--no-report', '--grep', grep, '--', '--output', join(dir, 'ok', 'test-results')], env, () => {
      for (const runner of earlyRunners(marker)) {
        // A worker between fork and exec still shows the runner's command line and environment: not yet a worker.
        for (const worker of processes().filter((p) => p.ppid === runner && !commandOf(p.pid).includes('runner-gated.mjs'))) {
          // The early runner was started before the CLI decided the run's settings; one started afresh has them.
          parents.add(envOf(runner, 'FTF_RUN'));
          const settings = readRunSettings({ FTF_RUN: envOf(worker.pid, 'FTF_RUN') });
          if (settings.selection?.grep !== undefined) seen.add(settings.selection.grep);
          const options = envOf(worker.pid, 'NODE_OPTIONS');
          if (options !== undefined) workerOptions.add(options);
        }
      }
    });
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /1 passed/);
    assert.deepEqual([...seen], [grep], 'a worker of the early runner ran with the --grep the CLI parsed after the runner started');
    assert.deepEqual([...parents], [undefined], 'the workers\' runner is the early one (its environment has no run settings)');
    assert.deepEqual(earlyRunners(marker), []);
    assert.deepEqual([...workerOptions], [workerNodeOptions(process.env.NODE_OPTIONS)], 'the config gave the workers their heap ceiling (src/harness/worker-heap.ts)');
  });

  test('the gated runner exits at once, printing nothing, when its go pipe closes without a go', { timeout: RUN_BOUND_MS }, async () => {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'bin/runner-gated.mjs'), playwrightCli()], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => void (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => void (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    (child.stdio[3] as NodeJS.WritableStream).end();
    assert.equal(await exited, 0);
    assert.equal(out, '');
  });
});

/**
 * Playwright in the CLI's own process (src/cli/in-process-runner.ts), against a stand-in for Playwright's program
 * that behaves as its `test` command does: it runs with the run's environment, arguments and working directory, forks
 * a worker, arms the 30-second fallback exit and ends with process.exit. Each case runs in a process of its own (it
 * replaces process.exit and sends itself SIGINT), and the end of the run by the real suite is checked beside.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, test } from 'node:test';
import { REPO_ROOT } from '../../src/harness/repo-root.js';
import { alive, commandOf, descendants, envOf, until } from './procs.js';

const dir = mkdtempSync(join(tmpdir(), 'ftf-in-process-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const RUN_BOUND_MS = 120_000;
const cli = join(dir, 'node_modules', '@playwright', 'test', 'cli.js');
mkdirSync(join(dir, 'node_modules', 'playwright', 'lib'), { recursive: true });
writeFileSync(join(dir, 'worker.cjs'), 'setInterval(() => {}, 1000);\n');
// The stand-in: what it saw, its worker's pid, then Playwright's ending (gracefullyProcessExitDoNotHang: a 30 s
// fallback exit and the exit proper once closing is done), or, with FAKE_MODE=signal, that ending on SIGINT.
writeFileSync(
  join(dir, 'node_modules', 'playwright', 'lib', 'program.js'),
  `const fs = require('node:fs');
exports.program = {
  parse(argv) {
    const worker = require('node:child_process').fork(${JSON.stringify(join(dir, 'worker.cjs'))}, [], { stdio: 'ignore' });
    fs.writeFileSync(process.env.FAKE_OUT, JSON.stringify({ argv, cwd: process.cwd(), run: process.env.FTF_RUN, own: process.env.FAKE_OWN ?? null, worker: worker.pid }));
    const end = (code) => {
      globalThis.fallbackExit = setTimeout(() => process.exit(99), 30000);
      Promise.resolve().then(() => process.exit(code));
    };
    if (process.env.FAKE_MODE === 'signal') process.on('SIGINT', () => end(130));
    else if (process.env.FAKE_MODE === 'loading') setInterval(() => {}, 1000); // no SIGINT handler, no end (a config still loading)
    else if (process.env.FAKE_MODE === 'stubborn') {
      // Watching for SIGINT, but its workers' teardown never ends: it ends when its worker dies.
      process.on('SIGINT', () => {});
      worker.on('exit', () => end(130));
    }
    else end(1);
  },
};
`,
);

/** Runs runInProcess in a fresh process; `signal`: sent to it (as the bin's handler would) once the run started. */
function drive(name: string, signal?: 'SIGTERM', mode = signal ? 'signal' : 'exit', graceMs = 60_000, exitCode = 0): Promise<{ result: Record<string, unknown>; seen: Record<string, unknown>; stderr: string }> {
  const out = join(dir, `${name}.json`);
  const driver = join(dir, `${name}.mts`);
  writeFileSync(
    driver,
    `import { runInProcess } from ${JSON.stringify(pathToFileURL(join(REPO_ROOT, 'src/cli/in-process-runner.ts')).href)};
import { onSignal } from ${JSON.stringify(pathToFileURL(join(REPO_ROOT, 'src/cli/process-group.ts')).href)};
const before = { env: { ...process.env }, argv: [...process.argv], cwd: process.cwd(), exit: process.exit, setTimeout: globalThis.setTimeout };
const env = { ...process.env, FTF_RUN: '{"fault":"x"}', FAKE_MODE: ${JSON.stringify(mode)} };
delete env.FAKE_OWN;
const running = runInProcess(${JSON.stringify(cli)}, ['test', '--workers', '1'], ${JSON.stringify(dir)}, env, ${graceMs});
${signal ? `onSignal(${JSON.stringify(signal)});` : ''}
const result = await running;
console.log(JSON.stringify({
  result,
  restored: JSON.stringify(process.env) === JSON.stringify(before.env) && JSON.stringify(process.argv) === JSON.stringify(before.argv) && process.cwd() === before.cwd && process.exit === before.exit && globalThis.setTimeout === before.setTimeout,
  fallbackCleared: globalThis.fallbackExit?._destroyed === true,
}));
`,
  );
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', driver], { cwd: REPO_ROOT, env: { ...process.env, FAKE_OUT: out, FAKE_OWN: 'kept' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => void (text += d.toString()));
    child.stderr.on('data', (d: Buffer) => void (stderr += d.toString()));
    child.on('close', (code) => {
      try {
        assert.equal(code, exitCode, exitCode === 0 ? `the driver ended on its own, not through the exit Playwright called: ${stderr}` : stderr);
        resolve({ result: (exitCode === 0 ? JSON.parse(text.trim().split('\n').pop() ?? '{}') : {}) as Record<string, unknown>, seen: JSON.parse(readFileSync(out, 'utf8')) as Record<string, unknown>, stderr });
      } catch (e) {
        reject(e instanceof Error ? e : new Error(String(e)));
      }
    });
  });
}

describe('runInProcess', () => {
  test("Playwright's exit is the status; it ran with the run's environment, arguments and folder, all restored after; its fallback exit is cleared; a worker left running is killed", { timeout: RUN_BOUND_MS }, async () => {
    const { result, seen } = await drive('exit');
    assert.deepEqual(result.result, { status: 1 });
    assert.deepEqual(seen.argv, [process.execPath, cli, 'test', '--workers', '1']);
    assert.equal(seen.cwd, dir);
    assert.equal(seen.run, '{"fault":"x"}');
    assert.equal(seen.own, null, 'a variable the run leaves out is unset for Playwright');
    assert.equal(result.restored, true, 'environment, argv, folder, process.exit and setTimeout as before');
    assert.equal(result.fallbackCleared, true, 'the 30 s fallback exit would otherwise hold the CLI and end it');
    await until('the worker left running is gone', 10_000, () => (alive(seen.worker as number) ? undefined : true));
  });

  test('SIGTERM is handed to Playwright as a SIGINT: the run ends interrupted by SIGTERM', { timeout: RUN_BOUND_MS }, async () => {
    const { result } = await drive('signal', 'SIGTERM');
    assert.deepEqual(result.result, { status: 130, interruptedBy: 'SIGTERM' });
  });

  test('a Playwright that does not stop within the kill grace has its workers killed, and the run ends interrupted', { timeout: RUN_BOUND_MS }, async () => {
    const { result, seen } = await drive('stubborn', 'SIGTERM', 'stubborn', 200);
    assert.deepEqual(result.result, { status: 130, interruptedBy: 'SIGTERM' });
    assert.equal(alive(seen.worker as number), false);
  });

  test('a signal while Playwright watches for none (its config still loading) ends the CLI at once with 128 + signal, its workers killed', { timeout: RUN_BOUND_MS }, async () => {
    const { seen, stderr } = await drive('loading', 'SIGTERM', 'loading', 60_000, 143);
    assert.match(stderr, /interrupted by SIGTERM: Playwright was not running its tests; exiting, no verdict/);
    await until('the worker is gone', 10_000, () => (alive(seen.worker as number) ? undefined : true));
  });
});

test("a bundled run runs Playwright in the CLI's process: its workers are the CLI's children, with the run's settings", { timeout: RUN_BOUND_MS }, async () => {
  const env: NodeJS.ProcessEnv = { ...process.env, FTF_REPORTS_DIR: join(dir, 'reports'), FTF_WORKERS: '1' };
  delete env.FTF_TARGET;
  delete env.FTF_CACHE_DIR;
  const child = spawn(process.execPath, [join(REPO_ROOT, 'bin/ftf-conformance.mjs'), 'run', '--grep', '^token\\.', '--', `--output=${join(dir, 'out')}`], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => void (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => void (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  const worker = await until('a Playwright worker', RUN_BOUND_MS, () => descendants(child.pid!).find((p) => commandOf(p.pid).includes('workerProcessEntry') && envOf(p.pid, 'FTF_RUN') !== undefined));
  assert.equal(worker.ppid, child.pid, 'forked by the CLI itself');
  assert.match(envOf(worker.pid, 'FTF_RUN') ?? '', /"grep":"\^token\\\\\."/, 'the selection reaches the worker');
  assert.equal(await exited, 0, output);
  assert.match(output, /verdict: CONFORMANT/);
});

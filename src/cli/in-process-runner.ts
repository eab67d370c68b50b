/**
 * `playwright test` in the CLI's own process, its workers the CLI's children: no second Node loading Playwright
 * beside the CLI. Saves, one-scenario run: 2,371 vs 2,462 ms with the runner started early in a process of its own
 * (12 alternating rounds, idle; CPU 2,740 vs 3,030 ms; docs/performance.md, issue 28). For JavaScript only (the
 * bundle, src/shared/bundle.ts, or the installed package's dist/: the config, specs and reporters are the CLI's own
 * modules), once per process (Playwright keeps state between runs); else the gated runner (gated-runner.ts).
 *
 * Playwright ends its command with process.exit once it has closed what it opened: that call is the status (its
 * 30-second fallback exit is cleared). The run's environment, argv and working directory are set, then restored.
 * Signals are handed to Playwright as the SIGINT it stops its workers on; the escalations are below. A worker whose
 * IPC channel closes (the CLI gone) kills itself (specs/fixtures.ts).
 */
import childProcess, { type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { BUNDLE } from '../shared/bundle.js';
import { passThroughTerminal } from '../harness/report/redaction/terminal-text.js';
import { PACKAGED } from '../harness/repo-root.js';
import { onStopSignal, signalExitCode, type ForwardedSignal, type GroupResult } from './process-group.js';

/** gracefullyProcessExitDoNotHang (playwright-core): the exit it arms in case closing hangs. */
const FALLBACK_EXIT_MS = 30_000;

let used = false;

/** True when this process may run Playwright in process: JavaScript (the bundle, or the installed package's dist/), not yet run here. */
export const inProcessAvailable = (): boolean => (BUNDLE !== undefined || PACKAGED) && !used;

export async function runInProcess(cli: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv, graceMs: number): Promise<GroupResult> {
  used = true;
  const saved = { env: { ...process.env }, argv: process.argv, cwd: process.cwd(), exit: process.exit, setTimeout: globalThis.setTimeout };
  let interruptedBy: ForwardedSignal | undefined;
  let handingOver = false;
  let fallback: NodeJS.Timeout | undefined;
  let grace: NodeJS.Timeout | undefined;
  const exitNow = (signal: ForwardedSignal, why: string): never => {
    process.stderr.write(`ftf-conformance: interrupted by ${signal}: ${why}; exiting, no verdict\n`);
    return saved.exit.call(process, signalExitCode(signal));
  };
  // Playwright forks its workers through the module's `fork` (read at each call): the ones left running go with the run.
  const forked: ChildProcess[] = [];
  const killWorkers = (): void => {
    for (const child of forked) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  // As a gated runner's group: past the grace (or at a second signal) the workers are killed and Playwright, which
  // sees them gone, ends the run; a Playwright that still does not return within another grace ends the CLI.
  const escalate = (signal: ForwardedSignal): void => {
    killWorkers();
    if (grace) clearTimeout(grace);
    grace = saved.setTimeout(() => exitNow(signal, `Playwright did not end within ${graceMs} ms of its workers' kill`), graceMs);
  };
  // Playwright watches for SIGINT only while its tasks run: loading its config, or writing its reports after, it has
  // no handler, and a signal then would wait out two graces. (A gated runner simply dies of it.)
  const sigintBaseline = process.listenerCount('SIGINT');
  const stopListening = onStopSignal((signal) => {
    if (handingOver) return; // the SIGINT handed to Playwright below comes back here
    if (interruptedBy) return escalate(signal);
    interruptedBy = signal;
    if (process.listenerCount('SIGINT') <= sigintBaseline) {
      killWorkers();
      return exitNow(signal, 'Playwright was not running its tests');
    }
    if (signal !== 'SIGINT') {
      handingOver = true;
      process.emit('SIGINT');
      handingOver = false;
    }
    grace = saved.setTimeout(() => escalate(signal), graceMs);
  });
  const fork = childProcess.fork;
  childProcess.fork = ((...a: Parameters<typeof fork>) => {
    const child = fork(...a);
    forked.push(child);
    return child;
  }) as typeof fork;
  setEnvironment(env);
  process.argv = [process.execPath, cli, ...args];
  process.chdir(cwd);
  try {
    const status = await passThroughTerminal(
      () =>
        new Promise<number>((resolve, reject) => {
          globalThis.setTimeout = ((...a: Parameters<typeof setTimeout>) => {
            const timer = saved.setTimeout(...a);
            if (a[1] === FALLBACK_EXIT_MS) fallback = timer;
            return timer;
          }) as typeof setTimeout;
          process.exit = ((code?: number | string | null) => void resolve(Number(code ?? 0))) as typeof process.exit;
          try {
            const { program } = createRequire(cli)('playwright/lib/program') as { program: { parse(argv: string[]): void } };
            program.parse(process.argv);
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        }),
    );
    return { status, ...(interruptedBy ? { interruptedBy } : {}) };
  } finally {
    if (fallback) clearTimeout(fallback);
    if (grace) clearTimeout(grace);
    stopListening();
    globalThis.setTimeout = saved.setTimeout;
    childProcess.fork = fork;
    // An interrupted run returns without waiting for its workers (the Playwright command would exit): they stop here.
    killWorkers();
    process.exit = saved.exit;
    process.argv = saved.argv;
    process.chdir(saved.cwd);
    setEnvironment(saved.env);
  }
}

/** process.env becomes `env` (Playwright and the workers it forks read it). */
function setEnvironment(env: NodeJS.ProcessEnv): void {
  for (const name of Object.keys(process.env)) if (!(name in env)) delete process.env[name];
  for (const [name, value] of Object.entries(env)) if (value !== undefined) process.env[name] = value;
}

// Starts Playwright's runner before the CLI has loaded (bin/runner-gated.mjs), so that loading Playwright overlaps
// the CLI loading itself (tsx) and checking the flags, the profile and the target. The runner waits for the go:
// src/cli/playwright.ts opens it with the run's environment, or cancels it and runs Playwright afresh when it does
// not fit (another environment). Playwright's arguments come with the go, so any pass-through flags fit. Nothing the
// CLI does not use survives it: cancel() kills the group, and the CLI's exit does too.
// Saves: when it came in (88eb830), 2991 vs 3395 ms for a one-scenario run. On 2026-11-28 (63e055e, the one-scenario
// bench row) it measured within the noise: 10 alternating rounds idle 5023 vs 4983 ms with FTF_PRESTART=0, 6 rounds
// beside two busy loops 8846 vs 8671 ms; against a checkout without the early-runner code, 8-round comparisons came out
// 150-500 ms in its favour. Kept until a measurement says it can go (docs/performance.md, issue 28).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The early runner when the CLI's first argument names a command that runs `playwright test` (the only words of the
 * CLI's grammar read here: the flags are the CLI's alone, and a command line that runs no Playwright, such as
 * `run --help`, merely has its early runner cancelled unseen), or undefined (FTF_PRESTART=0 too).
 * `folder` holds playwright.config.
 */
export function prestartRunner(argv, folder) {
  if (!['run', 'certify'].includes(argv[0]) || process.env.FTF_PRESTART === '0') return undefined;
  let cli;
  try {
    cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
  } catch {
    return undefined; // the CLI names the missing package when it runs Playwright itself
  }
  const env = { ...process.env };
  const cwd = resolve(folder);
  let child;
  try {
    child = spawn(process.execPath, [fileURLToPath(new URL('./runner-gated.mjs', import.meta.url)), cli], {
      cwd,
      env,
      // fd 3: the go; fd 4: the lifeline, never written: it ends when this process does, however it ends.
      stdio: ['inherit', 'inherit', 'inherit', 'pipe', 'pipe'],
      detached: true,
    });
  } catch {
    return undefined;
  }
  const goPipe = child.stdio[3];
  const lifeline = child.stdio[4];
  lifeline.unref();
  lifeline.on('error', () => {});
  // Until it is opened the runner must not keep the CLI alive: a CLI that ends without running it just exits.
  child.unref();
  goPipe.unref();
  child.once('error', () => {});
  goPipe.on('error', () => {});
  let state = 'waiting';
  const cancel = () => {
    if (state !== 'waiting') return;
    state = 'cancelled';
    goPipe.destroy();
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  process.once('exit', cancel);
  return {
    child,
    cli,
    env,
    cwd,
    /** True while the runner waits for the go (not cancelled, not exited on its own). */
    get usable() {
      return state === 'waiting' && child.exitCode === null && child.signalCode === null;
    },
    /** Playwright's arguments and the run's environment changes (name → value, null to unset): it starts at once. */
    go(args, delta) {
      if (state !== 'waiting') throw new Error(`the early Playwright runner was ${state}`);
      state = 'opened';
      process.removeListener('exit', cancel);
      child.ref();
      goPipe.end(JSON.stringify({ args, env: delta }));
    },
    cancel,
  };
}

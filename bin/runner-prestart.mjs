// Starts Playwright's runner before the CLI has loaded (bin/runner-gated.mjs), so that loading Playwright (~0.4 s of
// a core) overlaps the CLI loading itself (tsx) and checking the flags, the profile and the target. The runner
// waits for the go: src/cli/playwright.ts opens it with the run's FTF_* environment, or the CLI runs Playwright
// afresh when this one does not fit (other arguments, another environment). Nothing the CLI does not use
// survives it: cancel() kills the group, and the CLI's exit does too.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Commands that start `playwright test` with no arguments of their own (the selection travels as FTF_* variables). */
const COMMANDS = new Set(['run', 'certify']);
/** Flags after which the command does not start Playwright, or starts it with arguments (after `--`). */
const NOT_PLAIN = new Set(['--', '--help', '-h', '--evaluate-only']);

/**
 * The early runner for `argv` (the CLI's arguments), or undefined when the command will not run a plain
 * `playwright test` (or FTF_PRESTART=0). `cwd` is the folder holding playwright.config.
 */
export function prestartRunner(argv, folder) {
  const [name, ...rest] = argv;
  if (!COMMANDS.has(name) || rest.some((a) => NOT_PLAIN.has(a)) || process.env.FTF_PRESTART === '0') return undefined;
  let cli;
  try {
    cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
  } catch {
    return undefined; // the CLI names the missing package when it runs Playwright itself
  }
  const env = { ...process.env };
  const cwd = resolve(folder);
  const args = ['test'];
  let child;
  try {
    child = spawn(process.execPath, [fileURLToPath(new URL('./runner-gated.mjs', import.meta.url)), cli, ...args], {
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
    args,
    env,
    cwd,
    /** True while the runner waits for the go (not cancelled, not exited on its own). */
    get usable() {
      return state === 'waiting' && child.exitCode === null && child.signalCode === null;
    },
    /** The run's environment changes (name → value, null to unset); the runner starts `playwright test` at once. */
    go(delta) {
      if (state !== 'waiting') throw new Error(`the early Playwright runner was ${state}`);
      state = 'opened';
      process.removeListener('exit', cancel);
      child.ref();
      goPipe.end(JSON.stringify(delta));
    },
    cancel,
  };
}

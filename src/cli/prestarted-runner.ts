/**
 * The hand-over of the runner the bin starts early (bin/runner-prestart.mjs, bin/runner-gated.mjs): loading
 * Playwright overlaps the CLI's own start and checks, and src/cli/playwright.ts takes it for the run's
 * `playwright test` when it fits. Kept apart from playwright.ts so that main() (which every command loads) stays light.
 */
import type { ChildProcess } from 'node:child_process';
import { BUNDLED_RUNNER_ENV } from '../shared/bundle.js';

/** The runner the bin started before the CLI loaded (bin/runner-prestart.mjs), waiting for its go. */
export interface PrestartedRunner {
  readonly child: ChildProcess;
  /** Playwright's cli.js, as the runner will run it. */
  readonly cli: string;
  /** The environment and working directory it was started with. */
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  readonly usable: boolean;
  /** Playwright's arguments (`test`, the pass-through flags) and the environment's changes: it starts at once. */
  go(args: readonly string[], delta: Record<string, string | null>): void;
  cancel(): void;
}

let prestarted: PrestartedRunner | undefined;

/** Called by the bin before main(): the next `playwright test` of this process may be this runner. */
export function adoptPrestartedRunner(runner: PrestartedRunner): void {
  prestarted = runner;
}

/** Playwright's variables that it reads when it loads the config (after the go), not while it loads itself. */
const READ_AFTER_GO = new Set(Object.keys(BUNDLED_RUNNER_ENV));

/**
 * The change from `started` to `wanted`, when it is only FTF_* variables (this project's own: read by the config
 * and the workers after the go, never by Playwright while it loads) and READ_AFTER_GO; undefined for any other difference.
 */
export function ftfDelta(started: NodeJS.ProcessEnv, wanted: NodeJS.ProcessEnv): Record<string, string | null> | undefined {
  const delta: Record<string, string | null> = {};
  for (const name of new Set([...Object.keys(started), ...Object.keys(wanted)])) {
    if (started[name] === wanted[name]) continue;
    if (!name.startsWith('FTF_') && !READ_AFTER_GO.has(name)) return undefined;
    delta[name] = wanted[name] ?? null;
  }
  return delta;
}

/**
 * The early runner, its go sent with `args`, when it runs `cli` in `cwd` and its environment differs from `env`
 * only in FTF_* variables; otherwise it is cancelled and undefined returned (the caller starts Playwright afresh).
 * Taken once: a second run in the same process (selftest, tests) always starts its own.
 */
export function takePrestartedRunner(cli: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): ChildProcess | undefined {
  const runner = prestarted;
  prestarted = undefined;
  if (!runner) return undefined;
  const delta = runner.usable && runner.cli === cli && runner.cwd === cwd ? ftfDelta(runner.env, env) : undefined;
  if (!delta) {
    runner.cancel();
    return undefined;
  }
  runner.go(args, delta);
  return runner.child;
}

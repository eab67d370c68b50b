/**
 * Runs Playwright (`playwright test`) in the repository: in the CLI's process (in-process-runner.ts) or a gated runner of
 * its own (gated-runner.ts). Swappable (`playwright.run = ...`) so CLI tests run without a browser.
 */
import { createRequire } from 'node:module';
import { bundledConfigArgs } from '../shared/bundle.js';
import { FtfError } from '../shared/errors.js';
import { reportsDir } from '../harness/report/reports-folder/paths.js';
import { REPO_ROOT } from '../harness/repo-root.js';
import { startGatedRunner } from './gated-runner.js';
import { selectionSettings, type SelectionFlags } from '../harness/scenario/selection.js';
import { InterruptedError, killGraceMs, superviseGroup } from './process-group.js';
import { inProcessAvailable, runInProcess } from './in-process-runner.js';
import { readRunSettings, runSettingsEnv, type RunSettings } from '../shared/run-settings.js';

export interface PlaywrightSelection extends SelectionFlags {
  /** Extra arguments after `--`, passed through untouched. */
  extra?: string[];
}

/**
 * `playwright test` plus the pass-through flags. --grep/--tag/--shard travel in the run's settings (playwrightEnv):
 * the spec files declare only what scenario/selection.ts picks, as `list`/`doctor`/`coverage` show.
 */
export function playwrightArgs(sel: PlaywrightSelection): string[] {
  return ['playwright', 'test', ...bundledConfigArgs(), ...(sel.extra ?? [])];
}

/**
 * The run's settings for the workers (shared/run-settings.ts: the selection and `settings`); a shard or a phase (a
 * part of one run) also writes a blob report (for `ftf-conformance merge`).
 */
export function playwrightEnv(sel: PlaywrightSelection, settings: RunSettings = {}): Record<string, string> {
  return { ...runSettingsEnv({ ...settings, selection: selectionSettings(sel) }), ...(sel.shard || sel.phase ? { FTF_BLOB_REPORT: '1' } : {}) };
}

/**
 * Playwright's own CLI, run with this Node: no `npx` (which would fetch a missing package from the registry).
 * Resolved like an import, so it is found both in the repository's node_modules and hoisted beside an installed
 * package (…/node_modules/ftf-conformance next to …/node_modules/@playwright/test).
 */
export function playwrightCli(): string {
  try {
    return createRequire(import.meta.url).resolve('@playwright/test/cli');
  } catch {
    throw new FtfError('FTF_E_RUNTIME_MISSING', '@playwright/test is not installed (its cli.js cannot be resolved)', { hint: 'run `npm ci` (or `npm ci --omit=dev`) in the harness folder' });
  }
}

/**
 * Playwright's environment: this process's, the reports folder, then the run's `env`. The run settings (FTF_RUN) are
 * this process's own (its caches) under the run's; a grant of production writes comes only from this run, never
 * inherited (target/mutation-grant.ts).
 */
export function runEnvironment(own: NodeJS.ProcessEnv, env: Record<string, string>): NodeJS.ProcessEnv {
  const { grant: _inherited, ...inherited } = readRunSettings(own);
  return { ...own, FTF_REPORTS_DIR: reportsDir(), ...env, ...runSettingsEnv({ ...inherited, ...readRunSettings(env) }) };
}

export const playwright = {
  async run(args: string[], env: Record<string, string>): Promise<number | null> {
    const cli = playwrightCli();
    // The reports folder is decided here, once (paths.ts): the config reads FTF_REPORTS_DIR, and Playwright's working
    // directory (the package root) is not where an installed package writes its reports.
    const runEnv = runEnvironment(process.env, env);
    const grace = killGraceMs(runEnv);
    const r = inProcessAvailable() ? await runInProcess(cli, args.slice(1), REPO_ROOT, runEnv, grace) : await superviseGroup(startGatedRunner(cli, args.slice(1), { cwd: REPO_ROOT, env: runEnv }), grace);
    if (r.interruptedBy) throw new InterruptedError(r.interruptedBy, 'Playwright and its workers were');
    return r.status;
  },
};

/**
 * Runs Playwright as a child process (its own CLI, no npx) and returns its parsed JSON report. Listing uses
 * the base config; mutation runs use playwright.mutation.config.ts with a plan file (the run setting `plan`,
 * shared/run-settings.ts). The child never sees FTF_TARGET, nor a fault or a mutation grant from our run settings:
 * the matrix always runs the embedded reference and the fault comes from each project's metadata.
 */
import { closeSync, copyFileSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { FtfError } from '../shared/errors.js';
import { InterruptedError, killGraceMs, superviseGroup } from '../cli/process-group.js';
import { startGatedRunner } from '../cli/gated-runner.js';
import { readRunSettings, runSettingsEnv, type RunSettings } from '../shared/run-settings.js';
import type { MutationPlan } from './plan.js';
import type { PwJsonReport } from './pw-report.js';

const require = createRequire(import.meta.url);
const PLAYWRIGHT_CLI = require.resolve('@playwright/test/cli');

export const MUTATION_CONFIG = 'playwright.mutation.config.ts';

function childEnv(extra: Record<string, string>, settings: RunSettings = {}): NodeJS.ProcessEnv {
  const { fault: _fault, grant: _grant, ...inherited } = readRunSettings(process.env);
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra, ...runSettingsEnv({ ...inherited, ...settings }) };
  delete env.FTF_TARGET;
  return env;
}

/** Runs the Playwright CLI; its console output (progress dots, failure details) goes to `logFile` or nowhere. */
// In its own process group: a signal to the CLI stops Playwright and its workers, which host the
// per-worker reference servers, and nothing of the group outlives the pass.
async function run(args: string[], env: NodeJS.ProcessEnv, cwd: string, logFile: string | null): Promise<number> {
  const out = logFile === null ? 'ignore' : openSync(logFile, 'a');
  try {
    // Through the gated runner: it also dies with this process when that is killed outright (SIGKILL).
    const r = await superviseGroup(startGatedRunner(PLAYWRIGHT_CLI, args, { cwd, env, stdio: ['ignore', out, out] }), killGraceMs(env));
    if (r.interruptedBy) throw new InterruptedError(r.interruptedBy, 'the mutation pass (Playwright and its workers) was');
    return r.status ?? 1;
  } finally {
    if (typeof out === 'number') closeSync(out);
  }
}

function readReport(file: string, what: string): PwJsonReport {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as PwJsonReport;
  } catch (cause) {
    throw new FtfError('FTF_E_MUTATION_NO_REPORT', `Playwright wrote no readable JSON report for ${what} (${file})`, {
      hint: 'run `npx playwright test --list` to see whether the suite loads; the error is printed above', cause,
    });
  }
}

/** Every test of the conformance suite with its annotations, without running anything. */
export async function listSuite(cwd: string, workDir: string): Promise<PwJsonReport> {
  const file = join(workDir, 'list.json');
  await run(['test', '--list', '--reporter=json'], childEnv({ PLAYWRIGHT_JSON_OUTPUT_FILE: file }), cwd, null);
  return readReport(file, 'the suite listing');
}

export interface RunPlanOptions {
  cwd: string;
  workDir: string;
  workers: number;
  /** Label of this pass, for file names and messages. */
  label: string;
  /** Playwright's console output is appended here (failure details of every project). */
  logFile: string;
  /** More environment for Playwright and its workers. */
  env?: Record<string, string>;
  /** Run settings for them (e.g. the selection, scenario/selection.ts selectionSettings). */
  settings?: RunSettings;
}

/** Runs the plan's projects in ONE Playwright invocation (workers shared across projects). */
export async function runPlan(plan: Omit<MutationPlan, 'reportFile' | 'outputDir'>, o: RunPlanOptions): Promise<PwJsonReport> {
  const reportFile = join(o.workDir, `${o.label}.json`);
  const outputDir = join(o.workDir, `${o.label}-output`);
  rmSync(reportFile, { force: true });
  mkdirSync(o.workDir, { recursive: true });
  const planFile = join(o.workDir, `${o.label}-plan.json`);
  writeFileSync(planFile, JSON.stringify({ ...plan, reportFile, outputDir } satisfies MutationPlan, null, 2));
  await run(['test', '-c', MUTATION_CONFIG, `--workers=${o.workers}`], childEnv(o.env ?? {}, { ...o.settings, plan: planFile }), o.cwd, o.logFile);
  const report = readReport(reportFile, `the ${o.label} pass`);
  // Kept next to the log for whoever investigates a verdict (the work dir is removed).
  copyFileSync(reportFile, join(dirname(o.logFile), `mutation-${o.label}.json`));
  return report;
}

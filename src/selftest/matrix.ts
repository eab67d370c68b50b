/**
 * runMutationMatrix(options): lists the suite (test titles + clause annotations), runs the clean reference and
 * every selected fault as Playwright projects of one invocation (targeted at the scenarios covering the
 * fault's clauses), runs the rest of the suite for faults not killed yet, and reduces it all to verdicts.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { FaultInfo } from '../reference/faults.js';
import { FtfError } from '../shared/errors.js';
import { formatMatrix, readSection, renderGrepSection, renderNoControlSection, sectionId, writeJsonReport, writeMarkdown, writeSection, type RunFacts } from './output.js';
import { CLOCK_ONLY_FAULTS, NO_CONTROL_PROFILE } from './no-control.js';
import { CLEAN_PRODUCTION_PROJECT, CLEAN_PROJECT, type PlanProject } from './plan.js';
import { listSuite, runPlan } from './playwright-run.js';
import { globalErrors, testsOf, type TestRecord } from './pw-report.js';
import { selectFaults, type Subset } from './subsets.js';
import { cleanResult, faultResult, matrixOk, type FaultResult, type MutationReport } from './verdict.js';

export interface MutationOptions {
  /** Only these faults (names). */
  faults?: string[];
  /** `ci`: the fixed CI subset. Ignored when `faults` is given. */
  subset?: Subset;
  /** Playwright workers; default: available cores. */
  workers?: number;
  /** Every fault runs the whole suite (no targeting). */
  full?: boolean;
  /**
   * Only the tests whose title matches this regular expression (clean run and faults alike): shows what
   * those tests kill on their own. Never rewrites the kill table of docs/mutation.md; with `writeDocs` it
   * writes its own section there (`grep-<pattern>`, kept by full runs).
   */
  grep?: string;
  /** Repository root (default: cwd). */
  cwd?: string;
  /** Default: reports/mutation.json. */
  jsonFile?: string;
  /** Playwright's console output of the runs; default reports/mutation-playwright.log. */
  logFile?: string;
  /**
   * `no-control`: every sandbox project loads the no-control profile (a sandbox without the control API);
   * faults only a clock can show (no-control.ts CLOCK_ONLY_FAULTS) are not run. Default `reference`.
   */
  mode?: 'reference' | 'no-control';
  /** Write docs/mutation.md (default: only when every fault ran, in reference mode). */
  writeDocs?: boolean;
  log?: (line: string) => void;
}

export interface MutationResult {
  report: MutationReport;
  /** Clean run without failures and every fault killed. */
  ok: boolean;
  wallMs: number;
  matrix: string;
  /** docs/mutation.md was rewritten (the whole matrix in reference mode, or --write-docs). */
  /** What the run wrote to docs/mutation.md: the whole page, its own --grep section, or nothing. */
  docsWritten: 'all' | 'section' | undefined;
}

/** Titles of the listed tests covering any of `clauses`. */
function coveringTitles(catalogue: readonly TestRecord[], clauses: readonly string[]): string[] {
  const wanted = new Set(clauses);
  return [...new Set(catalogue.filter((t) => t.clauses.some((c) => wanted.has(c))).map((t) => t.title))];
}

function byProject(records: readonly TestRecord[]): Map<string, TestRecord[]> {
  const m = new Map<string, TestRecord[]>();
  for (const r of records) m.set(r.project, [...(m.get(r.project) ?? []), r]);
  return m;
}

function assertUsable(errors: string[], what: string): void {
  if (errors.length > 0) {
    throw new FtfError('FTF_E_MUTATION_RUN_BROKEN', `${what} reported errors outside tests: ${errors[0]?.split('\n')[0] ?? ''}`, {
      hint: 'fix the suite first (`npx playwright test --list` shows the error); a broken run proves nothing about faults',
    });
  }
}

export async function runMutationMatrix(options: MutationOptions = {}): Promise<MutationResult> {
  const started = Date.now();
  const loadAtStart = loadavg();
  const log = options.log ?? ((line: string) => console.log(line));
  const cwd = resolve(options.cwd ?? process.cwd());
  const workers = options.workers ?? availableParallelism();
  const selected = selectFaults(options);
  // Production faults run against the reference in production mode (PlanProject.mode), so every fault runs,
  // except in no-control mode the faults only a clock can show (their reason goes into the matrix).
  const noControl = options.mode === 'no-control';
  const notRunnable: Record<string, string> = noControl
    ? Object.fromEntries(selected.filter((f) => CLOCK_ONLY_FAULTS[f.name] !== undefined).map((f) => [f.name, `not observable without a clock: ${CLOCK_ONLY_FAULTS[f.name] ?? ''}`]))
    : {};
  const runnable = selected.filter((f) => notRunnable[f.name] === undefined);
  const sandboxProfile: Pick<PlanProject, 'profile'> = noControl ? { profile: NO_CONTROL_PROFILE } : {};
  const modeOf = (f: FaultInfo): Pick<PlanProject, 'mode' | 'profile'> => (f.profile === 'production' ? { mode: 'production' } : sandboxProfile);
  const workDir = mkdtempSync(join(tmpdir(), 'ftf-mutation-'));
  const logFile = resolve(cwd, options.logFile ?? 'reports/mutation-playwright.log');
  mkdirSync(dirname(logFile), { recursive: true });
  writeFileSync(logFile, '');
  try {
    const listing = await listSuite(cwd, workDir);
    assertUsable(globalErrors(listing), 'listing the suite');
    const grep = options.grep !== undefined ? new RegExp(options.grep) : undefined;
    const catalogue = testsOf(listing).filter((t) => grep === undefined || grep.test(t.title));
    // With --grep every project runs only the selected titles (`only`), never the rest of the suite.
    const selectedTitles = grep === undefined ? undefined : [...new Set(catalogue.map((t) => t.title))];
    if (selectedTitles?.length === 0) throw new FtfError('FTF_E_MUTATION_RUN_BROKEN', `--grep ${options.grep} selects no test`, { hint: 'npx playwright test --list shows the titles' });
    const within = (titles: string[] | undefined): { only?: string[] } => (titles ?? selectedTitles) === undefined ? {} : { only: (titles ?? selectedTitles) as string[] };
    log(`mutation: ${new Set(catalogue.map((t) => t.title)).size} tests${grep ? ` (--grep ${options.grep})` : ''}, ${runnable.length} faults to run (${options.full ? 'full' : 'targeted'}), ${workers} worker(s); Playwright output: ${logFile}`);

    // A fault needs only to be caught with its clause named; shrinking a property's counterexample under every
    // fault costs more than the rest of the fault's scenarios (up to 20 s a fault). FTF_FC_END_ON_FAILURE=0 keeps it.
    const env = { FTF_FC_END_ON_FAILURE: process.env.FTF_FC_END_ON_FAILURE ?? '1' };
    const firstTitles = new Map<string, string[] | undefined>(runnable.map((f) => [f.name, options.full ? undefined : coveringTitles(catalogue, f.clauses)]));
    const pass1: PlanProject[] = [{ name: CLEAN_PROJECT, fault: null, ...sandboxProfile, ...within(undefined) }];
    if (runnable.some((f) => f.profile === 'production')) pass1.push({ name: CLEAN_PRODUCTION_PROJECT, fault: null, mode: 'production', ...within(undefined) });
    for (const f of runnable) {
      const only = firstTitles.get(f.name);
      if (only === undefined || only.length > 0) pass1.push({ name: f.name, fault: f.name, ...modeOf(f), ...within(only) });
    }
    log(`mutation: first pass, ${pass1.length} projects (clean + faults on the scenarios of their clauses)`);
    const first = await runPlan({ projects: pass1 }, { cwd, workDir, workers, label: 'pass1', logFile, env });
    assertUsable(globalErrors(first), 'the first pass');
    const records = byProject(testsOf(first));

    // Second pass (targeted mode): faults not killed by their own scenarios run the rest of the suite.
    const pending = options.full ? [] : runnable.filter((f) => faultResult(f.name, f.clauses, records.get(f.name) ?? []).verdict !== 'killed');
    const pass2 = pending.flatMap((f): PlanProject[] => {
      const first = firstTitles.get(f.name) ?? [];
      if (selectedTitles === undefined) return [{ name: f.name, fault: f.name, ...modeOf(f), except: first }];
      const rest = selectedTitles.filter((t) => !first.includes(t));
      return rest.length ? [{ name: f.name, fault: f.name, ...modeOf(f), only: rest }] : [];
    });
    if (pass2.length > 0) {
      log(`mutation: second pass for ${pass2.length} fault(s) not killed by the scenarios of their clauses`);
      const second = await runPlan({ projects: pass2 }, { cwd, workDir, workers, label: 'pass2', logFile, env });
      assertUsable(globalErrors(second), 'the second pass');
      for (const [project, recs] of byProject(testsOf(second))) records.set(project, [...(records.get(project) ?? []), ...recs]);
    }

    const errored = [...records.entries()].filter(([p]) => p !== CLEAN_PROJECT && p !== CLEAN_PRODUCTION_PROJECT).flatMap(([, r]) => r).filter((r) => r.outcome.status === 'errored');
    if (errored.length > 0) log(`mutation: ${errored.length} test(s) errored under faults (target trouble, timeouts, harness errors); they count for no fault`);
    const faults: FaultResult[] = selected.map((f: FaultInfo) => faultResult(f.name, f.clauses, records.get(f.name) ?? []));
    // The clean run is the reference in sandbox mode, plus production mode when production faults ran.
    const report: MutationReport = { clean: cleanResult([...(records.get(CLEAN_PROJECT) ?? []), ...(records.get(CLEAN_PRODUCTION_PROJECT) ?? [])]), faults };
    const facts: RunFacts = { wallMs: Date.now() - started, workers, mode: options.full ? 'full' : 'targeted', notRunnable, generatedAt: new Date().toISOString(), ...(noControl ? { target: 'no-control' as const } : {}) };
    const matrix = formatMatrix(report, facts);
    writeJsonReport(resolve(cwd, options.jsonFile ?? 'reports/mutation.json'), report);
    const everyFault = !options.faults?.length && (options.subset ?? 'all') === 'all' && grep === undefined && !noControl;
    let docsWritten: 'all' | 'section' | undefined;
    if (options.grep !== undefined) {
      if (options.writeDocs) {
        const command = `ftf-conformance selftest --faults <the ${selected.length} below> --grep '${options.grep}' --workers ${workers}${options.full ? ' --full' : ''}${noControl ? ' --mode no-control' : ''} --write-docs`;
        const docs = resolve(cwd, 'docs/mutation.md');
        const id = sectionId('grep', options.grep);
        const section = renderGrepSection(report, { command, generatedAt: facts.generatedAt, wallMs: facts.wallMs, workers, loadAtStart, cores: availableParallelism() }, options.grep, readSection(docs, id));
        writeSection(docs, id, section);
        docsWritten = 'section';
      }
    } else if (noControl && options.writeDocs) {
      const command = `ftf-conformance selftest --mode no-control${options.faults?.length ? ` --faults <the ${selected.length} below>` : options.subset === 'ci' ? ' --subset ci' : ''} --workers ${workers}${options.full ? ' --full' : ''} --write-docs`;
      const section = renderNoControlSection(report, facts, { command, generatedAt: facts.generatedAt, wallMs: facts.wallMs, workers, loadAtStart, cores: availableParallelism() });
      writeSection(resolve(cwd, 'docs/mutation.md'), 'no-control', section);
      docsWritten = 'section';
    } else if (options.writeDocs ?? everyFault) {
      writeMarkdown(resolve(cwd, 'docs/mutation.md'), report, facts);
      docsWritten = 'all';
    }
    // Faults not run (not observable in this mode) are shown with their reason and do not decide the exit code.
    const ok = matrixOk({ clean: report.clean, faults: faults.filter((f) => notRunnable[f.name] === undefined) });
    return { report, ok, wallMs: facts.wallMs, matrix, docsWritten };
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

/**
 * The variant matrix (issue 12), the mirror of the fault matrix: the whole suite against the clean reference
 * and against each conformant variant (and persona), each with a profile generated from the registry's data
 * (variant-profile.ts: documented options only). A variant passes when its run has 0 failed, 0 errored and
 * no more skipped (or not-applicable) scenarios than the clean reference: the harness must be right on every
 * correct implementation. Outcomes come from the outcome records (src/harness/report/records/outcome.ts).
 * `grep` narrows every run (clean included) to the selection of `run --grep` (scenario/selection.ts, handed to
 * the workers in the run settings, FTF_RUN), e.g. `@model` for the model property on every variant.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { PERSONAS, VARIANTS, knownVariantNames } from '../reference/variants.js';
import { FtfError } from '../shared/errors.js';
import { REFERENCE_PROFILE } from '../harness/target/load.js';
import { harnessName } from '../harness/report/outputs/harness-identity.js';
import { loadSelection, selectionSettings } from '../harness/scenario/selection.js';
import type { PlanProject } from './plan.js';
import { runPlan } from './playwright-run.js';
import { globalErrors, testsOf, type PwJsonReport, type TestRecord } from './pw-report.js';
import { expandRun, fullByOutside, startupConsults, targetRuns, type TargetScope, type VariantTarget } from './variant-targets.js';
import { restrictedRunLine, sectionId, writeSection, type RestrictedRunFacts } from './output.js';
import { writeVariantProfile } from './variant-profile.js';

export const VARIANT_CLEAN_PROJECT = 'clean';

/**
 * The CI subset: the all-alternate persona (the first alternate of every point at once: paths with query
 * strings and templates, record and list pointers, parameter names, every tolerated behaviour) plus the two
 * record layouts it does not take (a wrapped indication; a subscribe answer holding only the uid), and the
 * persona paged-and-shaped: the paging kinds all-alternate does not take (every list by cursor, subscriptions
 * by page number two a page, holdings by offset/limit) with the open request shapes (DELETE /webhook by query,
 * PUT checkpoint with a form body), so CI walks pages and shapes requests on every run (issue 25).
 */
export const VARIANT_CI_SUBSET: readonly string[] = Object.freeze([
  'indication-wrapped', 'subscribe-response-minimal', 'all-alternate', 'paged-and-shaped',
]);

export interface VariantMatrixOptions {
  /** Variant or persona names; default: every variant and every persona (or the CI subset). */
  variants?: string[];
  subset?: 'ci' | 'all';
  /**
   * Only what the selection (`run --grep`, scenario/selection.ts) picks for this regular expression in
   * "<id>: <title> @<tags>", in every run. Never writes docs/variants-matrix.md; with `writeDocs` it writes
   * its own section of docs/mutation.md (`variants-grep-<pattern>`, next to what the same tests kill).
   */
  grep?: string;
  workers?: number;
  /** Every run on the whole suite (no targeting: variant-targets.ts). */
  full?: boolean;
  cwd?: string;
  /** Default: reports/variants.json. */
  jsonFile?: string;
  /** Default: reports/variants-playwright.log. */
  logFile?: string;
  /** Write docs/variants-matrix.md (default: only when every variant ran). */
  writeDocs?: boolean;
  log?: (line: string) => void;
}

export interface RunCounts { passed: number; failed: number; errored: number; skipped: number }

export interface VariantRunResult extends RunCounts {
  name: string;
  /** The variants the run had on (a persona expands to several). */
  variants: string[];
  failingScenarios: string[];
  erroredScenarios: string[];
  /** Scenarios skipped here but not on the clean reference. */
  extraSkips: string[];
  /** Whole suite, the tests that ask about it (variant-targets.ts), or none (no test reaches it: a failure). */
  scope?: TargetScope;
  /** Why that scope. */
  scopeReason?: string;
  ok: boolean;
}

/** Exactly the shape of reports/variants.json. */
export interface VariantReport {
  clean: RunCounts;
  runs: VariantRunResult[];
  wallMs: number;
  workers: number;
  generatedAt: string;
  /** The harness commit that ran (git), os.loadavg() at the start and the machine's cores: the figures' context. */
  commit?: string;
  loadAtStart?: number[];
  cores?: number;
  /** Tests of the clean run (a full run's size). */
  cleanTests?: number;
}

export interface VariantMatrixResult { report: VariantReport; ok: boolean; matrix: string }

const notRun = (r: TestRecord): boolean => r.outcome.status === 'skipped' || r.outcome.status === 'not-applicable';

export function countsOf(records: readonly TestRecord[]): RunCounts {
  const n = (keep: (r: TestRecord) => boolean): number => records.filter(keep).length;
  return {
    passed: n((r) => r.outcome.status === 'passed' || r.outcome.status === 'waived'),
    failed: n((r) => r.outcome.status === 'failed'),
    errored: n((r) => r.outcome.status === 'errored'),
    skipped: n(notRun),
  };
}

/** One variant's result against the clean run's records. */
export function variantResult(name: string, variants: string[], records: readonly TestRecord[], clean: readonly TestRecord[], target?: Pick<VariantTarget, 'scope' | 'reason'>): VariantRunResult {
  const counts = countsOf(records);
  const scenarios = (keep: (r: TestRecord) => boolean): string[] => [...new Set(records.filter(keep).map((r) => r.scenario))].sort();
  const cleanSkips = new Set(clean.filter(notRun).map((r) => r.scenario));
  const extraSkips = scenarios((r) => notRun(r) && !cleanSkips.has(r.scenario));
  const cleanSkipped = countsOf(clean).skipped;
  return {
    name, variants, ...counts,
    failingScenarios: scenarios((r) => r.outcome.status === 'failed'),
    erroredScenarios: scenarios((r) => r.outcome.status === 'errored'),
    extraSkips,
    ...(target ? { scope: target.scope, scopeReason: target.reason } : {}),
    // Under --grep a variant no selected test reaches is outside the selection: nothing ran, nothing to judge.
    ok: target?.scope === 'unselected' || (target?.scope !== 'unreached' && records.length > 0 && counts.failed === 0 && counts.errored === 0 && counts.skipped <= cleanSkipped),
  };
}

export function selectVariantRuns(o: Pick<VariantMatrixOptions, 'variants' | 'subset'>): string[] {
  const names = o.variants?.length ? o.variants : o.subset === 'ci' ? [...VARIANT_CI_SUBSET] : [...VARIANTS.map((v) => v.name), ...PERSONAS.map((p) => p.name)];
  const known = new Set(knownVariantNames());
  const unknown = names.filter((n) => !known.has(n));
  if (unknown.length > 0) {
    throw new FtfError('FTF_E_UNKNOWN_VARIANT', `unknown variant${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`, {
      hint: `known variants and personas: ${knownVariantNames().join(', ')}`, location: { field: 'variants' },
    });
  }
  return [...new Set(names)];
}

const expand = expandRun;

function assertNoGlobalErrors(report: PwJsonReport): void {
  const errors = globalErrors(report);
  if (errors.length > 0) {
    throw new FtfError('FTF_E_MUTATION_RUN_BROKEN', `the variant run reported errors outside tests: ${errors[0]?.split('\n')[0] ?? ''}`, {
      hint: 'fix the suite first (`npx playwright test --list` shows the error)',
    });
  }
}

export async function runVariantMatrix(options: VariantMatrixOptions = {}): Promise<VariantMatrixResult> {
  const started = Date.now();
  const loadAtStart = loadavg();
  const log = options.log ?? ((line: string) => console.log(line));
  const cwd = resolve(options.cwd ?? process.cwd());
  const workers = options.workers ?? availableParallelism();
  const names = selectVariantRuns(options);
  const workDir = mkdtempSync(join(tmpdir(), 'ftf-variants-'));
  const logFile = resolve(cwd, options.logFile ?? 'reports/variants-playwright.log');
  mkdirSync(dirname(logFile), { recursive: true });
  writeFileSync(logFile, '');
  try {
    const selection = options.grep === undefined ? {} : { grep: options.grep };
    if (options.grep !== undefined) {
      const picked = loadSelection(process.env.FTF_SPECS_DIR ?? join(cwd, 'specs'), selection);
      const n = picked.scenarios.length + picked.problems.length + picked.extras.length;
      if (n === 0) throw new FtfError('FTF_E_MUTATION_RUN_BROKEN', `--grep ${options.grep} selects no test`, { hint: 'ftf-conformance list --grep RE shows what it selects' });
      log(`variants: --grep ${options.grep} selects ${n} test(s): ${[...picked.scenarios.map((x) => x.id), ...picked.extras.map((x) => x.id)].join(', ')}`);
    }
    // Profiles first: a variant needing an undocumented option fails here, before anything runs.
    const profiles = new Map(names.map((name) => [name, writeVariantProfile(workDir, name, [name]).file]));
    const env = options.grep === undefined ? {} : { settings: { selection: selectionSettings(selection) } };
    // Targeting (variant-targets.ts; docs/variants.md): the clean run records each test's variant questions.
    // Runs whose variants are asked about while the reference is built take the whole suite: they run next
    // to the clean run; every other run takes the tests whose clean questions name it, in a second pass.
    const startup = options.full ? [] : await startupConsults();
    const early = options.full ? names : fullByOutside(names, startup);
    const pass1: PlanProject[] = [{ name: VARIANT_CLEAN_PROJECT, fault: null, profile: REFERENCE_PROFILE, recordConsults: !options.full }];
    for (const name of early) pass1.push({ name, fault: null, variants: [name], profile: profiles.get(name) as string });
    log(`variants: ${names.length} run(s) + clean, ${workers} worker(s); ${options.full ? 'every run on the whole suite' : `first pass: clean + ${early.length} run(s) on the whole suite (asked about at start-up)`}; Playwright output: ${logFile}`);
    const first = await runPlan({ projects: pass1 }, { cwd, workDir, workers, label: 'variants', logFile, ...env });
    assertNoGlobalErrors(first);
    const records = testsOf(first);
    const clean = records.filter((r) => r.project === VARIANT_CLEAN_PROJECT);
    const later = names.filter((n) => !early.includes(n));
    const targets = new Map<string, VariantTarget>();
    for (const t of targetRuns(names, clean, startup, options.grep !== undefined)) targets.set(t.name, early.includes(t.name) ? { ...t, scope: 'full', titles: [...new Set(clean.map((r) => r.title))], reason: t.scope === 'full' ? t.reason : options.full ? '--full' : t.reason } : t);
    // Largest first: each targeted run takes one worker (plan.ts oneWorker), so the long ones start early.
    const size = (p: PlanProject): number => p.only?.length ?? Number.MAX_SAFE_INTEGER;
    const pass2: PlanProject[] = later.flatMap((name): PlanProject[] => {
      const t = targets.get(name) as VariantTarget;
      if (t.scope === 'unreached' || t.scope === 'unselected') return [];
      return [{ name, fault: null, variants: [name], profile: profiles.get(name) as string, ...(t.scope === 'targeted' ? { only: t.titles } : {}) }];
    }).sort((a, b) => size(b) - size(a));
    if (pass2.length > 0) {
      const full = pass2.filter((p) => p.only === undefined).length;
      const tests = pass2.reduce((n, p) => n + (p.only?.length ?? clean.length), 0);
      log(`variants: second pass: ${pass2.length} run(s), ${full} on the whole suite (asked about outside a test), ${pass2.length - full} targeted; ${tests} test(s)`);
      const second = await runPlan({ projects: pass2 }, { cwd, workDir, workers, label: 'variants-2', logFile, ...env });
      assertNoGlobalErrors(second);
      records.push(...testsOf(second));
    }
    const of = (project: string): TestRecord[] => records.filter((r) => r.project === project);
    const runs = names.map((name) => {
      const t = targets.get(name) as VariantTarget;
      const ran = new Set(t.titles);
      return variantResult(name, expand(name), of(name), clean.filter((r) => ran.has(r.title)), t);
    });
    const result: VariantReport = {
      clean: countsOf(clean), runs, wallMs: Date.now() - started, workers, generatedAt: new Date().toISOString(),
      commit: harnessName().commit, loadAtStart: [...loadAtStart], cores: availableParallelism(),
      cleanTests: clean.length,
    };
    const cleanOk = clean.length > 0 && result.clean.failed === 0 && result.clean.errored === 0;
    writeJson(resolve(cwd, options.jsonFile ?? 'reports/variants.json'), result);
    const every = !options.variants?.length && (options.subset ?? 'all') === 'all' && options.grep === undefined;
    if (options.grep !== undefined) {
      if (options.writeDocs) {
        const command = `ftf-conformance selftest --variants${options.variants?.length ? ` ${names.join(',')}` : options.subset === 'ci' ? ' --subset ci' : ''} --grep '${options.grep}' --workers ${workers} --write-docs`;
        const facts: RestrictedRunFacts = { command, generatedAt: result.generatedAt, wallMs: result.wallMs, workers, loadAtStart, cores: availableParallelism() };
        writeSection(resolve(cwd, 'docs/mutation.md'), sectionId('variants-grep', options.grep), renderVariantGrepSection(result, facts, options.grep));
      }
    } else if (options.writeDocs ?? every) {
      writeText(resolve(cwd, 'docs/variants-matrix.md'), renderVariantMarkdown(result));
    }
    return { report: result, ok: cleanOk && runs.every((r) => r.ok), matrix: formatVariantMatrix(result) };
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

function writeJson(file: string, value: unknown): void {
  writeText(file, `${JSON.stringify(value, null, 2)}\n`);
}

function writeText(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

const testsOfRun = (r: VariantRunResult): number => r.passed + r.failed + r.errored + r.skipped;

/** `whole suite`, `12 of 76 tests`, `unreached`. */
function scopeLabel(r: VariantRunResult, report: VariantReport): string {
  if (r.scope === 'unreached') return 'unreached';
  if (r.scope === 'unselected') return 'not selected';
  if (r.scope === 'targeted') return `${testsOfRun(r)} of ${report.cleanTests ?? report.clean.passed + report.clean.failed + report.clean.errored + report.clean.skipped} tests`;
  return 'whole suite';
}

/** `4484 tests run (2115 targeted of 4408 a full matrix would run; 14 runs on the whole suite)`. */
function scopeSummary(report: VariantReport): string {
  const ran = report.runs.reduce((n, r) => n + testsOfRun(r), 0);
  const whole = report.runs.filter((r) => r.scope === undefined || r.scope === 'full').length;
  const unreached = report.runs.filter((r) => r.scope === 'unreached').length;
  const unselected = report.runs.filter((r) => r.scope === 'unselected').length;
  const size = report.cleanTests ?? 0;
  return `${ran} variant test(s) run${size ? ` of ${size * report.runs.length} on the whole suite` : ''} (${whole} run(s) on the whole suite, ${report.runs.length - whole - unreached - unselected} targeted${unreached ? `, ${unreached} unreached` : ''}${unselected ? `, ${unselected} reached by no selected test` : ''})`;
}

const counts = (c: RunCounts): string => `${c.passed} passed, ${c.failed} failed, ${c.errored} errored, ${c.skipped} skipped`;

function problems(r: VariantRunResult): string {
  const parts = [
    r.failingScenarios.length ? `failed: ${r.failingScenarios.join(', ')}` : '',
    r.erroredScenarios.length ? `errored: ${r.erroredScenarios.join(', ')}` : '',
    r.extraSkips.length ? `skipped beyond clean: ${r.extraSkips.join(', ')}` : '',
  ].filter(Boolean);
  return parts.length ? parts.join('; ') : '-';
}

export function formatVariantMatrix(report: VariantReport): string {
  const width = Math.max(...report.runs.map((r) => r.name.length), 10);
  const lines = [`clean reference: ${counts(report.clean)}`, ''];
  for (const r of report.runs) lines.push(`${r.name.padEnd(width)}  ${(r.ok ? 'pass' : 'FAIL').padEnd(4)}  ${scopeLabel(r, report).padEnd(14)}  ${counts(r)}  ${problems(r)}`);
  const passing = report.runs.filter((r) => r.ok).length;
  lines.push('', `${report.runs.length} variant run(s) judged: ${passing} pass, ${report.runs.length - passing} fail; ${scopeSummary(report)} — wall time ${(report.wallMs / 1000).toFixed(1)} s on ${report.workers} worker(s)`);
  return lines.join('\n');
}

const variantRows = (report: VariantReport): string[] => report.runs.map((r) => `| \`${r.name}\` | ${r.variants.length > 1 ? `persona (${r.variants.length} variants)` : 'variant'} | ${scopeLabel(r, report)}${r.scopeReason ? `: ${r.scopeReason.replace(/\|/g, '\\|')}` : ''} | ${r.passed} | ${r.failed} | ${r.errored} | ${r.skipped} | ${problems(r).replace(/\|/g, '\\|')} | **${r.ok ? 'pass' : 'FAIL'}** |`);

/** The section of a `--variants --grep` run (docs/mutation.md): the selected tests on every conformant variant. */
export function renderVariantGrepSection(report: VariantReport, facts: RestrictedRunFacts, grep: string): string {
  const passing = report.runs.filter((r) => r.ok).length;
  return `## Restricted to \`--grep ${grep.replace(/\|/g, '\\|')}\` on every conformant variant: no false alarm

<!-- Generated by \`ftf-conformance selftest --variants --grep RE --write-docs\` (src/selftest/variant-matrix.ts). Do not edit by hand. -->

The same tests against the conformant variants (docs/variants.md), selected as \`run --grep\` selects. A run
passes with 0 failed, 0 errored and no more skipped than the clean reference.
${restrictedRunLine(facts)}
Clean reference: ${counts(report.clean)}. ${report.runs.length} variant run(s): ${passing} pass, ${report.runs.length - passing} fail.

| run | kind | tests run | passed | failed | errored | skipped | problems | verdict |
|---|---|---|---|---|---|---|---|---|
${variantRows(report).join('\n')}
`;
}

/** `58 runs (56 variants, 2 personas): 58 pass, 0 fail; <scopeSummary>.` */
function runCountLine(report: VariantReport): string {
  const personas = report.runs.filter((r) => PERSONAS.some((p) => p.name === r.name)).length;
  const passing = report.runs.filter((r) => r.ok).length;
  return `${report.runs.length} runs (${report.runs.length - personas} variants, ${personas} personas): ${passing} pass, ${report.runs.length - passing} fail; ${scopeSummary(report)}.`;
}

export function renderVariantMarkdown(report: VariantReport): string {
  const rows = variantRows(report);
  return `# Variant matrix

<!-- Generated by \`npm run variants\` (src/selftest/variant-matrix.ts). Do not edit by hand: rerun it. -->

The mirror of the fault matrix (docs/mutation.md): the suite against each conformant variant of the
reference (docs/variants.md) and each persona, each with a target profile generated from the registry's
data (\`profileFor\`, documented options only: docs/target-profiles.md). A run **passes** with 0 failed, 0
errored and no more skipped or not-applicable scenarios than the clean reference on the same tests.

Each run takes the tests that make the clean server ask about its variants (recorded by the clean run), or
the whole suite when the server asks about one outside a test; every other test gets the clean server's
answers byte for byte, so it cannot fail on the variant (docs/variants.md, "Why a targeted variant run
proves as much as a full one"). A run no test reaches fails (\`unreached\`). \`--full\` runs the whole suite
for every run.

\`\`\`
npm run variants                                  # every variant and persona (this page)
ftf-conformance selftest --variants a,b           # some variants
ftf-conformance selftest --variants --subset ci   # the CI subset (a stage of npm test)
\`\`\`

CI subset: ${VARIANT_CI_SUBSET.map((n) => `\`${n}\``).join(', ')}.

## Last run

${report.generatedAt}${report.commit ? `, harness commit ${report.commit}` : ''}: ${report.workers} worker(s), wall time ${(report.wallMs / 1000).toFixed(1)} s${report.loadAtStart ? `, load average at start ${report.loadAtStart.map((l) => l.toFixed(2)).join(' / ')} (1/5/15 min)${report.cores ? ` on ${report.cores} cores` : ''}` : ''}.
Clean reference: ${counts(report.clean)}.
${runCountLine(report)}

| run | kind | tests run | passed | failed | errored | skipped | problems | verdict |
|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}
`;
}

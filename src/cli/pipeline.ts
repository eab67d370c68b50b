/**
 * What happens after Playwright finished: verdicts from reports/results.json, waivers, verdicts.json, the
 * JUnit XML (junit.xml, from the same verdicts), the console summary, Allure environment/categories and the
 * Allure HTML. Shared by `run` and `certify`.
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { buildAllureReport, requireAllureCli } from '../harness/report/outputs/allure-report.js';
import { harnessName } from '../harness/report/outputs/harness-identity.js';
import type { ReportsLock } from '../harness/report/reports-folder/reports-lock.js';
import { writeAllureSupportFiles } from '../harness/report/outputs/allure.js';
import { loadClauseCatalogue, type ClauseCatalogue } from '../harness/spec/clauses.js';
import { reportPaths } from '../harness/report/reports-folder/paths.js';
import { PACKAGED, REPO_ROOT } from '../harness/repo-root.js';
import { addToDigestFile, DIGESTS_FILE } from '../harness/report/redaction/secret-digests.js';
import { describeImplementation, implementationVersion } from '../harness/report/records/implementation.js';
import { writeJunit } from '../harness/report/outputs/junit.js';
import { reproduceCommand, type ReproduceContext } from './reproduce.js';
import { coverageJunitProperties, coverageLines, type CoverageGate } from '../harness/report/verdicts/clause-coverage.js';
import { readPlaywrightReport, scenariosOf, testResults } from '../harness/report/records/scenario-results.js';
import { tallyTests, type ProjectScopes, type TestTally } from '../harness/report/verdicts/test-tally.js';
import { projectScopeReason } from '../harness/scenario/environment.js';
import { SHARED_PHASES } from '../harness/shared-phases.js';
import { doubtGroups, scenarioOutcome, summarize, type ClauseOutcome, type FailOn, type ScenarioOutcome, type VerdictSummary } from '../harness/report/verdicts/verdicts.js';
import { applyWaivers, defaultWaiversFile, loadWaivers, type Waiver } from '../harness/report/verdicts/waivers.js';
import type { ResolvedTarget } from '../harness/target/types.js';
import { FtfError } from '../shared/errors.js';

export interface EvaluateOptions {
  failOn: FailOn;
  /** Waivers file; default <profile dir>/<profile basename>.waivers.yaml. */
  waiversFile?: string;
  profileFile: string;
  certification?: boolean;
  filtered?: boolean;
  today?: string;
  /** The target's environment (names an external target's single project) and its profile `implementation`. */
  target?: Pick<ResolvedTarget, 'environment' | 'implementation'>;
  /** Problems found before evaluation (e.g. `merge`: a missing shard); each makes the run untrustworthy. */
  problems?: string[];
  /** `--min-clauses` / `--max-skipped` (clause-coverage.ts): a shortfall is a problem of the verdict. */
  coverageGate?: CoverageGate;
}

export interface Evaluation {
  summary: VerdictSummary;
  catalogue: ClauseCatalogue;
  waiversApplied: Waiver[];
  waiversFile: string;
}

export function evaluateRun(options: EvaluateOptions): Evaluation {
  const paths = reportPaths();
  const catalogue = loadClauseCatalogue();
  const report = readPlaywrightReport(paths.playwrightJson);
  const tests = testResults(report);
  const outcomes = scenariosOf(tests).map((r) => scenarioOutcome(r, catalogue));
  const waiversFile = options.waiversFile ?? defaultWaiversFile(options.profileFile);
  const waivers = loadWaivers(waiversFile);
  const waived = applyWaivers(outcomes, waivers, catalogue, {
    ...(options.today ? { today: options.today } : {}),
    certification: options.certification ?? false,
    filtered: options.filtered ?? false,
  });
  // Errors outside any test (config errors, worker crashes) mean the run cannot be trusted.
  const runErrors = (report.errors ?? []).map((e) => `Playwright: ${(e.message ?? String(e)).split('\n')[0]}`);
  const summary = summarize(waived.scenarios, catalogue, {
    failOn: options.failOn,
    problems: [...(options.problems ?? []), ...waived.problems, ...runErrors],
    notes: waived.notes,
    tests: tallyTests(tests.map((t) => ({ id: t.id, project: t.project, ...pick(scenarioOutcome(t, catalogue)) })), options.target?.environment ?? 'target', projectScopes(report)),
    implementation: implementationVersion(options.target?.implementation, tests.map((t) => t.record)),
    ...(options.coverageGate ? { coverageGate: options.coverageGate } : {}),
  });
  mkdirSync(dirname(paths.verdicts), { recursive: true });
  writeFileSync(paths.verdicts, JSON.stringify(summary, null, 2));
  writeJunit(paths.junit, summary, { properties: { implementation_version: summary.implementation?.version, ...coverageJunitProperties(summary.coverage) } });
  return { summary, catalogue, waiversApplied: waived.applied, waiversFile };
}

/** The projects that run a share of the catalogue by rule (playwright.config.ts metadata), with the reason. */
function projectScopes(report: ReturnType<typeof readPlaywrightReport>): ProjectScopes {
  return Object.fromEntries((report.config?.projects ?? []).flatMap((p) => {
    const reason = projectScopeReason(p.metadata);
    return reason === undefined ? [] : [[p.name, reason]];
  }));
}

const pick = ({ verdict, reason }: ScenarioOutcome): Pick<ScenarioOutcome, 'verdict' | 'reason'> => ({ verdict, ...(reason !== undefined ? { reason } : {}) });

const ICON: Record<string, string> = { failed: 'FAIL', errored: 'ERROR', warning: 'WARN', waived: 'WAIVED', skipped: 'SKIP', 'not-applicable': 'N/A' };

/** The verdict block printed after the Playwright progress display. */
export function formatSummary(s: VerdictSummary, reproduce?: ReproduceContext): string {
  const lines = ['', '=== FTF conformance verdict'];
  const attention = s.scenarios.filter((x) => ['failed', 'errored', 'warning', 'waived'].includes(x.verdict));
  for (const x of attention) {
    lines.push(`${(ICON[x.verdict] ?? x.verdict).padEnd(6)} ${x.id}  [${x.clauses.join(', ') || 'no clause'}]`);
    if (x.reason) lines.push(`       ${x.reason.slice(0, 300)}`);
    const r = x.record;
    if (r.code) {
      const where = [r.step ? `step "${r.step.slice(0, 120)}"` : '', r.location ? `at ${r.location}` : ''].filter(Boolean).join(' ');
      lines.push(`       ${r.code} (${r.kind ?? 'internal'})${where ? ` in ${where}` : ''}${r.clauses.length ? `; breaks ${r.clauses.join(', ')}` : ''}`);
    }
    if (x.waivedBy) lines.push(`       waived by ${x.waivedBy.join('; ')}`);
    if (x.verdict !== 'waived') lines.push(`       reproduce: ${reproduce ? reproduceCommand(x, reproduce) : `npx ftf-conformance run --grep ${shellQuote(escapeRegExp(x.title))}`}`);
  }
  lines.push(...skipLines(s), ...notRunLines(s));
  for (const p of s.problems) lines.push(`PROBLEM ${p}`);
  for (const n of s.notes) lines.push(`note   ${n}`);
  if (s.unknownClauses.length) lines.push(`note   scenarios name clause ids missing from clauses.yaml: ${s.unknownClauses.join(', ')}`);
  // Broken: a check of the clause failed. Errored: not judged (its scenario broke off), with the code and kind, never blamed.
  const clauseFails = s.clauses.filter((c) => c.verdict === 'failed').map((c) => c.id);
  if (clauseFails.length) lines.push(`clauses broken: ${clauseFails.join(', ')}`);
  const notJudged = s.clauses.filter((c) => c.verdict === 'errored');
  if (notJudged.length) lines.push(`clauses not judged (errored): ${notJudged.map((c) => `${c.id} (${erroredBy(s, c)})`).join(', ')}`);
  for (const group of doubtGroups(s.clauses)) {
    const [first] = group.split(' / ');
    const evidence = s.clauses.find((c) => c.id === first)?.doubts?.[0];
    lines.push(`clauses in doubt: ${group} (one of them is broken)${evidence ? `: ${evidence.scenario}${evidence.location ? ` at ${evidence.location}` : ''}: ${(evidence.message ?? evidence.check).split('\n')[0]!.slice(0, 300)}` : ''}`);
  }
  lines.push(...countLines(s));
  lines.push(...coverageLines(s.coverage));
  if (s.implementation) lines.push(`implementation version: ${describeImplementation(s.implementation)}`);
  const partial = s.coverage.status === 'partial' ? ` (partial: ${s.coverage.notJudged.must.length} must clause${s.coverage.notJudged.must.length === 1 ? '' : 's'} not judged)` : '';
  const verdict =
    s.overall === 'nothing-tested' ? 'NOTHING TESTED (no scenario executed: this is not a pass)' : s.overall === 'conformant' ? `CONFORMANT${partial}` : 'NON-CONFORMANT';
  lines.push(`verdict: ${verdict} (fail on ${s.failOn})`);
  return lines.join('\n');
}

/** Why a clause is errored: the code and kind of each scenario of it that errored (`FTF_E_TARGET_TIMEOUT target`). */
function erroredBy(s: VerdictSummary, clause: ClauseOutcome): string {
  const byId = new Map(s.scenarios.map((x) => [x.id, x]));
  const why = clause.scenarios.filter((x) => x.verdict === 'errored').map((x) => byId.get(x.id)?.record).map((r) => `${r?.code ?? 'FTF_E_INTERNAL'} ${r?.kind ?? 'internal'}`);
  return [...new Set(why)].join('; ');
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Where the tests of one skip reason were: `sandbox 3, production 9` (nothing when there is one environment). */
function whereSkipped(environments: Record<string, number>, tally: TestTally): string {
  return Object.keys(tally.environments).length > 1 ? `  [${Object.entries(environments).map(([e, n]) => `${e} ${n}`).join(', ')}]` : '';
}

/**
 * Every skip and not-applicable reason with its count of tests (per environment when there are several), from
 * the tests' records; without test counts (a summary built elsewhere), the scenarios' reasons.
 */
function skipLines(s: VerdictSummary): string[] {
  if (s.tests) {
    return s.tests.skipReasons.map((r) => `${r.notApplicable ? 'N/A ' : 'SKIP'}   ${r.count} × ${r.reason}${whereSkipped(r.environments, s.tests!)}`);
  }
  const reasons = new Map<string, number>();
  for (const x of s.scenarios) if (x.verdict === 'skipped' || x.verdict === 'not-applicable') reasons.set(x.reason ?? x.verdict, (reasons.get(x.reason ?? x.verdict) ?? 0) + 1);
  return [...reasons].map(([reason, n]) => `SKIP   ${plural(n, 'scenario')}: ${reason}`);
}

/** One line per environment that has no test of some scenarios (the production project's share, environment.ts). */
function notRunLines(s: VerdictSummary): string[] {
  const envs = Object.entries(s.tests?.environments ?? {});
  return envs.flatMap(([env, e]) => {
    if (!e.notRun) return [];
    const others = envs.filter(([o]) => o !== env).map(([o]) => o).join(', ');
    return [`ONLY   ${plural(e.notRun.scenarios.length, 'scenario')} run in ${others} only (no test in ${env}): ${e.notRun.reason}`];
  });
}

/**
 * The counts: tests (Playwright's unit: one per scenario and project) reconciled with scenarios (the verdict's
 * unit: a scenario's runs merged, the worst decides, a skip only when every run skipped).
 */
function countLines(s: VerdictSummary): string[] {
  const t = s.totals;
  const scenarios = `${plural(t.total, 'scenario')}: ${t.passed} passed, ${t.failed} failed, ${plural(t.warning, 'warning')}, ${t.errored} errored, ${t.waived} waived, ${t.skipped} skipped, ${t['not-applicable']} not applicable`;
  const n = s.tests;
  if (!n) return [scenarios];
  const envs = Object.entries(n.environments);
  const perEnv = envs.length > 1 ? ` (${envs.map(([e, x]) => `${e} ${x.total}`).join(', ')})` : '';
  const tests = `${plural(n.total, 'test')}${perEnv}: ${n.passed} passed, ${n.failed} failed, ${plural(n.warning, 'warning')}, ${n.errored} errored, ${n.skipped} skipped, ${n['not-applicable']} not applicable`;
  const partial = envs.some(([, e]) => e.notRun);
  const phases = envs.length > 1 && envs.every(([e]) => (SHARED_PHASES as readonly string[]).includes(e));
  const why =
    phases && n.total === t.total
      ? 'one shared target: each scenario runs once, in one phase: shared (side by side) or exclusive (one at a time)'
      : envs.length > 1
      ? `${partial ? 'a scenario runs once in each environment that has it (ONLY above)' : `each scenario runs once per environment (${envs.map(([e]) => e).join(', ')})`}; a scenario's verdict is its worst run, skipped only when every run skipped`
      : n.total === t.total
        ? 'one test per scenario'
        : 'tests and scenarios differ: a scenario id ran more than once';
  return [`${tests}`, `  = ${scenarios}`, `  (${why})`];
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** Environment + categories into allure-results, then the HTML. A broken report never changes the verdict. */
export function publishAllure(
  target: ResolvedTarget,
  catalogue: ClauseCatalogue,
  options: { build: boolean; embedded?: boolean; implementation?: VerdictSummary['implementation'] },
): string | undefined {
  const paths = reportPaths();
  const harness = harnessName();
  writeAllureSupportFiles(paths.allureResults, {
    targetName: target.name,
    baseUrl: options.embedded ? 'embedded reference server' : target.baseUrl,
    ...(options.embedded ? {} : { authUrl: target.authUrl }),
    environment: target.environment,
    capabilities: [...target.capabilities].sort(),
    specSha256: catalogue.specSha256,
    harnessVersion: harness.version,
    ...(harness.commit !== 'unknown' ? { harnessCommit: harness.commit } : {}),
    ...(options.implementation && options.implementation.source !== 'none' ? { implementationVersion: describeImplementation(options.implementation) } : {}),
  });
  if (!options.build) return undefined;
  try {
    const r = buildAllureReport();
    return [`Allure report: ${r.index} (history: ${r.historyFile})`, ...r.notes.map((n) => `note   ${n}`)].join('\n');
  } catch (e) {
    return notBuilt(e);
  }
}

const notBuilt = (e: unknown): string => `Allure report not built (the verdict stands): ${e instanceof FtfError ? e.describe() : (e as Error).message}`;

/** Where the background build writes its output (the CLI has exited by then). */
export const ALLURE_LOG = 'allure-report.log';

/**
 * `run`'s default: the Allure HTML is built after the verdict is printed and the exit code is decided, by a
 * detached `ftf-conformance report --scan` that outlives the CLI (the CLI does not wait for it). The HTML
 * is a rendering of allure-results, which the run's leak scan has already searched; the child searches the HTML
 * again with the run's digests (reports/secret-digests.json, to which the CLI adds its own secrets' digests,
 * never a value) and deletes it on a hit. An earlier run's HTML is removed first, so it never passes for this one.
 */
export function startAllureInBackground(secretValues: readonly string[], lock?: ReportsLock): string {
  const paths = reportPaths();
  rmSync(paths.allureReport, { recursive: true, force: true });
  try {
    // Said now, like a foreground build would, rather than only in the log.
    requireAllureCli();
  } catch (e) {
    return notBuilt(e);
  }
  addToDigestFile(join(paths.root, DIGESTS_FILE), secretValues);
  const bin = resolve(REPO_ROOT, PACKAGED ? '..' : '.', 'bin', 'ftf-conformance.mjs');
  const log = join(paths.root, ALLURE_LOG);
  const fd = openSync(log, 'w');
  try {
    const child = spawn(process.execPath, [bin, 'report', '--scan'], { cwd: process.cwd(), env: { ...process.env, FTF_REPORTS_DIR: paths.root }, detached: true, stdio: ['ignore', fd, fd] });
    child.unref();
    // The folder stays this run's until the HTML is written: the child releases the lock (report --scan).
    if (child.pid !== undefined) lock?.handOver(child.pid);
    return `Allure report: building in the background (pid ${child.pid}): ${join(paths.allureReport, 'index.html')}; log ${log} (--wait-report builds it before exiting)`;
  } finally {
    closeSync(fd);
  }
}

/**
 * What happens after Playwright finished: verdicts from reports/results.json, waivers, verdicts.json, the
 * console summary, Allure environment/categories and the Allure HTML. Shared by `run` and `certify`.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { buildAllureReport } from '../harness/report/allure-report.js';
import { writeAllureSupportFiles } from '../harness/report/allure.js';
import { loadClauseCatalogue, type ClauseCatalogue } from '../harness/spec/clauses.js';
import { reportPaths } from '../harness/report/paths.js';
import { REPO_ROOT } from '../harness/repo-root.js';
import { readPlaywrightReport, scenarioResults } from '../harness/report/scenario-results.js';
import { scenarioOutcome, summarize, type FailOn, type VerdictSummary } from '../harness/report/verdicts.js';
import { applyWaivers, defaultWaiversFile, loadWaivers, type Waiver } from '../harness/report/waivers.js';
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
  /** Problems found before evaluation (e.g. `merge`: a missing shard); each makes the run untrustworthy. */
  problems?: string[];
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
  const outcomes = scenarioResults(report).map((r) => scenarioOutcome(r, catalogue));
  const waiversFile = options.waiversFile ?? defaultWaiversFile(options.profileFile);
  const waivers = loadWaivers(waiversFile);
  const waived = applyWaivers(outcomes, waivers, catalogue, {
    ...(options.today ? { today: options.today } : {}),
    certification: options.certification ?? false,
    filtered: options.filtered ?? false,
  });
  // Errors outside any test (config errors, worker crashes) mean the run cannot be trusted.
  const runErrors = (report.errors ?? []).map((e) => `Playwright: ${(e.message ?? String(e)).split('\n')[0]}`);
  const summary = summarize(waived.scenarios, catalogue, { failOn: options.failOn, problems: [...(options.problems ?? []), ...waived.problems, ...runErrors], notes: waived.notes });
  mkdirSync(dirname(paths.verdicts), { recursive: true });
  writeFileSync(paths.verdicts, JSON.stringify(summary, null, 2));
  return { summary, catalogue, waiversApplied: waived.applied, waiversFile };
}

const ICON: Record<string, string> = { failed: 'FAIL', errored: 'ERROR', warning: 'WARN', waived: 'WAIVED', skipped: 'SKIP', 'not-applicable': 'N/A' };

/** The verdict block printed after the Playwright progress display. */
export function formatSummary(s: VerdictSummary): string {
  const t = s.totals;
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
    if (x.verdict !== 'waived') lines.push(`       reproduce: npx ftf-conformance run --grep ${shellQuote(escapeRegExp(x.title))}`);
  }
  const skippedReasons = new Map<string, number>();
  for (const x of s.scenarios) if (x.verdict === 'skipped' || x.verdict === 'not-applicable') skippedReasons.set(x.reason ?? x.verdict, (skippedReasons.get(x.reason ?? x.verdict) ?? 0) + 1);
  for (const [reason, n] of skippedReasons) lines.push(`SKIP   ${n} scenario${n === 1 ? '' : 's'}: ${reason}`);
  for (const p of s.problems) lines.push(`PROBLEM ${p}`);
  for (const n of s.notes) lines.push(`note   ${n}`);
  if (s.unknownClauses.length) lines.push(`note   scenarios name clause ids missing from clauses.yaml: ${s.unknownClauses.join(', ')}`);
  const clauseFails = s.clauses.filter((c) => c.verdict === 'failed' || c.verdict === 'errored').map((c) => c.id);
  if (clauseFails.length) lines.push(`clauses broken: ${clauseFails.join(', ')}`);
  lines.push(
    `${t.total} scenarios: ${t.passed} passed, ${t.failed} failed, ${t.warning} warnings, ${t.errored} errored, ${t.waived} waived, ${t.skipped} skipped, ${t['not-applicable']} not applicable`,
  );
  const verdict =
    s.overall === 'nothing-tested' ? 'NOTHING TESTED (no scenario executed: this is not a pass)' : s.overall === 'conformant' ? 'CONFORMANT' : 'NON-CONFORMANT';
  lines.push(`verdict: ${verdict} (fail on ${s.failOn})`);
  return lines.join('\n');
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

export function harnessVersion(): string {
  return (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

/** Environment + categories into allure-results, then the HTML. A broken report never changes the verdict. */
export function publishAllure(target: ResolvedTarget, catalogue: ClauseCatalogue, options: { build: boolean; embedded?: boolean }): string | undefined {
  const paths = reportPaths();
  writeAllureSupportFiles(paths.allureResults, {
    targetName: target.name,
    baseUrl: options.embedded ? 'embedded reference server' : target.baseUrl,
    ...(options.embedded ? {} : { authUrl: target.authUrl }),
    environment: target.environment,
    capabilities: [...target.capabilities].sort(),
    specSha256: catalogue.specSha256,
    harnessVersion: harnessVersion(),
  });
  if (!options.build) return undefined;
  try {
    const r = buildAllureReport();
    return `Allure report: ${r.index}`;
  } catch (e) {
    return `Allure report not built (the verdict stands): ${e instanceof FtfError ? e.describe() : (e as Error).message}`;
  }
}

/** Shared helpers of the report tests: the recorded Playwright report fixture and ways to vary it. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JSONReport, JSONReportSpec, JSONReportSuite, JSONReportTest } from '@playwright/test/reporter';
import { loadClauseCatalogue } from '../../src/harness/spec/clauses.js';
import { REPO_ROOT } from '../../src/harness/repo-root.js';
import { scenarioResults } from '../../src/harness/report/records/scenario-results.js';
import { scenarioOutcome, type ScenarioOutcome } from '../../src/harness/report/verdicts/verdicts.js';

export const FIXTURES = join(REPO_ROOT, 'test/fixtures/report');
export const catalogue = loadClauseCatalogue();

/** A real report of five demo scenarios: passed, failed (must), failed (should only), StepError timeout, skipped. */
export function demoReport(): JSONReport {
  return JSON.parse(readFileSync(join(FIXTURES, 'playwright-results.json'), 'utf8')) as JSONReport;
}

export function specs(report: JSONReport): JSONReportSpec[] {
  const out: JSONReportSpec[] = [];
  const walk = (s: JSONReportSuite): void => {
    out.push(...s.specs);
    (s.suites ?? []).forEach(walk);
  };
  report.suites.forEach(walk);
  return out;
}

/** Keeps only the specs whose title starts with one of the ids. */
export function only(report: JSONReport, ids: string[]): JSONReport {
  const keep = (s: JSONReportSuite): JSONReportSuite => ({
    ...s,
    specs: s.specs.filter((sp) => ids.some((id) => sp.title.startsWith(`${id}:`))),
    suites: (s.suites ?? []).map(keep),
  });
  return { ...report, suites: report.suites.map(keep) };
}

export function spec(report: JSONReport, id: string): JSONReportSpec {
  const found = specs(report).find((s) => s.title.startsWith(`${id}:`));
  if (!found) throw new Error(`no spec ${id} in fixture`);
  return found;
}

export function outcomes(report: JSONReport): ScenarioOutcome[] {
  return scenarioResults(report).map((r) => scenarioOutcome(r, catalogue));
}

/** The test as skipped in `project` (the production guard's reason). */
export const skippedRun = (t: JSONReportTest, project: string): JSONReportTest => ({
  ...t,
  projectName: project,
  status: 'skipped',
  annotations: [...t.annotations, { type: 'skip', description: 'production target: mutations need --allow-mutations and allow_mutations: true in the profile' }],
  results: t.results.map((r) => ({ ...r, status: 'skipped', errors: [], annotations: [] })),
});

/** Every spec of the demo report gets a second run in project "production", made by `second` (undefined: no test there). */
export function twoProjects(second: (t: JSONReportTest, specTitle: string) => JSONReportTest | undefined): JSONReport {
  const report = demoReport();
  const dup = (s: JSONReportSuite): JSONReportSuite => ({
    ...s,
    specs: s.specs.map((sp) => ({ ...sp, tests: sp.tests.flatMap((t) => [{ ...t, projectName: 'sandbox' }, ...[second(t, sp.title)].filter((x) => x !== undefined)]) })),
    suites: (s.suites ?? []).map(dup),
  });
  return { ...report, suites: report.suites.map(dup) };
}

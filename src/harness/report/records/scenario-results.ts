/**
 * Reads Playwright's JSON report (reports/results.json) into one plain record per executed test, with the
 * scenario metadata the conformance entry attaches as annotations:
 *   { type: 'clause', description: 'RES-DATE' }           one per covered clause
 *   { type: 'scenario', description: 'token.cc-reuse' }   the scenario id (default: the test title);
 *                                                         a value ending in .yaml is taken as the scenario file
 *   { type: 'scenario-file', description: 'specs/token/cc-reuse.yaml' }  the scenario's YAML file
 *   { type: 'allure.label.feature' | 'family', ... }      the scenario family (else specs/<family>/ of the file)
 *   { type: 'skip', description: 'needs consent: ...' }   set by test.skip(cond, reason)
 *   { type: 'not-applicable', description: 'why' }        the scenario does not apply to this target
 *   { type: 'warning', description: '[check] message' }   a should-level check failed in a passing test
 *   { type: 'ftf-outcome', description: '{json}' }        the outcome record (outcome.ts; readOutcome reads it)
 * Tags come from Playwright's test tags.
 */
import { readFileSync } from 'node:fs';
import type { JSONReport, JSONReportSuite, JSONReportTest } from '@playwright/test/reporter';
import { FtfError } from '../../../shared/errors.js';
import { readOutcome, type OutcomeRecord } from './outcome.js';

export interface ScenarioResult {
  id: string;
  title: string;
  /** Scenario YAML (from the `scenario` annotation) or the spec file. */
  file: string;
  family: string;
  clauses: string[];
  tags: string[];
  project: string;
  /** Playwright outcome of the test (after retries). */
  outcome: JSONReportTest['status'];
  /** Status of the last attempt: passed, failed, timedOut, skipped, interrupted. */
  lastStatus: string | undefined;
  skipReason?: string;
  notApplicable?: string;
  /** Should-level check failures of a test that otherwise passed. */
  warnings: string[];
  /** Error messages of the last attempt, ANSI codes stripped (shown, never parsed: `record` decides). */
  errors: string[];
  /** The scenario's outcome as data (outcome.ts): what every verdict is made of. */
  record: OutcomeRecord;
  durationMs: number;
  retries: number;
}

export function readPlaywrightReport(file: string): JSONReport {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (cause) {
    throw new FtfError('FTF_E_REPORT_MISSING', `no Playwright JSON report at ${file}`, {
      cause,
      hint: "the run did not finish; playwright.config.ts must list the json reporter with outputFile 'reports/results.json'",
    });
  }
  try {
    return JSON.parse(text) as JSONReport;
  } catch (cause) {
    throw new FtfError('FTF_E_REPORT_INVALID', `${file} is not valid JSON`, { cause });
  }
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;
export const stripAnsi = (s: string): string => s.replace(ANSI, '');

/** One result per Playwright test: a scenario appears once per project that has it (sandbox, and production for its share). */
export function testResults(report: JSONReport): ScenarioResult[] {
  const out: ScenarioResult[] = [];
  const walk = (suite: JSONReportSuite, titles: string[]): void => {
    for (const spec of suite.specs) {
      for (const test of spec.tests) out.push(toResult(spec.title, spec.file, spec.tags, titles, test));
    }
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
  };
  for (const suite of report.suites) walk(suite, []);
  return out;
}

/** One result per scenario: the tests of testResults, merged across projects when there are several. */
export function scenarioResults(report: JSONReport): ScenarioResult[] {
  return scenariosOf(testResults(report));
}

/** With several projects (the reference in sandbox and production mode) a scenario runs once in each project that has it. */
export function scenariosOf(tests: readonly ScenarioResult[]): ScenarioResult[] {
  return new Set(tests.map((t) => t.project)).size > 1 ? mergeProjects(tests) : [...tests];
}

/** Worst first: a failure anywhere decides, then an error, a flaky pass, a pass, and only then a skip. */
function rank(r: ScenarioResult): number {
  const status = r.record.status;
  if (status === 'failed') return 0;
  if (status === 'errored') return 1;
  if (status === 'not-applicable') return 5;
  if (status === 'skipped') return 4;
  return r.outcome === 'flaky' ? 2 : 3;
}

/**
 * One result per scenario id across projects: failed in either project = failed (the failing run, whose
 * `project` names where); passed in one and skipped in the other = passed; skipped everywhere = skipped.
 * Warnings of every passing run are kept; durations add up. Order: first appearance.
 */
export function mergeProjects(results: readonly ScenarioResult[]): ScenarioResult[] {
  const groups = new Map<string, ScenarioResult[]>();
  for (const r of results) groups.set(r.id, [...(groups.get(r.id) ?? []), r]);
  return [...groups.values()].map((runs) => {
    if (runs.length === 1) return runs[0]!;
    const chosen = [...runs].sort((a, b) => rank(a) - rank(b))[0]!;
    const passing = runs.filter((r) => r.record.status === 'passed');
    if (chosen.record.status !== 'passed') return { ...chosen, durationMs: runs.reduce((sum, r) => sum + r.durationMs, 0) };
    const warnings = [...new Set(passing.flatMap((r) => r.warnings.map((w) => `[${r.project}] ${w}`)))];
    const record = { ...chosen.record, warnings: passing.flatMap((r) => r.record.warnings.map((w) => ({ ...w, message: `[${r.project}] ${w.message}` }))) };
    return { ...chosen, warnings, record, durationMs: runs.reduce((sum, r) => sum + r.durationMs, 0) };
  });
}

function toResult(title: string, specFile: string, tags: string[], describe: string[], test: JSONReportTest): ScenarioResult {
  const last = test.results[test.results.length - 1];
  const annotations = [...test.annotations, ...(last?.annotations ?? [])];
  const values = (type: string): string[] => [
    ...new Set(annotations.filter((a) => a.type === type && a.description).map((a) => a.description!.trim())),
  ];
  const named = values('scenario')[0];
  const file = values('scenario-file')[0] ?? (named && /\.ya?ml$/.test(named) ? named : specFile);
  const id = values('scenario-id')[0] ?? (named && named !== file ? named : undefined) ?? title;
  const family = values('family')[0] ?? values('allure.label.feature')[0] ?? familyOf(file, describe);
  const errors = (last?.errors ?? []).map((e) => stripAnsi(e.message ?? ''));
  if (last?.error?.message && errors.length === 0) errors.push(stripAnsi(last.error.message));
  const na = values('not-applicable')[0];
  const skip = annotations.find((a) => a.type === 'skip' || a.type === 'fixme')?.description;
  const record = readOutcome({
    annotations,
    lastStatus: last?.status,
    timeoutMs: test.timeout,
    ...(errors[0] ? { firstErrorLine: errors[0].split('\n')[0] } : {}),
  });
  return {
    id,
    title,
    file,
    family,
    clauses: values('clause'),
    tags: tags.map((t) => (t.startsWith('@') ? t.slice(1) : t)),
    project: test.projectName,
    outcome: test.status,
    lastStatus: last?.status,
    ...(skip !== undefined ? { skipReason: skip || 'skipped' } : {}),
    ...(na !== undefined ? { notApplicable: na } : {}),
    warnings: values('warning'),
    errors,
    record,
    durationMs: test.results.reduce((sum, r) => sum + r.duration, 0),
    retries: Math.max(0, test.results.length - 1),
  };
}

/** specs/<family>/<name>.yaml -> family; otherwise the innermost describe title. */
function familyOf(file: string, describe: string[]): string {
  const m = /(?:^|\/)specs\/([^/]+)\/[^/]+\.ya?ml$/.exec(file.replace(/\\/g, '/'));
  if (m) return m[1]!;
  return describe.filter((d) => d && !/\.(ts|js)$/.test(d)).at(-1) ?? 'other';
}

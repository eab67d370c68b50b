/** Reading a run's verdicts.json, JUnit and Allure results in a form two runs of one selection can be compared in (sharded vs unsharded). */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface VerdictsFile {
  overall: string;
  totals: Record<string, number>;
  problems: string[];
  scenarios: Array<{ id: string; verdict: string; clauses: string[]; durationMs?: number; record: { har?: string } & Record<string, unknown> } & Record<string, unknown>>;
  clauses: Array<{ id: string; verdict: string; scenarios: string[] }>;
  tests?: { total: number };
}

export const readVerdicts = (reports: string): VerdictsFile => JSON.parse(readFileSync(join(reports, 'verdicts.json'), 'utf8')) as VerdictsFile;

/** Verdicts without timings or the HAR file's (random, per-folder) name. */
export function comparableVerdicts(v: VerdictsFile): unknown {
  return {
    overall: v.overall,
    totals: v.totals,
    problems: v.problems,
    clauses: v.clauses,
    scenarios: v.scenarios
      .map(({ durationMs: _d, record: { har, ...record }, ...rest }) => ({ ...rest, record: { ...record, har: har === undefined ? 'none' : 'a file' } }))
      .sort((a, b) => a.id.localeCompare(b.id)),
  };
}

/** JUnit testcases as "suite | name | status", sorted. */
export function junitCases(reports: string): string[] {
  const xml = readFileSync(join(reports, 'junit.xml'), 'utf8');
  const out: string[] = [];
  for (const suite of xml.matchAll(/<testsuite\s[^>]*name="([^"]*)"[^>]*>([\s\S]*?)<\/testsuite>/g)) {
    for (const c of suite[2]!.matchAll(/<testcase\s[^>]*name="([^"]*)"[^>]*?(?:\/>|>([\s\S]*?)<\/testcase>)/g)) {
      const body = c[2] ?? '';
      const status = /<failure\b/.test(body) ? 'failed' : /<error\b/.test(body) ? 'errored' : /<skipped\b/.test(body) ? 'skipped' : 'passed';
      out.push(`${suite[1]} | ${c[1]} | ${status}`);
    }
  }
  return out.sort();
}

/** Allure results as "fullName | historyId | status", sorted. */
export function allureResults(reports: string): string[] {
  const folder = join(reports, 'allure-results');
  return readdirSync(folder)
    .filter((f) => f.endsWith('-result.json'))
    .map((f) => JSON.parse(readFileSync(join(folder, f), 'utf8')) as { fullName: string; historyId: string; status: string })
    .map((r) => `${r.fullName} | ${r.historyId} | ${r.status}`)
    .sort();
}

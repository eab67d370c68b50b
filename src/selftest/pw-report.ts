/**
 * Reading Playwright's JSON report (also what `--list --reporter=json` prints): every test with its project,
 * scenario id, covered clause ids (the `clause` annotations specs/scenario-tests.ts declares) and its outcome
 * record, read by the one reader every report uses (src/harness/report/records/outcome.ts).
 */
import { readOutcome, type OutcomeRecord } from '../harness/report/records/outcome.js';
import { VARIANT_CONSULTS_ANNOTATION } from '../reference/variant-consults.js';

export interface PwAnnotation { type: string; description?: string }
interface PwResult { status?: string; annotations?: PwAnnotation[]; errors?: Array<{ message?: string }> }
interface PwTest { projectName: string; status: string; timeout?: number; annotations?: PwAnnotation[]; results?: PwResult[] }
interface PwSpec { title: string; tests: PwTest[] }
interface PwSuite { specs?: PwSpec[]; suites?: PwSuite[] }
export interface PwJsonReport { suites?: PwSuite[]; errors?: Array<{ message?: string }> }

export interface TestRecord {
  project: string;
  /** The Playwright test title (what project `grep` patterns match). */
  title: string;
  /** The `scenario` annotation, or the title when a test has none. */
  scenario: string;
  /** Clauses the test covers (its `clause` annotations). */
  clauses: string[];
  /** The outcome (a listing, which runs nothing, reads as skipped). */
  outcome: OutcomeRecord;
  /**
   * The variant questions the test made the server ask (only projects with metadata.recordConsults; the
   * variant matrix's clean run, src/reference/variant-consults.ts): in its window, and outside any window so far.
   */
  consults?: { inWindow: string[]; outside: string[] };
}

function consultsOf(t: PwTest): TestRecord['consults'] {
  const last = t.results?.[t.results.length - 1];
  const found = [...(last?.annotations ?? []), ...(t.annotations ?? [])].find((a) => a.type === VARIANT_CONSULTS_ANNOTATION);
  if (found?.description === undefined) return undefined;
  const parsed = JSON.parse(found.description) as { inWindow?: unknown; outside?: unknown };
  const strings = (x: unknown): string[] => (Array.isArray(x) ? x.filter((y): y is string => typeof y === 'string') : []);
  return { inWindow: strings(parsed.inWindow), outside: strings(parsed.outside) };
}

function outcomeOf(t: PwTest): OutcomeRecord {
  const last = t.results?.[t.results.length - 1];
  const firstError = last?.errors?.[0]?.message?.split('\n')[0];
  return readOutcome({
    annotations: [...(t.annotations ?? []), ...(last?.annotations ?? [])],
    lastStatus: last?.status,
    ...(t.timeout ? { timeoutMs: t.timeout } : {}),
    ...(firstError ? { firstErrorLine: firstError } : {}),
  });
}

export function testsOf(report: PwJsonReport): TestRecord[] {
  const out: TestRecord[] = [];
  const walk = (suite: PwSuite): void => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests) {
        const annotations = t.annotations ?? [];
        out.push({
          project: t.projectName,
          title: spec.title,
          scenario: annotations.find((a) => a.type === 'scenario')?.description ?? spec.title,
          clauses: [...new Set(annotations.filter((a) => a.type === 'clause' && a.description).map((a) => a.description as string))],
          outcome: outcomeOf(t),
        });
        const consults = consultsOf(t);
        if (consults) (out[out.length - 1] as TestRecord).consults = consults;
      }
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const s of report.suites ?? []) walk(s);
  return out;
}

/** Errors outside tests (config or load errors): a run that has them proves nothing. */
export function globalErrors(report: PwJsonReport): string[] {
  return (report.errors ?? []).map((e) => e.message ?? 'unknown error').filter((m) => m !== '');
}

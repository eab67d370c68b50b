/**
 * Reading Playwright's JSON report (also what `--list --reporter=json` prints): every test with its project,
 * scenario id, covered clause ids (the `clause` annotations conformance.spec.ts declares) and outcome.
 */
export interface PwAnnotation { type: string; description?: string }
interface PwResult { status?: string; errors?: Array<{ message?: string }> }
interface PwTest { projectName: string; status: string; annotations?: PwAnnotation[]; results?: PwResult[] }
interface PwSpec { title: string; tests: PwTest[] }
interface PwSuite { specs?: PwSpec[]; suites?: PwSuite[] }
export interface PwJsonReport { suites?: PwSuite[]; errors?: Array<{ message?: string }> }

/** `broken`: Playwright could not run the test (e.g. its title changed while the suite was edited mid-run). */
export type Outcome = 'passed' | 'failed' | 'skipped' | 'broken';

export interface TestRecord {
  project: string;
  /** The Playwright test title (what project `grep` patterns match). */
  title: string;
  /** The `scenario` annotation, or the title when a test has none. */
  scenario: string;
  clauses: string[];
  outcome: Outcome;
}

/** Playwright statuses: expected / unexpected / flaky / skipped. A flaky test failed once: counted as failed. */
function outcomeOf(t: PwTest): Outcome {
  if (t.status === 'expected') return 'passed';
  if (t.status === 'skipped') return 'skipped';
  const messages = (t.results ?? []).flatMap((r) => r.errors ?? []).map((e) => e.message ?? '');
  if (messages.length > 0 && messages.every((m) => NOT_RUN.test(m))) return 'broken';
  return 'failed';
}

const NOT_RUN = /Test not found in the worker process/;

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
          clauses: annotations.filter((a) => a.type === 'clause' && a.description).map((a) => a.description as string),
          outcome: outcomeOf(t),
        });
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

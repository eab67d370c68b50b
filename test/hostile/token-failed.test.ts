/**
 * A target whose token is the word `failed` (or any other word of the outcome records: `passed`, `errored`, a
 * clause id): the redaction of that secret must not alter the outcome record on its way from the worker to the
 * reports (issue 29, "token equal to failed"; issue 24: the record is data, not redacted text). Before, the
 * record travelled as one JSON text through the redacting reporter: `"status":"failed"` became
 * `"status":"[REDACTED]"`, and the evaluation crashed (exit 3, no verdict).
 *
 * The path is the real one, in process: the worker builds the record (record-outcome.ts) from a failing check
 * whose message carries the token, announces the token's digests on stdout (secret-digests.ts), and the
 * redacting reporter hands the test to the real outcome reporter (reports/outcomes.json), whose records the
 * verdicts are made of.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { FullConfig, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { CheckFailure } from '../../src/harness/engine/errors.js';
import { checkStatus } from '../../src/harness/checks/status.js';
import { encodeOutcome, type OutcomeRecord } from '../../src/harness/report/records/outcome.js';
import type { OutcomeEntry } from '../../src/harness/report/outputs/outcome-reporter.js';
import { outcomeFromError, passedOutcome } from '../../src/harness/report/records/record-outcome.js';
import RedactingReporter from '../../src/harness/report/outputs/redacting-reporter.js';
import { announceSecrets } from '../../src/harness/report/redaction/secret-digests.js';
import { scenarioOutcome, summarize } from '../../src/harness/report/verdicts/verdicts.js';
import type { ScenarioResult } from '../../src/harness/report/records/scenario-results.js';
import { loadClauseCatalogue } from '../../src/harness/spec/clauses.js';
import { REPO_ROOT } from '../../src/harness/repo-root.js';

const dir = mkdtempSync(join(tmpdir(), 'ftf-token-failed-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Tokens spelling words of the record: its statuses, a kind, a level, a clause id. */
const WORDS = ['failed', 'passed', 'errored', 'non-conformance', 'should', 'RES-HEALTH'];

interface FakeTest {
  test: TestCase;
  result: TestResult;
}

function fakeTest(id: string, status: TestResult['status'], annotations: Array<{ type: string; description?: string }>, error?: string): FakeTest {
  const result = {
    status, duration: 5, stdout: [] as Array<string | Buffer>, stderr: [], errors: error ? [{ message: error }] : [], attachments: [], steps: [], annotations,
  } as unknown as TestResult;
  const test_ = { id, title: `${id}: title`, timeout: 30_000, annotations: [{ type: 'scenario', description: id }, { type: 'clause', description: 'RES-HEALTH' }], parent: { project: () => ({ name: 'sandbox' }) } } as unknown as TestCase;
  return { test: test_, result };
}

for (const token of WORDS) {
  test(`a token spelled "${token}" is redacted from the free text and leaves every outcome record intact`, async () => {
    const out = join(dir, `${token}.json`);
    const reporter = new RedactingReporter({ reporters: [[join(REPO_ROOT, 'src/harness/report/outputs/outcome-reporter.ts'), { outputFile: out }]], configDir: dir });
    reporter.onConfigure({ configFile: undefined, projects: [] } as unknown as FullConfig);
    await reporter.preprocess({});
    reporter.onBegin({ allTests: () => [] } as unknown as Suite);

    // The worker: the token is learnt (digests announced on stdout), then one scenario fails a check whose
    // message quotes the target's body with the token in it, and one passes.
    const chunks: string[] = [];
    announceSecrets([token], (c) => chunks.push(c));
    const failing = checkStatus({ method: 'GET', url: 'http://127.0.0.1:1/api/v1/health', status: 500, headers: {}, body: null, text: `{"access_token":"${token}"} ${token}` }, 200);
    failing.clauses = ['RES-HEALTH'];
    const context = { covers: ['RES-HEALTH'], evidence: { exchanges: ['01 GET health.json'] }, checks: [failing] };
    const failedRecord = outcomeFromError(new CheckFailure([failing]), context);
    const passedRecord = passedOutcome({ ...context, checks: [{ ...failing, passed: true, message: 'status 200' }] });

    const a = fakeTest('health.failing', 'failed', [encodeOutcome(failedRecord)], failing.message);
    const b = fakeTest('health.passing', 'passed', [encodeOutcome(passedRecord)]);
    for (const c of chunks) reporter.onStdOut(c, a.test, a.result);
    reporter.onTestEnd(a.test, a.result);
    reporter.onTestEnd(b.test, b.result);
    await reporter.onEnd({ status: 'failed' } as never);

    const { outcomes } = JSON.parse(readFileSync(out, 'utf8')) as { outcomes: OutcomeEntry[] };
    const byId = new Map(outcomes.map((o) => [o.scenario, o]));
    const failed = byId.get('health.failing')!;
    const passed = byId.get('health.passing')!;
    assert.equal(failed.status, 'failed', 'the failing record is still a failure');
    assert.equal(failed.kind, 'non-conformance');
    assert.equal(failed.code, 'FTF_E_CHECK_FAILED');
    assert.deepEqual(failed.clauses, ['RES-HEALTH']);
    assert.deepEqual(failed.covers, ['RES-HEALTH']);
    assert.deepEqual(failed.outcomes?.map((o) => [o.check, o.status, o.level, o.clauses.join()]), [['status', 'failed', 'must', 'RES-HEALTH']]);
    assert.equal(passed.status, 'passed', 'the passing record is still a pass');
    // The free text no longer holds the token as a word of its own.
    const text = JSON.stringify([failed.reason, failed.outcomes?.[0]?.message, failed.outcomes?.[0]?.actual]);
    assert.ok(!new RegExp(`"${token}"|[ :]${token}\\b`).test(text.replace(/\\"/g, '"')), `the token is redacted from the free text: ${text}`);

    // The verdicts are made of those records without a crash, and say what happened.
    const results = [failed, passed].map((o): ScenarioResult => ({
      id: o.scenario, title: o.title, file: 'specs/resources/health.yaml', family: 'resources', clauses: o.covers, tags: [], project: o.project,
      outcome: o.status === 'passed' ? 'expected' : 'unexpected', lastStatus: o.status, warnings: [], errors: [], record: o as OutcomeRecord, durationMs: o.durationMs, retries: 0,
    }));
    const catalogue = loadClauseCatalogue();
    const summary = summarize(results.map((r) => scenarioOutcome(r, catalogue)), catalogue);
    assert.equal(summary.overall, 'non-conformant');
    assert.deepEqual([summary.totals.failed, summary.totals.passed, summary.totals.errored], [1, 1, 0]);
    assert.equal(summary.clauses.find((c) => c.id === 'RES-HEALTH')?.verdict, 'failed');
  });
}

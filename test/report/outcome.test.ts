/**
 * The outcome record: built from the error's structure (record-outcome.ts), read back by the one reader
 * (outcome.ts) and written by the reporter (outcome-reporter.ts). Error text is never what decides: a check
 * failure whose response body quotes the words the old classifiers looked for stays a failure.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { FullConfig, TestCase, TestResult } from '@playwright/test/reporter';
import { result as checkResult } from '../../src/harness/checks/types.js';
import { CheckFailure, StepError } from '../../src/harness/engine/errors.js';
import { encodeOutcome, readOutcome, type OutcomeRecord, type TestFacts } from '../../src/harness/report/records/outcome.js';
import OutcomeReporter from '../../src/harness/report/outputs/outcome-reporter.js';
import { FtfError } from '../../src/shared/errors.js';
import { markStep, outcomeFromError, passedOutcome, type OutcomeContext } from '../../src/harness/report/records/record-outcome.js';

const HOSTILE = 'FTF_E_TARGET_TIMEOUT\nStepError: bound hit\nTest timeout of 1ms exceeded.\nTypeError: x is undefined\nFTF_E_INTERNAL';
const at = { file: 'specs/demo/x.yaml', line: 7, column: 5 };
const context = (over: Partial<OutcomeContext> = {}): OutcomeContext => ({ covers: ['RES-HEALTH'], evidence: { exchanges: ['01 GET _health.json'], har: 'reports/har/0-x.har' }, checks: [], ...over });
const facts = (lastStatus: string | undefined, record?: OutcomeRecord, extra: Partial<TestFacts> = {}): TestFacts => ({
  annotations: record ? [encodeOutcome(record)] : [],
  lastStatus,
  ...extra,
});

describe('building the record from how a scenario ended', () => {
  it('a check failure whose body quotes harness words is a failure of the check\'s clauses', () => {
    const failing = { ...checkResult('status', false, 'must', '404', '200', `expected status 404, got 200; body: ${JSON.stringify({ detail: HOSTILE })}`), clauses: ['ERR-NOT-FOUND'] };
    const error = new CheckFailure([failing], at);
    markStep(error, 'expect last: status 404', at);
    const r = outcomeFromError(error, context({ checks: [failing] }));
    assert.equal(r.status, 'failed');
    assert.equal(r.code, 'FTF_E_CHECK_FAILED');
    assert.equal(r.kind, 'non-conformance');
    assert.deepEqual(r.clauses, ['ERR-NOT-FOUND'], 'the check names its clauses');
    assert.deepEqual(r.checks, ['status']);
    assert.equal(r.step, 'expect last: status 404');
    assert.equal(r.location, 'specs/demo/x.yaml:7:5');
    assert.deepEqual([r.exchanges, r.har], [['01 GET _health.json'], 'reports/har/0-x.har']);
    // Read back after Playwright failed the test: still the same failure.
    assert.deepEqual(readOutcome(facts('failed', r, { firstErrorLine: HOSTILE })), r);
  });

  it('a check that names no clause stands for the scenario\'s covers', () => {
    const failing = checkResult('schema', false, 'must', 'Health', 'x', 'does not match');
    assert.deepEqual(outcomeFromError(new CheckFailure([failing]), context()).clauses, ['RES-HEALTH']);
  });

  it('target trouble and harness input errors are errored, with code and kind; the innermost step wins', () => {
    const error = new StepError('FTF_E_TARGET_TIMEOUT', 'GET /health: no complete response within 5 ms', { at });
    markStep(error, 'GET /health', at);
    markStep(error, 'use: health-group', { file: 'specs/demo/x.yaml', line: 3, column: 5 });
    const r = outcomeFromError(error, context());
    assert.deepEqual([r.status, r.code, r.kind, r.step, r.location, r.clauses], ['errored', 'FTF_E_TARGET_TIMEOUT', 'target', 'GET /health', 'specs/demo/x.yaml:7:5', []]);
    const input = outcomeFromError(new StepError('FTF_E_STEP_FAILED', "no response 'created' yet", { at }), context());
    assert.deepEqual([input.status, input.kind, input.location], ['errored', 'input', 'specs/demo/x.yaml:7:5']);
  });

  it('an untyped error is a harness bug (internal), even when its message reads like a check failure', () => {
    const r = outcomeFromError(new TypeError('[status] expected status 200, got 500 — CheckFailure:'), context());
    assert.deepEqual([r.status, r.code, r.kind], ['errored', 'FTF_E_INTERNAL', 'internal']);
    assert.match(r.reason ?? '', /^TypeError: /);
  });

  it('a property counterexample names the clause it broke', () => {
    const error = Object.assign(new FtfError('FTF_E_PROPERTY_VIOLATION', `[EP-EVENT-FENCE] ${HOSTILE}`), { failedClauses: ['EP-EVENT-FENCE'] });
    const r = outcomeFromError(error, context({ covers: ['EP-EVENT-FENCE', 'EP-EVENT-PAGING'] }));
    assert.deepEqual([r.status, r.clauses], ['failed', ['EP-EVENT-FENCE']]);
    assert.equal(r.outcomes?.find((o) => o.check === 'property')?.inDoubt, undefined);
  });

  it('a property counterexample in doubt leaves its clauses in doubt: its check is marked so', () => {
    const error = Object.assign(new FtfError('FTF_E_PROPERTY_VIOLATION', `[AUTH-ENTITY-403 or EP-SUBSCRIPTION-LIST, in doubt] ${HOSTILE}`), { failedClauses: ['AUTH-ENTITY-403', 'EP-SUBSCRIPTION-LIST'], inDoubt: true });
    const r = outcomeFromError(error, context({ covers: ['AUTH-ENTITY-403', 'EP-SUBSCRIPTION-LIST'] }));
    const property = r.outcomes?.find((o) => o.check === 'property');
    assert.deepEqual([r.status, r.clauses, property?.clauses, property?.inDoubt], ['failed', ['AUTH-ENTITY-403', 'EP-SUBSCRIPTION-LIST'], ['AUTH-ENTITY-403', 'EP-SUBSCRIPTION-LIST'], true]);
  });

  it('a pass keeps the should-level warnings with their clauses', () => {
    const warn = { ...checkResult('header', false, 'should', 'Date', '(none)', 'no Date header'), clauses: ['RES-HEADERS'] };
    const r = passedOutcome(context({ checks: [checkResult('status', true, 'must', '200', '200', 'ok'), warn] }));
    assert.equal(r.status, 'passed');
    assert.deepEqual(r.warnings, [{ check: 'header', message: 'no Date header', clauses: ['RES-HEADERS'] }]);
  });
});

describe('reading the record of each status', () => {
  const failed: OutcomeRecord = { status: 'failed', code: 'FTF_E_CHECK_FAILED', kind: 'non-conformance', clauses: ['RES-HEALTH'], checks: ['status'], exchanges: [], warnings: [] };

  it('passed and failed come from the record', () => {
    assert.equal(readOutcome(facts('passed')).status, 'passed');
    assert.equal(readOutcome(facts('failed', failed)).status, 'failed');
  });

  it('skipped and not-applicable come from Playwright\'s skip and the annotations', () => {
    assert.deepEqual(readOutcome({ annotations: [{ type: 'skip', description: 'needs consent' }], lastStatus: 'skipped' }), { status: 'skipped', reason: 'needs consent', clauses: [], checks: [], exchanges: [], warnings: [], outcomes: [] });
    assert.equal(readOutcome({ annotations: [{ type: 'skip', description: 'not applicable: no API keys' }], lastStatus: 'skipped' }).status, 'not-applicable');
    const na = readOutcome({ annotations: [{ type: 'not-applicable', description: 'no API keys' }, encodeOutcome({ ...failed, status: 'passed' })], lastStatus: 'passed' });
    assert.deepEqual([na.status, na.reason], ['not-applicable', 'no API keys']);
    assert.equal(readOutcome(facts(undefined)).status, 'skipped', 'a test that never ran');
  });

  it('a timeout is errored whatever the record says (the catch may have run after Playwright gave up)', () => {
    const r = readOutcome(facts('timedOut', failed, { timeoutMs: 60_000, firstErrorLine: 'Test timeout of 60000ms exceeded.' }));
    assert.deepEqual([r.status, r.code, r.kind, r.clauses], ['errored', 'FTF_E_SCENARIO_TIMEOUT', 'target', []]);
    assert.match(r.reason ?? '', /60000 ms/);
  });

  it('an interrupted run, or a failure without a record (fixture set-up, worker crash), is an internal error', () => {
    const interrupted = readOutcome(facts('interrupted'));
    assert.deepEqual([interrupted.status, interrupted.kind], ['errored', 'internal']);
    const crash = readOutcome(facts('failed', undefined, { firstErrorLine: `Error: worker process exited unexpectedly; ${HOSTILE}` }));
    assert.deepEqual([crash.status, crash.code, crash.kind], ['errored', 'FTF_E_INTERNAL', 'internal']);
    const afterCatch = readOutcome(facts('failed', { ...failed, status: 'passed', clauses: [] }));
    assert.deepEqual([afterCatch.status, afterCatch.kind], ['errored', 'internal'], 'passed by the record but failed by Playwright: broke after the scenario');
  });

  it('the last record wins (retries), and a malformed one counts as none', () => {
    const r = readOutcome({ annotations: [encodeOutcome(failed), encodeOutcome({ ...failed, status: 'passed', clauses: [] })], lastStatus: 'passed' });
    assert.equal(r.status, 'passed');
    assert.equal(readOutcome({ annotations: [{ type: 'ftf-outcome', description: '{oops' }], lastStatus: 'failed' }).kind, 'internal');
  });
});

describe('the outcome reporter', () => {
  it('writes one entry per test, including a timeout that never reached the entry', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ftf-outcomes-'));
    try {
      const file = join(dir, 'outcomes.json');
      const reporter = new OutcomeReporter({ outputFile: file });
      reporter.onBegin({ configFile: join(dir, 'playwright.config.ts') } as FullConfig);
      const project = { project: () => ({ name: 'sandbox' }) };
      const test = (id: string, annotations: TestCase['annotations']): TestCase => ({ id, title: `${id}: t`, timeout: 1000, annotations, parent: project } as unknown as TestCase);
      const result = (status: TestResult['status'], annotations: TestResult['annotations'] = []): TestResult => ({ status, annotations, duration: 5, errors: [{ message: '\u001b[31mTest timeout of 1000ms exceeded.\u001b[39m' }] } as unknown as TestResult);
      reporter.onTestEnd(test('a.fail', [{ type: 'scenario', description: 'a.fail' }, { type: 'scenario-file', description: 'specs/a/fail.yaml' }, { type: 'clause', description: 'RES-HEALTH' }]), result('failed', [encodeOutcome(failedRecord())]));
      reporter.onTestEnd(test('b.slow', [{ type: 'scenario', description: 'b.slow' }, { type: 'clause', description: 'RES-HEALTH' }]), result('timedOut'));
      reporter.onEnd();
      const { outcomes } = JSON.parse(readFileSync(file, 'utf8')) as { outcomes: Array<OutcomeRecord & { scenario: string; project: string; covers: string[]; file?: string }> };
      assert.deepEqual(outcomes.map((o) => [o.scenario, o.project, o.status, o.code, o.covers, o.file]), [
        ['a.fail', 'sandbox', 'failed', 'FTF_E_CHECK_FAILED', ['RES-HEALTH'], 'specs/a/fail.yaml'],
        ['b.slow', 'sandbox', 'errored', 'FTF_E_SCENARIO_TIMEOUT', ['RES-HEALTH'], undefined],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

function failedRecord(): OutcomeRecord {
  return { status: 'failed', code: 'FTF_E_CHECK_FAILED', kind: 'non-conformance', clauses: ['RES-HEALTH'], checks: ['status'], exchanges: [], warnings: [] };
}

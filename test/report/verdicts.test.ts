import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JSONReportTest } from '@playwright/test/reporter';
import { encodeOutcome, OUTCOME_ANNOTATION, type OutcomeRecord } from '../../src/harness/report/records/outcome.js';
import { exitCodeFor, summarize, worst } from '../../src/harness/report/verdicts/verdicts.js';
import { catalogue, demoReport, only, outcomes, spec } from './helpers.js';

const byId = (list: ReturnType<typeof outcomes>) => new Map(list.map((o) => [o.id, o]));

test('scenario verdicts from a recorded Playwright report', () => {
  const o = byId(outcomes(demoReport()));
  assert.equal(o.get('demo.health')?.verdict, 'passed');
  assert.deepEqual(o.get('demo.health')?.clauses, ['RES-HEALTH', 'AUTH-BEARER']);
  assert.equal(o.get('demo.health')?.family, 'demo');
  assert.equal(o.get('demo.wrong-status')?.verdict, 'failed');
  assert.match(o.get('demo.wrong-status')?.reason ?? '', /expected status 418, got 200/);
  assert.equal(o.get('demo.should-only')?.verdict, 'warning', 'a failure of a scenario covering only should-clauses is a warning');
  assert.equal(o.get('demo.timeout')?.verdict, 'errored', 'a transport timeout means the target broke, not that it answered wrongly');
  assert.equal(o.get('demo.timeout')?.record.kind, 'target');
  assert.equal(o.get('demo.timeout')?.internal, false);
  assert.deepEqual(o.get('demo.wrong-status')?.record.checks, ['status']);
  assert.match(o.get('demo.wrong-status')?.record.location ?? '', /wrong-status\.yaml:\d+:\d+$/);
  assert.equal(o.get('demo.production-only')?.verdict, 'skipped');
  assert.match(o.get('demo.production-only')?.reason ?? '', /needs production/);
});

test('clause verdict is the worst of its scenarios; totals and overall', () => {
  const s = summarize(outcomes(demoReport()), catalogue);
  const health = s.clauses.find((c) => c.id === 'RES-HEALTH');
  assert.equal(health?.verdict, 'failed');
  assert.deepEqual(health?.scenarios.map((x) => x.id).sort(), ['demo.health', 'demo.timeout', 'demo.wrong-status']);
  assert.equal(s.clauses.find((c) => c.id === 'AUTH-BEARER')?.verdict, 'passed');
  assert.equal(s.clauses.find((c) => c.id === 'AUTH-API-KEY')?.verdict, 'skipped');
  assert.equal(s.clauses.find((c) => c.id === 'EVS-ORDER')?.verdict, 'not-tested');
  assert.deepEqual([s.totals.total, s.totals.passed, s.totals.failed, s.totals.warning, s.totals.errored, s.totals.skipped], [5, 1, 1, 1, 1, 1]);
  assert.equal(s.totals.executed, 4);
  assert.equal(s.overall, 'non-conformant');
  assert.equal(exitCodeFor(s), 1);
  assert.equal(worst(['passed', 'skipped']), 'passed');
  assert.equal(worst(['skipped', 'not-applicable']), 'skipped');
  assert.equal(worst(['warning', 'errored', 'failed']), 'failed');
});

test('--fail-on should turns warnings into a non-conformant verdict', () => {
  const report = only(demoReport(), ['demo.health', 'demo.should-only']);
  assert.equal(summarize(outcomes(report), catalogue, { failOn: 'must' }).overall, 'conformant');
  const strict = summarize(outcomes(report), catalogue, { failOn: 'should' });
  assert.equal(strict.overall, 'non-conformant');
  assert.equal(exitCodeFor(strict), 1);
});

test('a run that executed nothing is never green', () => {
  const none = summarize(outcomes(only(demoReport(), [])), catalogue);
  assert.equal(none.overall, 'nothing-tested');
  assert.equal(exitCodeFor(none), 2);
  const skippedOnly = summarize(outcomes(only(demoReport(), ['demo.production-only'])), catalogue);
  assert.equal(skippedOnly.totals.total, 1);
  assert.equal(skippedOnly.overall, 'nothing-tested');
  assert.equal(exitCodeFor(skippedOnly), 2);
});

/** Replaces the outcome record of a spec's test (the record decides; the error text is only shown). */
function setRecord(t: JSONReportTest, record: OutcomeRecord): void {
  const result = t.results[t.results.length - 1]!;
  result.annotations = [...(result.annotations ?? []).filter((a) => a.type !== OUTCOME_ANNOTATION), encodeOutcome(record)];
  t.annotations = t.annotations.filter((a) => a.type !== OUTCOME_ANNOTATION);
}

test('should-level warnings of a passing test, not-applicable, flaky and internal errors', () => {
  const report = only(demoReport(), ['demo.health', 'demo.wrong-status', 'demo.production-only']);
  const health = spec(report, 'demo.health').tests[0]!;
  setRecord(health, { status: 'passed', clauses: [], checks: [], exchanges: [], warnings: [{ check: 'header', message: 'no Date header', clauses: ['RES-HEALTH'] }] });
  spec(report, 'demo.production-only').tests[0]!.annotations.push({ type: 'not-applicable', description: 'the target has no API keys' });
  const failing = spec(report, 'demo.wrong-status').tests[0]!;
  setRecord(failing, { status: 'errored', code: 'FTF_E_INTERNAL', kind: 'internal', reason: 'TypeError: cannot read properties of undefined (reading body)', clauses: [], checks: [], exchanges: [], warnings: [] });
  const o = byId(outcomes(report));
  assert.equal(o.get('demo.health')?.verdict, 'warning');
  assert.equal(o.get('demo.health')?.reason, '[header] no Date header');
  assert.equal(o.get('demo.production-only')?.verdict, 'not-applicable');
  assert.equal(o.get('demo.wrong-status')?.verdict, 'errored');
  assert.equal(o.get('demo.wrong-status')?.internal, true);
  assert.equal(exitCodeFor(summarize([...o.values()], catalogue)), 3, 'a harness crash is an internal error, not a verdict');

  const invalid = only(demoReport(), ['demo.wrong-status']);
  const invalidSpec = spec(invalid, 'demo.wrong-status');
  invalidSpec.tags.push('@invalid-scenario');
  setRecord(invalidSpec.tests[0]!, { status: 'errored', code: 'FTF_E_SCENARIO_INVALID', kind: 'input', reason: 'FTF_E_SCENARIO_INVALID: unknown step', clauses: [], checks: [], exchanges: [], warnings: [] });
  const [broken] = outcomes(invalid);
  assert.equal(broken?.verdict, 'errored', 'a broken scenario file is the harness\'s problem, not the target\'s');
  assert.equal(broken?.internal, true);

  const flakyReport = only(demoReport(), ['demo.health']);
  spec(flakyReport, 'demo.health').tests[0]!.status = 'flaky';
  const [flaky] = outcomes(flakyReport);
  assert.equal(flaky?.verdict, 'passed');
  assert.equal(flaky?.flaky, true);
});

test('the record decides, not the error text: a check failure quoting harness words stays a failure', () => {
  const report = only(demoReport(), ['demo.wrong-status']);
  const t = spec(report, 'demo.wrong-status').tests[0]!;
  const hostile = 'body: {"detail":"FTF_E_TARGET_TIMEOUT StepError: Test timeout of 1ms exceeded TypeError: x"}';
  t.results[t.results.length - 1]!.errors = [{ message: `Error: ${hostile}\nStepError: FTF_E_INTERNAL\nTest timeout of 1ms exceeded.` }];
  const [o] = outcomes(report);
  assert.equal(o?.verdict, 'failed');
  assert.equal(o?.internal, false);
  assert.deepEqual(o?.record.clauses, ['RES-HEALTH']);
  assert.equal(exitCodeFor(summarize([o!], catalogue)), 1);
});

test('problems (e.g. stale waivers) fail an otherwise conformant run', () => {
  const s = summarize(outcomes(only(demoReport(), ['demo.health'])), catalogue, { problems: ['waiver x is stale'] });
  assert.equal(s.overall, 'non-conformant');
});

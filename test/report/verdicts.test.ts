import assert from 'node:assert/strict';
import { test } from 'node:test';
import { exitCodeFor, summarize, worst } from '../../src/harness/report/verdicts.js';
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
  assert.equal(o.get('demo.timeout')?.verdict, 'errored', 'a StepError (bound hit) means the target/harness broke');
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

test('should-level warnings of a passing test, not-applicable, flaky and internal errors', () => {
  const report = only(demoReport(), ['demo.health', 'demo.wrong-status', 'demo.production-only']);
  spec(report, 'demo.health').tests[0]!.annotations.push({ type: 'warning', description: '[header] no Date header' });
  spec(report, 'demo.production-only').tests[0]!.annotations.push({ type: 'not-applicable', description: 'the target has no API keys' });
  const failing = spec(report, 'demo.wrong-status').tests[0]!;
  failing.results[0]!.errors = [{ message: 'TypeError: cannot read properties of undefined (reading body)' }];
  const o = byId(outcomes(report));
  assert.equal(o.get('demo.health')?.verdict, 'warning');
  assert.equal(o.get('demo.health')?.reason, '[header] no Date header');
  assert.equal(o.get('demo.production-only')?.verdict, 'not-applicable');
  assert.equal(o.get('demo.wrong-status')?.verdict, 'errored');
  assert.equal(o.get('demo.wrong-status')?.internal, true);
  assert.equal(exitCodeFor(summarize([...o.values()], catalogue)), 3, 'a harness crash is an internal error, not a verdict');

  const invalid = only(demoReport(), ['demo.wrong-status']);
  spec(invalid, 'demo.wrong-status').tags.push('@invalid-scenario');
  const [broken] = outcomes(invalid);
  assert.equal(broken?.verdict, 'errored', 'a broken scenario file is the harness\'s problem, not the target\'s');
  assert.equal(broken?.internal, true);

  const flakyReport = only(demoReport(), ['demo.health']);
  spec(flakyReport, 'demo.health').tests[0]!.status = 'flaky';
  const [flaky] = outcomes(flakyReport);
  assert.equal(flaky?.verdict, 'passed');
  assert.equal(flaky?.flaky, true);
});

test('problems (e.g. stale waivers) fail an otherwise conformant run', () => {
  const s = summarize(outcomes(only(demoReport(), ['demo.health'])), catalogue, { problems: ['waiver x is stale'] });
  assert.equal(s.overall, 'non-conformant');
});

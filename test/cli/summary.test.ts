/**
 * What `run` prints and writes after Playwright, over recorded outcome records (the demo report, run in two
 * projects like the embedded reference's sandbox and production): the console summary reconciles tests with
 * scenarios and names every skip reason with its count per environment; verdicts.json carries the test tally
 * and the implementation version; reports/junit.xml is written from the same verdicts.
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { JSONReport, JSONReportTest } from '@playwright/test/reporter';
import { NO_TEST_REASON, tallyTests } from '../../src/harness/report/verdicts/test-tally.js';
import { PRODUCTION_TAG, SANDBOX_ONLY_REASON, SCOPE_METADATA } from '../../src/harness/scenario/environment.js';
import type { VerdictSummary } from '../../src/harness/report/verdicts/verdicts.js';
import { skippedRun, twoProjects } from '../report/helpers.js';
import { cli, scratch, writeProfile } from './helpers.js';

const dir = scratch('ftf-cli-summary-');
after(() => rmSync(dir, { recursive: true, force: true }));
const reports = process.env.FTF_REPORTS_DIR!;
process.env.FTF_SUMMARY_TEST_SECRET = 'summary-test-secret-value';

const NOT_APPLICABLE = 'not applicable: the target has no webhooks';

/** sandbox: the demo report as recorded; production: health not applicable, every other test skipped (by the guard, unless it has its own reason). */
const report = twoProjects((t: JSONReportTest, title: string) => {
  const skipped = skippedRun(t, 'production');
  if (!title.startsWith('demo.health:')) return skipped;
  return { ...skipped, annotations: [...t.annotations, { type: 'skip', description: NOT_APPLICABLE }] };
});

function profile(implementation: string): string {
  return writeProfile(dir, `target-${Math.random().toString(36).slice(2)}.yaml`, [
    'name: summary test target',
    'base_url: http://127.0.0.1:9/api/v1',
    'auth_url: http://127.0.0.1:9',
    'environment: sandbox',
    implementation,
    'credentials:',
    '  primary:',
    '    kind: client_credentials',
    '    client_id: x',
    '    client_secret_env: FTF_SUMMARY_TEST_SECRET',
    '',
  ].join('\n'));
}

async function evaluate(implementation = ''): Promise<{ out: string; verdicts: VerdictSummary; junit: string }> {
  writeFileSync(join(reports, 'results.json'), JSON.stringify(report));
  rmSync(join(reports, 'junit.xml'), { force: true });
  const r = await cli('run', '--evaluate-only', '--no-report', '--target', profile(implementation));
  assert.equal(r.code, 1, r.err || r.out); // the demo report has a must-level failure
  return { out: r.out, verdicts: JSON.parse(readFileSync(join(reports, 'verdicts.json'), 'utf8')) as VerdictSummary, junit: readFileSync(join(reports, 'junit.xml'), 'utf8') };
}

describe('run: the console summary', () => {
  test('reconciles tests (per project) with scenarios and says why they differ', async () => {
    const { out, verdicts } = await evaluate();
    // sandbox: 1 passed, 1 failed, 1 warning, 1 errored, 1 skipped; production: 1 not applicable, 4 skipped.
    assert.match(out, /^10 tests \(sandbox 5, production 5\): 1 passed, 1 failed, 1 warning, 1 errored, 5 skipped, 1 not applicable$/m);
    assert.match(out, /^ {2}= 5 scenarios: 1 passed, 1 failed, 1 warning, 1 errored, 0 waived, 1 skipped, 0 not applicable$/m);
    assert.match(out, /each scenario runs once per environment \(sandbox, production\); a scenario's verdict is its worst run/);
    const t = verdicts.tests!;
    assert.equal(t.total, 10);
    assert.equal(t.scenarios, verdicts.totals.total);
    assert.equal(t.passed + t.failed + t.warning + t.errored + t.skipped + t['not-applicable'], t.total);
    assert.deepEqual(Object.keys(t.environments), ['sandbox', 'production']);
  });

  test('against one shared target the two projects are named as phases, not environments', async () => {
    const phased = twoProjects(() => undefined);
    let i = 0;
    const rename = (s: JSONReport['suites'][number]): void => {
      for (const sp of s.specs) for (const t of sp.tests) t.projectName = i++ % 2 ? 'exclusive' : 'shared';
      (s.suites ?? []).forEach(rename);
    };
    phased.suites.forEach(rename);
    writeFileSync(join(reports, 'results.json'), JSON.stringify(phased));
    const r = await cli('run', '--evaluate-only', '--no-report', '--target', profile(''));
    assert.match(r.out, /one shared target: each scenario runs once, in one phase: shared \(side by side\) or exclusive \(one at a time\)/, r.out);
    assert.doesNotMatch(r.out, /once per environment/);
  });

  test('names every skip reason with its count and where', async () => {
    const { out, verdicts } = await evaluate();
    // demo.production-only already carries its own skip reason, which it keeps in production too.
    assert.match(out, /^SKIP {3}3 × production target: mutations need --allow-mutations and allow_mutations: true in the profile {2}\[production 3\]$/m);
    assert.match(out, /^SKIP {3}2 × needs production: the target profile does not declare it {2}\[sandbox 1, production 1\]$/m);
    assert.match(out, new RegExp(`^N/A {4}1 × ${NOT_APPLICABLE} {2}\\[production 1\\]$`, 'm'));
    const counted = verdicts.tests!.skipReasons.reduce((n, r) => n + r.count, 0);
    assert.equal(counted, verdicts.tests!.skipped + verdicts.tests!['not-applicable'], 'every skipped test is under one reason');
  });

  test('the implementation version the profile states is shown and recorded', async () => {
    const stated = await evaluate('implementation:\n  version: "4.2.0-rc1"');
    assert.match(stated.out, /^implementation version: 4\.2\.0-rc1 \(stated by the profile\)$/m);
    assert.deepEqual(stated.verdicts.implementation, { observed: [], declared: '4.2.0-rc1', version: '4.2.0-rc1', source: 'profile' });
    assert.match(stated.junit, /<property name="implementation_version" value="4\.2\.0-rc1"\/>/);
    const header = await evaluate('implementation:\n  version_header: X-Api-Version');
    assert.match(header.out, /^implementation version: not known \(header x-api-version was not seen in any response\)$/m);
    const none = await evaluate();
    assert.match(none.out, /^implementation version: not stated \(profile field implementation\)$/m);
  });

  test('junit.xml is written from the verdicts: one testcase per scenario, not per test', async () => {
    const { junit, verdicts } = await evaluate();
    assert.match(junit, new RegExp(`<testsuites name="ftf-conformance" tests="${verdicts.totals.total}" failures="1" errors="1" skipped="1"`));
    assert.equal(junit.match(/<testcase /g)?.length, verdicts.totals.total);
  });
});

/**
 * The embedded reference's production project runs a share (scenario/environment.ts, metadata scope): here
 * demo.production-only (skipped there with its own reason) and demo.wrong-status (skipped by the guard); the
 * other three scenarios have no test in production.
 */
const trimmed = (() => {
  const r = twoProjects((t: JSONReportTest, title: string) => (/^demo\.(production-only|wrong-status):/.test(title) ? skippedRun(t, 'production') : undefined));
  const projects = (r.config.projects ?? []).map((p) => (p.name === 'production' ? { ...p, metadata: { ...p.metadata, [SCOPE_METADATA]: PRODUCTION_TAG } } : p));
  return { ...r, config: { ...r.config, projects } };
})();

describe('run: a production project that runs a share of the scenarios', () => {
  test('the scenarios it leaves out are counted nowhere in production, named once with the rule, and kept in junit.xml', async () => {
    writeFileSync(join(reports, 'results.json'), JSON.stringify(trimmed));
    const r = await cli('run', '--evaluate-only', '--no-report', '--target', profile(''));
    assert.equal(r.code, 1, r.err || r.out);
    const out = r.out;
    // Not counted as passed or skipped in production: 2 tests there, both skipped.
    assert.match(out, /^7 tests \(sandbox 5, production 2\): 1 passed, 1 failed, 1 warning, 1 errored, 3 skipped, 0 not applicable$/m);
    assert.match(out, /^ {2}= 5 scenarios: 1 passed, 1 failed, 1 warning, 1 errored, 0 waived, 1 skipped, 0 not applicable$/m);
    assert.equal(out.match(/^ONLY .*$/gm)?.length, 1, out);
    assert.ok(out.includes(`ONLY   3 scenarios run in sandbox only (no test in production): ${SANDBOX_ONLY_REASON}`), out);
    assert.match(out, /a scenario runs once in each environment that has it/);
    const verdicts = JSON.parse(readFileSync(join(reports, 'verdicts.json'), 'utf8')) as VerdictSummary;
    assert.deepEqual(verdicts.tests!.environments.production!.notRun, { scenarios: ['demo.health', 'demo.should-only', 'demo.timeout'], reason: SANDBOX_ONLY_REASON });
    assert.equal(verdicts.tests!.environments.sandbox!.notRun, undefined);
    const junit = readFileSync(join(reports, 'junit.xml'), 'utf8');
    assert.equal(junit.match(/<testcase /g)?.length, 5, 'every scenario is still one testcase');
    assert.equal(junit.match(/<property name="not_run_in" value="production"\/>/g)?.length, 3);
    assert.match(junit, /<property name="not_run_in_production" value="3 scenarios: their clauses do not differ by environment/);
  });
});

test('tallyTests: an environment missing scenarios names them, with the project\'s reason or that no test was there', () => {
  const tests = [
    { id: 'a', project: 'sandbox', verdict: 'passed' as const },
    { id: 'b', project: 'sandbox', verdict: 'passed' as const },
    { id: 'b', project: 'production', verdict: 'skipped' as const, reason: 'guard' },
  ];
  assert.deepEqual(tallyTests(tests, 'x', { production: 'by rule' }).environments.production!.notRun, { scenarios: ['a'], reason: 'by rule' });
  assert.deepEqual(tallyTests(tests, 'x').environments.production!.notRun, { scenarios: ['a'], reason: NO_TEST_REASON });
  assert.equal(tallyTests(tests.slice(0, 2), 'x').environments.sandbox!.notRun, undefined, 'one environment: nothing is missing');
});

test('tallyTests: an external target has one unnamed project, named after the profile environment', () => {
  const t = tallyTests(
    [
      { id: 'a', project: '', verdict: 'passed' },
      { id: 'b', project: '', verdict: 'skipped', reason: 'needs clock: the target profile does not declare it' },
      { id: 'c', project: '', verdict: 'skipped', reason: 'needs clock: the target profile does not declare it' },
    ],
    'production',
  );
  assert.deepEqual(Object.keys(t.environments), ['production']);
  assert.deepEqual(t.environments.production!.skipReasons, [{ reason: 'needs clock: the target profile does not declare it', count: 2, notApplicable: false }]);
  assert.equal(t.scenarios, 3);
});

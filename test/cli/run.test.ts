import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { JSONReport, JSONReportSuite } from '@playwright/test/reporter';
import { playwrightArgs, playwrightEnv } from '../../src/cli/playwright.js';
import { cli, closedPort, fakePlaywright, FIXTURES, scratch, writeProfile } from './helpers.js';
import { readRunSettings } from '../../src/shared/run-settings.js';

const dir = scratch('ftf-cli-run-');
after(() => rmSync(dir, { recursive: true, force: true }));
const reports = process.env.FTF_REPORTS_DIR!;
const recorded = JSON.parse(readFileSync(join(FIXTURES, 'playwright-results.json'), 'utf8')) as JSONReport;

/** The recorded report with only the given scenario ids. */
function only(...ids: string[]): JSONReport {
  const keep = (s: JSONReportSuite): JSONReportSuite => ({ ...s, specs: s.specs.filter((sp) => ids.some((id) => sp.title.startsWith(`${id}:`))), suites: (s.suites ?? []).map(keep) });
  return { ...recorded, suites: recorded.suites.map(keep) };
}

test('run: conformant run exits 0 and writes verdicts + Allure environment/categories', async () => {
  const fake = fakePlaywright(only('demo.health', 'demo.production-only'));
  const r = await cli('run', '--no-report', '--tag', 'smoke', '--grep', 'health');
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /verdict: CONFORMANT/);
  assert.match(r.out, /^SKIP {3}1 × needs production: the target profile does not declare it$/m);
  const call = fake.calls[0]!;
  // The selection reaches the spec files in the run settings (FTF_RUN, scenario/selection.ts), not as Playwright flags.
  assert.deepEqual(call.args, ['playwright', 'test']);
  assert.deepEqual(readRunSettings(call.env).selection, { grep: 'health', tag: 'smoke' });
  assert.equal(call.env.FTF_BLOB_REPORT, undefined, 'an unsharded run writes no blob');
  assert.equal(call.env.FTF_TARGET, undefined, 'the reference profile is left to the per-worker fixtures');
  const verdicts = JSON.parse(readFileSync(join(reports, 'verdicts.json'), 'utf8')) as { overall: string; totals: { passed: number } };
  assert.equal(verdicts.overall, 'conformant');
  assert.equal(verdicts.totals.passed, 1);
  assert.ok(existsSync(join(reports, 'allure-results/environment.properties')));
  assert.ok(existsSync(join(reports, 'allure-results/categories.json')));
});

test('run: failures exit 1 and say which clause broke and how to reproduce', async () => {
  fakePlaywright(only('demo.health', 'demo.wrong-status'));
  const r = await cli('run', '--no-report');
  assert.equal(r.code, 1);
  assert.match(r.out, /FAIL {3}demo\.wrong-status {2}\[RES-HEALTH\]/);
  assert.match(r.out, /expected status 418, got 200/);
  assert.match(r.out, /reproduce: npx ftf-conformance run --grep '\^demo\\\.wrong-status:'$/m);
  assert.match(r.out, /clauses broken: RES-HEALTH/);
});

test('run: --fail-on should fails on warnings, the default does not', async () => {
  fakePlaywright(only('demo.health', 'demo.should-only'));
  assert.equal((await cli('run', '--no-report')).code, 0);
  assert.equal((await cli('run', '--no-report', '--fail-on', 'should')).code, 1);
  assert.equal((await cli('run', '--no-report', '--fail-on', 'never')).code, 2);
});

test('run: nothing selected / nothing executed exits 2, never green', async () => {
  fakePlaywright(join(FIXTURES, 'playwright-empty.json'), 1);
  const r = await cli('run', '--no-report', '--grep', 'no-such-scenario');
  assert.equal(r.code, 2);
  assert.match(r.out, /NOTHING TESTED/);
  fakePlaywright(only('demo.production-only'));
  assert.equal((await cli('run', '--no-report')).code, 2, 'all skipped is nothing tested');
});

test('run: a stale or expired waiver fails the run; a matching one waives', async () => {
  fakePlaywright(only('demo.health', 'demo.wrong-status'));
  const waivers = join(dir, 'w.yaml');
  writeFileSync(waivers, 'waivers:\n  - scenario: demo.wrong-status\n    reason: vendor bug 7\n    owner: qa\n    expires: 2999-01-01\n');
  const ok = await cli('run', '--no-report', '--waivers', waivers);
  assert.equal(ok.code, 0, ok.out);
  assert.match(ok.out, /WAIVED demo\.wrong-status/);
  writeFileSync(waivers, 'waivers:\n  - scenario: demo.health\n    reason: flaked once\n    owner: qa\n    expires: 2999-01-01\n  - scenario: demo.wrong-status\n    reason: vendor bug 7\n    owner: qa\n    expires: 2000-01-01\n');
  const bad = await cli('run', '--no-report', '--waivers', waivers);
  assert.equal(bad.code, 1);
  assert.match(bad.out, /PROBLEM waiver for scenario 'demo\.health' .* is stale/);
  assert.match(bad.out, /PROBLEM waiver for scenario 'demo\.wrong-status' .* expired on 2000-01-01/);
  writeFileSync(waivers, 'waivers:\n  - scenario: x\n    owner: qa\n    expires: 2999-01-01\n');
  const invalid = await cli('run', '--no-report', '--waivers', waivers);
  assert.equal(invalid.code, 2);
  assert.match(invalid.err, /FTF_E_WAIVERS_INVALID: waiver waivers\[0\]\.reason is required .*w\.yaml:2/);
});

test('run: a bad profile field exits 2 naming the field', async () => {
  fakePlaywright(only('demo.health'));
  const profile = writeProfile(dir, 'bad.yaml', 'name: bad\nbase_url: http://127.0.0.1:1/v2\nauth_url: http://127.0.0.1:1\nenvironment: sandbox\ncredentials:\n  primary:\n    kind: client_credentials\n    client_id: x\n    client_secret_env: FTF_TEST_SECRET\n');
  const r = await cli('run', '--no-report', '--target', profile);
  assert.equal(r.code, 2);
  assert.match(r.err, /FTF_E_PROFILE_INVALID/);
  assert.match(r.err, /base_url/);
  assert.match(r.err, /bad\.yaml:2/);
  const missing = await cli('run', '--no-report', '--target', join(dir, 'nope.yaml'));
  assert.equal(missing.code, 2);
  assert.match(missing.err, /FTF_E_PROFILE_NOT_FOUND/);
});

test('run: an unreachable target exits 2 before running anything', async () => {
  const fake = fakePlaywright(only('demo.health'));
  const port = await closedPort();
  process.env.FTF_TEST_SECRET = 'not-a-real-secret-123';
  const profile = writeProfile(dir, 'down.yaml', `name: down\nbase_url: http://127.0.0.1:${port}/api/v1\nauth_url: http://127.0.0.1:${port}\nenvironment: sandbox\ncredentials:\n  primary:\n    kind: client_credentials\n    client_id: x\n    client_secret_env: FTF_TEST_SECRET\n`);
  const r = await cli('run', '--no-report', '--target', profile);
  assert.equal(r.code, 2);
  assert.match(r.err, /FTF_E_TARGET_UNREACHABLE: target "down" is unreachable/);
  assert.equal(r.err.includes('not-a-real-secret-123'), false);
  assert.equal(fake.calls.length, 0, 'Playwright never started');
});

test('run: usage errors exit 2; Playwright dying without a report exits 3', async () => {
  assert.equal((await cli('run', '--shard', 'half')).code, 2);
  assert.equal((await cli('run', '--grep', '(')).code, 2);
  assert.equal((await cli('run', '--bogus')).code, 2);
  // FTF_TRANSPORT is read by the workers; a bad value is refused before anything starts.
  const early = fakePlaywright(undefined, 1);
  process.env.FTF_TRANSPORT = 'fetch';
  try {
    const bad = await cli('run', '--no-report');
    assert.equal(bad.code, 2);
    assert.match(bad.err, /FTF_TRANSPORT must be one of playwright, undici/);
    assert.equal(early.calls.length, 0, 'Playwright never started');
  } finally {
    delete process.env.FTF_TRANSPORT;
  }
  fakePlaywright(undefined, 1);
  rmSync(join(reports, 'results.json'), { force: true });
  const r = await cli('run', '--no-report');
  assert.equal(r.code, 3);
  assert.match(r.err, /without writing/);
});

test('playwright arguments and environment: the selection in FTF_RUN, a shard with a blob, pass-through untouched', () => {
  assert.deepEqual(playwrightArgs({ tag: '@auth', shard: '2/4', extra: ['--workers=1'] }), ['playwright', 'test', '--workers=1']);
  assert.deepEqual(playwrightArgs({}), ['playwright', 'test']);
  assert.deepEqual(playwrightEnv({ tag: '@auth', shard: '2/4' }), { FTF_RUN: JSON.stringify({ selection: { tag: '@auth', shard: '2/4' } }), FTF_BLOB_REPORT: '1' });
  assert.deepEqual(playwrightEnv({ phase: 'exclusive' }), { FTF_RUN: JSON.stringify({ selection: { phase: 'exclusive' } }), FTF_BLOB_REPORT: '1' });
  assert.deepEqual(playwrightEnv({}), { FTF_RUN: JSON.stringify({ selection: {} }) }, 'an empty selection still replaces an inherited one');
});

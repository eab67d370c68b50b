/**
 * `run --last-failed` (issue 30): only the scenarios that failed when last run against THIS target from THIS reports
 * folder (reports/last-failed.json, report/outputs/last-failed.ts), not Playwright's one test-results/.last-run.json.
 * Playwright is faked (helpers.ts): what is checked is the selection the workers get and the record each run leaves.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { isAbsolute, join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import type { JSONReport, JSONReportSuite } from '@playwright/test/reporter';
import { recordLastFailed, LAST_FAILED_FILE } from '../../src/harness/report/outputs/last-failed.js';
import { loadSelection, selectionFromEnv } from '../../src/harness/scenario/selection.js';
import type { ScenarioOutcome } from '../../src/harness/report/verdicts/verdicts.js';
import { runTargetOf } from '../../src/cli/last-failed.js';
import { cli, fakePlaywright, FIXTURES, scratch, writeProfile } from './helpers.js';

const dir = scratch('ftf-cli-last-failed-');
const reports = process.env.FTF_REPORTS_DIR!;
const recorded = JSON.parse(readFileSync(join(FIXTURES, 'playwright-results.json'), 'utf8')) as JSONReport;
const only = (...ids: string[]): JSONReport => {
  const keep = (s: JSONReportSuite): JSONReportSuite => ({ ...s, specs: s.specs.filter((sp) => ids.some((id) => sp.title.startsWith(`${id}:`))), suites: (s.suites ?? []).map(keep) });
  return { ...recorded, suites: recorded.suites.map(keep) };
};

// An external target: any HTTP answer makes it reachable for the run's probe (Playwright is faked).
let server: Server;
let external: string;
before(async () => {
  server = createServer((_req, res) => res.writeHead(401).end());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  external = writeProfile(dir, 'vendor.yaml', `name: vendor\nbase_url: http://127.0.0.1:${port}/api/v1\nauth_url: http://127.0.0.1:${port}\nenvironment: sandbox\ncredentials:\n  primary:\n    kind: client_credentials\n    client_id: c\n    client_secret_env: FTF_TEST_LF_SECRET\n`);
  process.env.FTF_TEST_LF_SECRET = 'Lf7Qz9Xw2Vb4Nk8Rt3Ys6Hd';
});
after(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
});

test('run --last-failed reruns only what failed against this target, kept per reports folder and per target', async () => {
  // Nothing recorded yet: exit 2 before anything runs, naming the file.
  let fake = fakePlaywright(only('demo.health'));
  let r = await cli('run', '--no-report', '--last-failed');
  assert.equal(r.code, 2, r.out);
  assert.match(r.err, /--last-failed: no earlier run against the embedded reference server of .*reference\.yaml is recorded in .*last-failed\.json/);
  assert.equal(fake.calls.length, 0);

  // A run against the embedded reference with one failure: recorded for that target.
  fakePlaywright(only('demo.health', 'demo.wrong-status'));
  assert.equal((await cli('run', '--no-report')).code, 1);
  const store = JSON.parse(readFileSync(join(reports, LAST_FAILED_FILE), 'utf8')) as { targets: Record<string, { failed: { id: string }[] }> };
  assert.deepEqual(Object.values(store.targets).map((t) => t.failed.map((f) => f.id)), [['demo.wrong-status']]);

  // --last-failed: the workers are given only that scenario (the same selection function the spec files call).
  fake = fakePlaywright(only('demo.wrong-status'));
  r = await cli('run', '--no-report', '--last-failed');
  assert.equal(r.code, 1, r.err);
  assert.match(r.out, /--last-failed: rerunning the 1 scenario that failed when last run against the embedded reference server .*: demo\.wrong-status$/m);
  const env = fake.calls[0]!.env;
  const picked = loadSelection(join(FIXTURES, 'specs'), selectionFromEnv(env));
  assert.deepEqual(picked.scenarios.map((s) => s.id), ['demo.wrong-status']);
  assert.deepEqual(picked.extras, [], 'no property test failed: none is rerun');
  // Other selection flags narrow it further (both must hold).
  fake = fakePlaywright(only('demo.wrong-status'));
  await cli('run', '--no-report', '--last-failed', '--grep', '^demo\\.health:');
  const narrowed = loadSelection(join(FIXTURES, 'specs'), selectionFromEnv(fake.calls[0]!.env));
  assert.equal(narrowed.scenarios.length + narrowed.extras.length + narrowed.problems.length, 0);

  // Another target, same folder: its own record (none yet), not the reference's failures.
  fake = fakePlaywright(only('demo.health'));
  r = await cli('run', '--no-report', '--target', external, '--last-failed');
  assert.equal(r.code, 2);
  assert.match(r.err, /no earlier run against http:\/\/127\.0\.0\.1:\d+\/api\/v1 \(profile .*vendor\.yaml\)/);
  assert.equal(fake.calls.length, 0);
  // FTF_BASE_URL makes it another target too (the run goes elsewhere); the profile file alone names an embedded one.
  assert.notEqual(runTargetOf(external).key, runTargetOf(external, { FTF_BASE_URL: 'http://127.0.0.1:1/api/v1' }).key);
  assert.notEqual(runTargetOf(undefined, {}).key, runTargetOf(undefined, { FTF_BASE_URL: 'http://127.0.0.1:1/api/v1' }).key);

  // Same target, another reports folder: nothing recorded there.
  const other = resolve(dir, 'other-reports');
  mkdirSync(other);
  process.env.FTF_REPORTS_DIR = other;
  try {
    r = await cli('run', '--no-report', '--last-failed');
    assert.equal(r.code, 2);
    assert.match(r.err, /other-reports\/last-failed\.json/);
  } finally {
    process.env.FTF_REPORTS_DIR = reports;
  }

  // A clean run of the external target leaves its entry empty: nothing to rerun, never a green no-op.
  fakePlaywright(only('demo.health'));
  const clean = await cli('run', '--no-report', '--target', external);
  assert.equal(clean.code, 0, clean.out + clean.err);
  r = await cli('run', '--no-report', '--target', external, '--last-failed');
  assert.equal(r.code, 2);
  assert.match(r.err, /nothing to rerun: no scenario failed when last run against http/);
  // ... while the reference's failure is still there for the reference.
  fake = fakePlaywright(only('demo.wrong-status'));
  assert.equal((await cli('run', '--no-report', '--last-failed')).code, 1);
  assert.equal(fake.calls.length, 1);
});

test("Playwright's own -- --last-failed is refused with the way out; --last-failed with --evaluate-only too", async () => {
  const fake = fakePlaywright(only('demo.health'));
  let r = await cli('run', '--no-report', '--', '--last-failed');
  assert.equal(r.code, 2);
  assert.match(r.err, /'--last-failed' after -- is Playwright's: .*use `run --last-failed`/);
  r = await cli('run', '--no-report', '--last-failed', '--evaluate-only');
  assert.equal(r.code, 2);
  assert.equal(fake.calls.length, 0);
});

test('the record: a scenario a run executed is kept exactly when it failed there; one it did not execute keeps its state', () => {
  const root = join(dir, 'record');
  const target = { key: 'k', label: 'target k' };
  const outcome = (id: string, verdict: ScenarioOutcome['verdict']): ScenarioOutcome => ({ id, verdict, file: `specs/x/${id}.yaml` }) as ScenarioOutcome;
  let e = recordLastFailed(root, target, { failOn: 'must', scenarios: [outcome('a', 'failed'), outcome('b', 'errored'), outcome('c', 'warning'), outcome('d', 'passed')] });
  assert.deepEqual(e.failed.map((f) => f.id), ['a', 'b'], 'a warning is no failure under --fail-on must');
  // A filtered rerun of `a` only, now passing: `b` (not executed) stays.
  e = recordLastFailed(root, target, { failOn: 'must', scenarios: [outcome('a', 'passed'), outcome('b', 'skipped')] });
  assert.deepEqual(e.failed.map((f) => f.id), ['b']);
  e = recordLastFailed(root, target, { failOn: 'should', scenarios: [outcome('c', 'warning')] });
  assert.deepEqual(e.failed.map((f) => f.id).sort(), ['b', 'c'], 'under --fail-on should a warning fails the run');
  assert.ok(isAbsolute(e.failed[0]!.file!) && e.failed[0]!.file!.endsWith('/specs/x/b.yaml'), 'files are kept absolute (a broken file is found again by its path)');
  // Another target in the same folder is untouched.
  recordLastFailed(root, { key: 'other', label: 'o' }, { failOn: 'must', scenarios: [outcome('z', 'failed')] });
  const store = JSON.parse(readFileSync(join(root, LAST_FAILED_FILE), 'utf8')) as { targets: Record<string, { failed: { id: string }[] }> };
  assert.deepEqual(Object.keys(store.targets).sort(), ['k', 'other']);
  assert.deepEqual(store.targets.k!.failed.map((f) => f.id).sort(), ['b', 'c']);
});

test('a broken scenario file that failed is found again by its path, a scenario by its id', () => {
  const broken = join(FIXTURES, '..', 'scenarios', 'broken');
  const all = loadSelection(broken, {});
  const problem = all.problems[0]!;
  const picked = loadSelection(broken, { only: { ids: [], files: [resolve(problem.file)] } });
  assert.deepEqual(picked.problems.map((p) => p.file), [problem.file]);
  assert.equal(picked.scenarios.length + picked.extras.length, 0);
  assert.equal(loadSelection(broken, { only: { ids: ['no-such-id'], files: [] } }).problems.length, 0, 'nothing else rides along');
});

/**
 * One external reference server shared by every worker (issue 12): the scenario catalogue runs against it
 * with 2 workers, twice in a row on the same server (the second run meets the first run's data and moved
 * clock), and every scenario passes or is skipped with a reason; none fails or errors. The scenarios that
 * move the clock or register the user's webhook run in the serial `exclusive` phase (playwright.config.ts).
 * The fast-check paging properties (specs/properties) are left out to keep this under CI's budget: they
 * only read the event stream through fences, and the full suite three times is measured by hand (report).
 *
 * Then a new user's path: `init --discover` writes a profile for the running server, `doctor` accepts it, and
 * a run with it is CONFORMANT: everything it skips is a skip `doctor` announced, never a failure.
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startReferenceServer, type RunningReference } from '../../src/reference/server.js';
import { REPO_ROOT } from '../../src/harness/repo-root.js';
import type { OutcomeEntry } from '../../src/harness/report/outcome-reporter.js';
import { loadScenarioSuite } from '../../src/harness/scenario/load.js';
import { exclusiveReasons } from '../../src/harness/scenario/isolation.js';
import { runCatalogue } from '../../src/selftest/catalogue-run.js';
import { cli, scratch } from './helpers.js';

const dir = scratch('ftf-shared-target-');
let server: RunningReference;
before(async () => {
  server = await startReferenceServer({ port: 0 });
});
after(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A run's bound: the scenario timeout of the profile per serial scenario is far above what one needs; this is the hang guard. */
const RUN_BOUND_MS = 300_000;

function outcomes(reportsDir: string): OutcomeEntry[] {
  return (JSON.parse(readFileSync(join(reportsDir, 'outcomes.json'), 'utf8')) as { outcomes: OutcomeEntry[] }).outcomes;
}

function env(target: string): Record<string, string | undefined> {
  const { clients, apiKeys } = server.secrets;
  return {
    FTF_TARGET: target,
    FTF_BASE_URL: server.baseUrl,
    FTF_AUTH_URL: server.authUrl,
    FTF_CONTROL_URL: server.controlUrl,
    FTF_PRIMARY_CLIENT_SECRET: clients['cc-alice'],
    FTF_SECOND_CLIENT_SECRET: clients['cc-bob'],
    FTF_READONLY_CLIENT_SECRET: clients['cc-carol-readonly'],
    FTF_CODE_CLIENT_SECRET: clients['code-app'],
    FTF_API_KEY: apiKeys['alice@ftf.test'],
    FTF_SPECS_DIR: undefined,
    FTF_WORKERS: undefined,
  };
}

test('the catalogue against ONE external server, 2 workers, twice: nothing fails or errors; clock movers ran alone', { timeout: 2 * RUN_BOUND_MS + 30_000 }, async () => {
  const exclusive = loadScenarioSuite(join(REPO_ROOT, 'specs')).scenarios.filter((s) => exclusiveReasons(s).length > 0).map((s) => s.id);
  assert.ok(exclusive.includes('token.expiry') && exclusive.includes('lifecycle.issue-after-cutoff'), `clock movers are exclusive (got ${exclusive.join(', ')})`);
  for (const pass of [1, 2]) {
    const run = await runCatalogue({
      dir: join(dir, `shared-${pass}`), workers: 2, timeoutMs: RUN_BOUND_MS,
      env: env(join(REPO_ROOT, 'fixtures/targets/reference.yaml')), args: ['specs/conformance.spec.ts'],
    });
    assert.equal(run.killed, false, `pass ${pass} ended within ${RUN_BOUND_MS} ms`);
    const all = outcomes(run.reportsDir);
    const bad = all.filter((o) => o.status === 'failed' || o.status === 'errored').map((o) => `${o.scenario}: ${o.status} ${o.reason ?? ''}`);
    assert.deepEqual(bad, [], `pass ${pass}: no failed or errored scenario`);
    assert.equal(run.exitCode, 0, `pass ${pass}: Playwright exit code`);
    for (const id of exclusive) {
      const o = all.find((x) => x.scenario === id);
      assert.equal(o?.project, 'exclusive', `${id} ran in the exclusive phase`);
      assert.equal(o?.status, 'passed', `${id} ran and passed (pass ${pass})`);
    }
    assert.ok(all.filter((o) => o.project === 'shared' && o.status === 'passed').length > 40, `pass ${pass}: the shared phase ran`);
  }
});

test('init --discover + doctor on a running server, then a run with that profile: CONFORMANT, only announced skips', { timeout: RUN_BOUND_MS + 60_000 }, async () => {
  const file = join(dir, 'new-user.yaml');
  const secrets = env(file);
  const saved = { ...process.env };
  try {
    process.env.FTF_PRIMARY_CLIENT_SECRET = secrets.FTF_PRIMARY_CLIENT_SECRET;
    delete process.env.FTF_BASE_URL;
    delete process.env.FTF_TARGET;
    const init = await cli('init', '--base-url', server.baseUrl, '--client-id', 'cc-alice', '--out', file, '--discover');
    assert.equal(init.code, 0, init.err);
    assert.match(init.out, /discovered 2 entities; indication roles: primary=/);
    const doctor = await cli('doctor', '--target', file);
    assert.equal(doctor.code, 0, doctor.out + doctor.err);
    assert.match(doctor.out, /doctor: ready/);
    assert.equal(doctor.out.includes(secrets.FTF_PRIMARY_CLIENT_SECRET!), false, 'no secret printed');
    const announced = new Set(doctor.out.split('\n').filter((l) => l.startsWith('INFO skipped')).flatMap((l) => l.replace(/^.*\): /, '').split(', ')));

    const run = await runCatalogue({ dir: join(dir, 'new-user'), workers: 2, timeoutMs: RUN_BOUND_MS, env: { FTF_TARGET: file, FTF_PRIMARY_CLIENT_SECRET: secrets.FTF_PRIMARY_CLIENT_SECRET, FTF_SPECS_DIR: undefined, FTF_SPEC_DIR: undefined, FTF_BASE_URL: undefined }, args: ['specs/conformance.spec.ts'] });
    assert.equal(run.killed, false);
    const all = outcomes(run.reportsDir);
    const bad = all.filter((o) => o.status === 'failed' || o.status === 'errored').map((o) => `${o.scenario}: ${o.status} ${o.reason ?? ''}`);
    assert.deepEqual(bad, [], 'a profile doctor accepted never fails a correct server');
    const surprises = all.filter((o) => o.status === 'skipped' && !announced.has(o.scenario)).map((o) => `${o.scenario}: ${o.reason ?? ''}`);
    assert.deepEqual(surprises, [], 'every skip was announced by doctor');
    assert.ok(all.some((o) => o.status === 'passed' && o.scenario === 'amounts.minimum-fractional') || announced.has('amounts.minimum-fractional'), 'the discovered fractional-minimum role is used or announced');
    // The verdict the CLI prints for that run (the same evaluation as `run`, on the report just written).
    process.env.FTF_REPORTS_DIR = run.reportsDir;
    const verdict = await cli('run', '--target', file, '--evaluate-only', '--no-report');
    assert.equal(verdict.code, 0, verdict.out + verdict.err);
    assert.match(verdict.out, /verdict: CONFORMANT/);
  } finally {
    for (const k of ['FTF_PRIMARY_CLIENT_SECRET', 'FTF_BASE_URL', 'FTF_TARGET', 'FTF_REPORTS_DIR']) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  }
});

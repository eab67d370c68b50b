/**
 * One external reference server shared by every worker (issue 12): the scenario catalogue runs against it
 * with 2 workers, and every scenario passes or is skipped with a reason; none fails or errors. The scenarios that
 * move the clock or register the user's webhook run in the serial `exclusive` phase (playwright.config.ts). Then a
 * second run on the same server meets the first run's data and moved clock: it runs the families whose outcome can
 * depend on what an earlier run left (SECOND_PASS: subscriptions, checkpoints, events and lists, the clock, webhooks;
 * token, error-body, resource and permission reads do not change with the server's history, so a second pass of
 * them proved nothing new).
 * The fast-check paging properties (specs/properties) are left out to keep this under CI's budget: they
 * only read the event stream through fences, and the full suite three times is measured by hand (report).
 *
 * A new user's path (`init --discover`, `doctor`, a run with that profile) is proved by the README's pasted steps
 * in test/docs/runnable-examples.test.ts.
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startReferenceServer, type RunningReference } from '../../src/reference/server.js';
import { REPO_ROOT } from '../../src/harness/repo-root.js';
import type { OutcomeEntry } from '../../src/harness/report/outputs/outcome-reporter.js';
import { loadScenarioSuite } from '../../src/harness/scenario/load.js';
import { exclusiveReasons } from '../../src/harness/scenario/isolation.js';
import { runCatalogue } from '../../src/selftest/catalogue-run.js';
import { loadSelection } from '../../src/harness/scenario/selection.js';
import { scratch } from './helpers.js';
import { RUN_ENV, runSettingsEnv } from '../../src/shared/run-settings.js';

/** What the second run on the same server runs: the families whose outcome can depend on an earlier run's data or clock. */
const SECOND_PASS = '^(amounts|checkpoints|events|idempotency|lifecycle|paging|webhooks)\\.';

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

test('the catalogue against ONE external server, 2 workers, then the state-dependent families again: nothing fails or errors; clock movers ran alone', { timeout: 2 * RUN_BOUND_MS + 30_000 }, async () => {
  const exclusive = loadScenarioSuite(join(REPO_ROOT, 'specs')).scenarios.filter((s) => exclusiveReasons(s).length > 0).map((s) => s.id);
  assert.ok(exclusive.includes('token.expiry') && exclusive.includes('lifecycle.issue-after-cutoff'), `clock movers are exclusive (got ${exclusive.join(', ')})`);
  const second = new Set(loadSelection(join(REPO_ROOT, 'specs'), { grep: SECOND_PASS }).scenarios.map((s) => s.id));
  assert.ok(exclusive.filter((id) => second.has(id)).length >= 2, 'the second pass has clock movers of its own');
  for (const pass of [1, 2]) {
    const run = await runCatalogue({
      dir: join(dir, `shared-${pass}`), workers: 2, timeoutMs: RUN_BOUND_MS,
      env: { ...env(join(REPO_ROOT, 'fixtures/targets/reference.yaml')), [RUN_ENV]: pass === 2 ? runSettingsEnv({ selection: { grep: SECOND_PASS } })[RUN_ENV] : undefined }, args: ['specs/conformance.spec.ts'],
    });
    assert.equal(run.killed, false, `pass ${pass} ended within ${RUN_BOUND_MS} ms`);
    const all = outcomes(run.reportsDir);
    const bad = all.filter((o) => o.status === 'failed' || o.status === 'errored').map((o) => `${o.scenario}: ${o.status} ${o.reason ?? ''}`);
    assert.deepEqual(bad, [], `pass ${pass}: no failed or errored scenario`);
    assert.equal(run.exitCode, 0, `pass ${pass}: Playwright exit code`);
    for (const id of exclusive.filter((x) => pass === 1 || second.has(x))) {
      const o = all.find((x) => x.scenario === id);
      assert.equal(o?.project, 'exclusive', `${id} ran in the exclusive phase`);
      assert.equal(o?.status, 'passed', `${id} ran and passed (pass ${pass})`);
    }
    assert.ok(all.filter((o) => o.project === 'shared' && o.status === 'passed').length > (pass === 1 ? 40 : 20), `pass ${pass}: the shared phase ran`);
    if (pass === 2) assert.deepEqual([...new Set(all.map((o) => o.scenario))].filter((id) => !second.has(id)), [], 'the second pass ran its families only');
  }
});

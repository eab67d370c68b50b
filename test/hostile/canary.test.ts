/**
 * The hostile-target canary: the harness, as a user runs it (`ftf-conformance run`: Playwright with the real
 * reporter stack behind the redacting reporter, the Allure HTML build, the post-run leak scan, the CLI's own
 * console), on each transport (FTF_TRANSPORT=undici and playwright), against a target that stalls bodies, never ends a chunked body, sends a gzip bomb, stalls token
 * requests and redirects to another origin (test/hostile/canary-stub.ts). Playwright's errors for these
 * carry its call log with the Authorization header. Then every output file and the console are searched for
 * the canary client secrets, their Basic credentials, the API key and every token the stub issued, in every
 * spelling (canary-search.ts): 0 hits. The other origin must not receive the Authorization header.
 * canary-bypass.test.ts proves this search finds the secrets when the boundary is taken away.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { loadScenarioSuite } from '../../src/harness/scenario/load.js';
import { CANARY_GREP, canaryBoundMs, placesUnder, plantedCanaries, searchCanaries } from './canary-search.js';
import { API_BEHAVIOURS, startCanaryStub } from './canary-stub.js';
import { REPO_ROOT } from '../../src/harness/repo-root.js';
import { hostileEnv, hostileSecrets, loadHostileProfile } from './profile.js';
import { runCli, type CliRun } from './cli-run.js';

const WORKERS = 2;

const secrets = hostileSecrets();
const profile = loadHostileProfile(secrets);
const selected = loadScenarioSuite(join(REPO_ROOT, 'specs')).scenarios.filter((s) => new RegExp(CANARY_GREP).test(`${s.id}:`)).length;
const OUTER_MS = canaryBoundMs(profile.timeouts.requestMs, selected, WORKERS);

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

for (const transport of ['undici', 'playwright'] as const) test(`canary (${transport} transport): no secret or issued token leaks from a run against a hostile target (${selected} scenarios, bound ${OUTER_MS} ms)`, { timeout: OUTER_MS + 30_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ftf-canary-'));
  dirs.push(dir);
  const stub = await startCanaryStub();
  let run: CliRun;
  try {
    run = await runCli(
      // --wait-report: the Allure HTML is built (and searched) before the CLI exits, so this test can search it too.
      ['run', '--wait-report', '--grep', CANARY_GREP, '--', `--workers=${WORKERS}`, `--output=${join(dir, 'test-results')}`],
      { ...hostileEnv(stub.url, secrets), FTF_REPORTS_DIR: join(dir, 'reports'), FTF_TRANSPORT: transport },
      OUTER_MS,
    );
  } finally {
    await stub.close();
  }
  assert.equal(run.killed, false, `the run ended within ${OUTER_MS} ms`);
  // 1: non-conformant (every scenario fails against the stub). 3 would be the leak scan's FTF_E_SECRET_LEAK.
  assert.equal(run.code, 1, `ftf-conformance run exit code (stdout: ${run.stdout.slice(-3000)}\nstderr: ${run.stderr.slice(-2000)})`);
  for (const b of [...API_BEHAVIOURS, 'token-issued', 'token-stall'] as const) assert.ok(stub.served.has(b), `the stub served ${b} (served: ${[...stub.served].join(', ')})`);
  assert.ok(stub.issued.length >= 2, 'tokens were issued');
  for (const x of stub.crossOrigin) assert.equal(x.headers.authorization, undefined, `the other origin received an Authorization header on ${x.path}`);

  const canaries = [...plantedCanaries(secrets), ...stub.issued.map((value) => ({ kind: 'issued token', value }))];
  const places = [{ where: 'CLI stdout', text: run.stdout }, { where: 'CLI stderr', text: run.stderr }, ...placesUnder(dir)];
  assert.ok(places.some((p) => p.where.includes('allure-report')), 'the Allure HTML was built and searched');
  assert.ok(places.some((p) => p.where.endsWith('results.json')) && places.some((p) => p.where.includes('test-results')), 'JSON report and test-results were searched');
  // Through Playwright's request fixture the runs' errors are the call-log kind this test is about (a redacted
  // header line is left behind); the undici transport (FTF_TRANSPORT=undici) writes no call log.
  if (transport === 'playwright') assert.ok(places.some((p) => /authorization: Bearer \[REDACTED/i.test(p.text)), 'a redacted call log (authorization: Bearer [REDACTED…]) is in the reports');
  assert.deepEqual(searchCanaries(canaries, places), [], `${canaries.length} canaries searched in ${places.length} places`);
});

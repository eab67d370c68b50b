/**
 * The canary can fail: the same hostile stub and the same search as canary.test.ts, but the run uses the
 * TEST-ONLY configuration test/hostile/bypass/ (reporters listed raw, steps without the step-boundary
 * redaction). The search must then find issued tokens in the reports: proof that canary.test.ts's 0 hits
 * come from the redaction boundary, not from a search that cannot see. It runs through Playwright's request
 * fixture whatever FTF_TRANSPORT says (that transport's call log is what leaks without the boundary).
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { loadScenarioSuite } from '../../src/harness/scenario/load.js';
import { canaryBoundMs, placesUnder, plantedCanaries, searchCanaries } from './canary-search.js';
import { startCanaryStub } from './canary-stub.js';
import { REPO_ROOT } from '../../src/harness/repo-root.js';
import { runCatalogue } from '../../src/selftest/catalogue-run.js';
import { hostileEnv, hostileSecrets, loadHostileProfile } from './profile.js';

const WORKERS = 2;
/**
 * Two of the canary's scenarios: each requests a token, then meets a stalled body or an endless chunked body
 * (the stub's first two API answers; no CLI probe here), whose error carries the call log with the token.
 * Proving that the search sees a leak takes one; the whole canary set is canary.test.ts's.
 */
const GREP = '\\bresources\\.(currency|holidays):';
const secrets = hostileSecrets();
const profile = loadHostileProfile(secrets);
const selected = loadScenarioSuite(join(REPO_ROOT, 'specs')).scenarios.filter((s) => new RegExp(GREP).test(`${s.id}:`)).length;
const OUTER_MS = canaryBoundMs(profile.timeouts.requestMs, selected, WORKERS);

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

test('canary bypass: without the redaction boundary the canary search finds the leaked tokens', { timeout: OUTER_MS + 30_000 }, async (t) => {
  const stub = await startCanaryStub();
  let run;
  try {
    run = await runCatalogue({
      workers: WORKERS,
      timeoutMs: OUTER_MS,
      args: ['--config', 'test/hostile/bypass/playwright.config.ts', '--grep', GREP],
      // Pinned to Playwright's request fixture: its call log (errors, pw:api steps) is the leak the missing step
      // boundary lets through; the undici transport writes none (its errors leave the recorder redacted).
      env: { ...hostileEnv(stub.url, secrets), FTF_TRANSPORT: 'playwright' },
    });
  } finally {
    await stub.close();
  }
  dirs.push(run.dir);
  assert.equal(run.killed, false, 'the run ended within its bound');
  assert.ok(run.results, 'results.json written');
  const canaries = [...plantedCanaries(secrets), ...stub.issued.map((value) => ({ kind: 'issued token', value }))];
  const hits = searchCanaries(canaries, [{ where: 'stdout', text: run.stdout }, { where: 'stderr', text: run.stderr }, ...placesUnder(run.dir)]);
  // Kinds and places only (never a value): which canaries the missing boundary lets through.
  for (const kind of [...new Set(hits.map((h) => h.replace(/ found.*$/, '')))]) t.diagnostic(`leaked without the boundary: ${kind} (${hits.filter((h) => h.startsWith(kind)).length} places)`);
  assert.ok(hits.some((h) => h.startsWith('issued token found in')), `the search finds issued tokens in the unredacted reports (hits: ${hits.join('; ') || 'none'})`);
});

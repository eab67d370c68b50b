/**
 * The hostile sweep in process: for EVERY stub mode (all nine), every YAML scenario of the catalogue runs
 * through the real engine with the undici transport (sweep.ts), concurrently, each under an outer watchdog.
 * Asserted per mode (verdict.ts judgeSweep): every runnable scenario ends with an error (a pass against
 * garbage is named as a defect), within the scenario bound, readable (method + URL, an FTF_E_ code, or a
 * named check at its YAML line), an FtfError; no unhandledRejection / uncaughtException; the transport closes.
 * The Playwright-level run (hostile.test.ts) adds what only the real runner shows: reports written, worker
 * processes without unhandled errors. docs/robustness.md has the measured table.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { loadScenarioSuite } from '../../src/harness/scenario/load.js';
import { testTimeoutMs } from '../../src/harness/target/bounds.js';
import { schemaRegistry } from '../../src/harness/schemas/registry.js';
import { REPO_ROOT } from '../../src/harness/repo-root.js';
import { hostileSecrets, loadHostileProfile } from './profile.js';
import { HOSTILE_MODES, startHostileStub } from './stub.js';
import { sweep } from './sweep.js';
import { judgeSweep } from './verdict.js';

const CONCURRENCY = Number(process.env.FTF_HOSTILE_SWEEP_CONCURRENCY ?? 16);

const secrets = hostileSecrets();
const bounds = loadHostileProfile(secrets).timeouts;
const suite = loadScenarioSuite(process.env.FTF_SPECS_DIR ?? join(REPO_ROOT, 'specs'));
// The watchdog and the per-scenario limit are Playwright's test timeout for this profile (target/bounds.ts):
// the engine's own scenario bound fires inside it, however busy the machine.
const watchdogMs = testTimeoutMs(bounds);
// Worst case: every scenario of every pool round waits for its watchdog, plus stub and transport shutdown.
const MODE_TIMEOUT_MS = Math.ceil(suite.scenarios.length / CONCURRENCY) * watchdogMs + 2 * watchdogMs;

interface Row {
  mode: string;
  run: number;
  failed: number;
  skipped: number;
  maxMs: number;
  wallMs: number;
  requests: number;
}
const rows: Row[] = [];

describe(`hostile sweep in process: ${suite.scenarios.length} scenario(s) × ${HOSTILE_MODES.length} modes, ${CONCURRENCY} at a time`, () => {
  test('the catalogue loads without problems (an invalid file would not be swept)', () => {
    assert.deepEqual(suite.problems.map((p) => p.file), []);
    assert.ok(suite.scenarios.length > 0, 'no scenario found');
  });

  for (const mode of HOSTILE_MODES) {
    test(`mode ${mode}: every scenario ends with a readable error within its bound`, { timeout: MODE_TIMEOUT_MS }, async (t) => {
      const stub = await startHostileStub(mode);
      const target = loadHostileProfile(secrets, stub.url);
      let run;
      try {
        run = await sweep({ target, schemas: schemaRegistry({ paths: target.paths, fields: target.fields }), scenarios: suite.scenarios, concurrency: CONCURRENCY, watchdogMs });
      } finally {
        await stub.close();
      }
      const summary = judgeSweep(run, { limitMs: testTimeoutMs(target.timeouts) });
      const requests = [...stub.seen.values()].reduce((a, b) => a + b, 0);
      rows.push({ mode, run: summary.total - summary.skipped, failed: summary.failed, skipped: summary.skipped, maxMs: summary.maxScenarioMs, wallMs: run.wallMs, requests });
      t.diagnostic(`${mode}: ${summary.total} scenarios, ${summary.failed} failed, ${summary.skipped} skipped, slowest ${summary.maxScenarioMs} ms (bound ${target.timeouts.scenarioMs} ms), wall ${run.wallMs} ms, ${requests} requests`);
      for (const skip of summary.skips) t.diagnostic(`skipped: ${skip}`);
      assert.ok(requests > 0, 'the stub saw no request: the sweep did not reach the target');
      assert.deepEqual(summary.problems, [], `mode ${mode}: ${summary.problems.length} problem(s):\n${summary.problems.join('\n')}`);
    });
  }

  test('per-mode table (every mode was swept)', (t) => {
    const line = (c: Array<string | number>): string => `| ${c.join(' | ')} |`;
    t.diagnostic(line(['mode', 'run', 'failed', 'skipped', 'slowest ms', `bound ms`, 'wall ms', 'requests']));
    for (const r of rows) t.diagnostic(line([r.mode, r.run, r.failed, r.skipped, r.maxMs, bounds.scenarioMs, r.wallMs, r.requests]));
    t.diagnostic(`total sweep wall: ${rows.reduce((a, r) => a + r.wallMs, 0)} ms`);
    assert.deepEqual(rows.map((r) => r.mode), [...HOSTILE_MODES]);
  });
});

/**
 * A Playwright worker that cannot start its embedded server fails its scenarios as ERRORED with the
 * launcher's message (the phase that ran out), not as an internal error (exit 3) of the whole run.
 * FTF_EMBEDDED_START_MS=1 makes the start bound smaller than any real start, by configuration.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadClauseCatalogue } from '../../src/harness/spec/clauses.js';
import { readPlaywrightReport, scenarioResults } from '../../src/harness/report/records/scenario-results.js';
import { exitCodeFor, scenarioOutcome, summarize } from '../../src/harness/report/verdicts/verdicts.js';
import { runCatalogue } from '../../src/selftest/catalogue-run.js';

test('a worker whose server does not start within FTF_EMBEDDED_START_MS errors its scenarios with the phase, and the run is not an internal error', async () => {
  const run = await runCatalogue({ timeoutMs: 240_000, workers: 1, args: ['--grep', 'resources\\.health:'], env: { FTF_EMBEDDED_START_MS: '1', FTF_TARGET: undefined } });
  try {
    assert.equal(run.killed, false);
    const results = scenarioResults(readPlaywrightReport(join(run.reportsDir, 'results.json')));
    assert.ok(results.length >= 1, run.stdout);
    const catalogue = loadClauseCatalogue();
    const outcomes = results.map((r) => scenarioOutcome(r, catalogue));
    for (const o of outcomes) {
      assert.equal(o.verdict, 'errored', JSON.stringify(o));
      assert.equal(o.internal, false);
      assert.match(o.reason ?? '', /FTF_E_TARGET_START_TIMEOUT: the embedded reference server .* did not start within 1 ms: phase "\w+"/);
    }
    assert.notEqual(exitCodeFor(summarize(outcomes, catalogue, { failOn: 'must', problems: [], notes: [] })), 3);
  } finally {
    rmSync(run.dir, { recursive: true, force: true });
  }
});

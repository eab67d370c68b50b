/**
 * An invalid scenario file is reported as invalid (its loader message with file:line:col) whatever happens
 * to the target: here the profile cannot even load (its secret is not set), so every test that needs the
 * `target` fixture fails, but the invalid-file test does not depend on it (specs/conformance.spec.ts).
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { TIMEOUT_DEFAULTS } from '../../src/harness/target/defaults.js';
import { runTimeoutMs, testTimeoutMs } from '../../src/harness/target/bounds.js';
import { flattenTests, runCatalogue } from '../../src/selftest/catalogue-run.js';

const dir = mkdtempSync(join(tmpdir(), 'ftf-invalid-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const OUTER_MS = runTimeoutMs(TIMEOUT_DEFAULTS, 1, 1) + testTimeoutMs(TIMEOUT_DEFAULTS);

test('an invalid scenario file is errored with its file:line:col even when the target cannot start', { timeout: OUTER_MS + testTimeoutMs(TIMEOUT_DEFAULTS) }, async () => {
  const specs = join(dir, 'specs');
  mkdirSync(join(specs, 'fam'), { recursive: true });
  writeFileSync(join(specs, 'fam', 'broken.yaml'), 'id: fam.broken\ntitle: broken\ncovers: [NO-SUCH-CLAUSE]\nsteps:\n  - request: { method: GET, path: /x }\n');
  const profile = join(dir, 'profile.yaml');
  writeFileSync(profile, 'name: t\nbase_url: http://127.0.0.1:9/api/v1\nauth_url: http://127.0.0.1:9\nenvironment: sandbox\ncredentials:\n  primary:\n    kind: client_credentials\n    client_id: c\n    client_secret_env: FTF_INVALID_RUN_UNSET_SECRET\n');
  const run = await runCatalogue({
    workers: 1,
    timeoutMs: OUTER_MS,
    args: ['specs/conformance.spec.ts'],
    dir: join(dir, 'out'),
    env: { FTF_SPECS_DIR: specs, FTF_TARGET: profile, FTF_INVALID_RUN_UNSET_SECRET: undefined },
  });
  assert.equal(run.killed, false, 'the run hung');
  assert.ok(run.results, `no results.json: ${run.stderr.slice(0, 500)}`);
  const tests = flattenTests(run.results);
  const invalid = tests.find((t) => t.title.includes('scenario file is invalid: fam/broken.yaml'));
  assert.ok(invalid, `no invalid-file test among ${tests.map((t) => t.title).join(', ')}`);
  assert.equal(invalid.status, 'unexpected');
  const message = invalid.messages.join('\n');
  assert.match(message, /unknown clause id 'NO-SUCH-CLAUSE'/);
  assert.match(message, /broken\.yaml:3:\d+/);
  assert.doesNotMatch(message, /FTF_E_PROFILE|FTF_INVALID_RUN_UNSET_SECRET|Test timeout/);
});

/**
 * Bounds nest (target/bounds.ts): request < step < scenario < Playwright's test timeout < run, from the
 * profile's timeouts only; a profile whose timeouts cannot nest is refused at the field at fault.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { boundProblems, graceMs, runTimeoutMs, stepBudgetMs, testTimeoutMs, type Timeouts } from '../../src/harness/target/bounds.js';
import { TIMEOUT_DEFAULTS } from '../../src/harness/target/defaults.js';
import { ProfileError } from '../../src/harness/target/errors.js';
import { loadTargetProfile, profileTimeouts } from '../../src/harness/target/load.js';

const dir = mkdtempSync(join(tmpdir(), 'ftf-bounds-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
function profile(timeouts: string): string {
  const file = join(dir, `p${++n}.yaml`);
  writeFileSync(file, `name: t
base_url: https://sandbox.vendor.test/api/v1
auth_url: https://sandbox.vendor.test
environment: sandbox
credentials:
  primary:
    kind: client_credentials
    client_id: cid-1
    client_secret_env: VENDOR_SECRET
${timeouts}`);
  return file;
}
const ENV = { VENDOR_SECRET: 'vendor-secret-value-1' };
const DEFAULTS: Timeouts = { ...TIMEOUT_DEFAULTS };

describe('bounds nest', () => {
  it('the defaults and every shipped profile nest', () => {
    assert.deepEqual(boundProblems(DEFAULTS, new Set()), []);
    const shipped = readdirSync('fixtures/targets').filter((f) => f.endsWith('.yaml'));
    assert.ok(shipped.length >= 4);
    for (const f of shipped) assert.deepEqual(boundProblems(profileTimeouts(join('fixtures/targets', f)), new Set(['request_ms'])), [], f);
  });

  it('request < scenario < test timeout < run, each derived from the same numbers', () => {
    const t = profileTimeouts('fixtures/targets/hostile.yaml');
    assert.deepEqual([t.requestMs, t.scenarioMs], [1000, 15000]);
    assert.equal(graceMs(t), 3 * 1000 + 1500);
    assert.equal(testTimeoutMs(t), 15000 + 4500);
    assert.ok(t.requestMs < t.pollDeadlineMs && t.pollDeadlineMs < t.scenarioMs && t.scenarioMs < testTimeoutMs(t));
    assert.equal(runTimeoutMs(t, 10, 2), 5 * (19500 + 4500) + 19500);
    assert.ok(runTimeoutMs(t, 10, 2) > 5 * testTimeoutMs(t));
    assert.equal(stepBudgetMs(3000, 1200), 1200);
    assert.equal(stepBudgetMs(3000, -5), 0);
  });

  it('a profile whose request bound does not fit the scenario is refused at request_ms', () => {
    const file = profile('timeouts:\n  request_ms: 20000\n  scenario_ms: 60000\n');
    assert.throws(() => loadTargetProfile(file, { env: ENV }), (err: unknown) => {
      assert.ok(err instanceof ProfileError);
      assert.equal(err.code, 'FTF_E_PROFILE_INVALID');
      assert.equal(err.issues[0]?.field, 'timeouts.request_ms');
      assert.equal(err.issues[0]?.line, 11);
      assert.match(err.message, /request_ms 20000 × 4 \(credentials \+ one exchange\) exceeds scenario_ms 60000/);
      assert.match(err.message, /:11:\d+ /);
      return true;
    });
  });

  it('a scenario_ms below the default poll deadline is refused at scenario_ms (the field the profile wrote)', () => {
    const file = profile('timeouts:\n  scenario_ms: 20000\n');
    assert.throws(() => loadTargetProfile(file, { env: ENV }), (err: unknown) => {
      const pe = err as ProfileError;
      return pe.code === 'FTF_E_PROFILE_INVALID' && pe.issues.some((i) => i.field === 'timeouts.scenario_ms' && /poll_deadline_ms 30000 \+ request_ms 10000 exceeds scenario_ms 20000/.test(i.message));
    });
  });

  it('a poll interval not below the poll deadline is refused', () => {
    const file = profile('timeouts:\n  poll_interval_ms: 5000\n  poll_deadline_ms: 5000\n');
    assert.throws(() => loadTargetProfile(file, { env: ENV }), /poll_interval_ms 5000 is not below poll_deadline_ms 5000/);
  });

  it('profileTimeouts falls back to the defaults for a missing or invalid profile', () => {
    assert.deepEqual(profileTimeouts(join(dir, 'missing.yaml')), DEFAULTS);
    assert.deepEqual(profileTimeouts(profile('timeouts:\n  request_ms: fast\n')), DEFAULTS);
  });
});

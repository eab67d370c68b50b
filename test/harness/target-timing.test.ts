/**
 * Issue 13 (clock-less forms): the profile's `timing` (the target's own timing) through the one pipeline:
 * read + schema + semantics (the short_lived credential and its bound come together), bounds (the real-time
 * wait nests in scenario_ms), resolve (ResolvedTarget.timing) and the target view scenarios read; the
 * no-control reference profile loads; a wait step's `ms` computed from the profile.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { targetView } from '../../src/harness/engine/target-view.js';
import { loadTargetProfile } from '../../src/harness/target/load.js';
import { readProfile } from '../../src/harness/target/profile.js';
import { REPO_ROOT } from '../../src/harness/repo-root.js';
import { ProfileError } from '../../src/harness/target/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'ftf-timing-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const ENV = { P_SECRET: 'p-secret-1', S_SECRET: 's-secret-1' };
function file(text: string): string {
  const f = join(dir, `p${++n}.yaml`);
  writeFileSync(f, text);
  return f;
}
const profile = (extraCred: string, bottom: string) => `name: t
base_url: https://x.test/api/v1
auth_url: https://x.test
environment: sandbox
credentials:
  primary: { kind: client_credentials, client_id: p, client_secret_env: P_SECRET }
${extraCred}${bottom}`;
const short = '  short_lived: { kind: client_credentials, client_id: s, client_secret_env: S_SECRET }\n';

/** The profile error's fields at fault and message, asserting its code. */
function refusal(f: string): string {
  try {
    readProfile(f);
  } catch (e) {
    assert.ok(e instanceof ProfileError, String(e));
    assert.equal(e.code, 'FTF_E_PROFILE_INVALID');
    return `${e.issues.map((i) => i.field).join(' ')} | ${e.message}`;
  }
  assert.fail('the profile was accepted');
}

describe('profile timing', () => {
  it('a short_lived credential with its bound loads; the target and its view carry the timing', () => {
    const t = loadTargetProfile(file(profile(short, 'timing: { short_lived_token_max_s: 5, expiry_leeway_s: 1 }\n')), { env: ENV });
    assert.deepEqual(t.timing, { shortLivedTokenMaxS: 5, expiryLeewayS: 1, issuanceWatchS: 10 });
    assert.deepEqual(targetView(t).timing, { short_lived_token_max_s: 5, expiry_leeway_s: 1, uid_rotation_max_s: null, issuance_watch_s: 10 });
  });

  it('without timing the leeway defaults and no short-lived bound is claimed', () => {
    const t = loadTargetProfile(file(profile('', '')), { env: ENV });
    assert.deepEqual(t.timing, { expiryLeewayS: 2, issuanceWatchS: 10 });
    assert.equal((targetView(t).timing as Record<string, unknown>).short_lived_token_max_s, null);
  });

  it('the short_lived credential without its bound, or the bound without the credential, is refused naming the field', () => {
    assert.match(refusal(file(profile(short, ''))), /timing\.short_lived_token_max_s/);
    assert.match(refusal(file(profile('', 'timing: { short_lived_token_max_s: 5 }\n'))), /needs a credential named short_lived/);
  });

  it('a short_lived credential must be a client_credentials client', () => {
    const msg = refusal(file(profile('  short_lived: { kind: api_key, api_key_env: S_SECRET }\n', 'timing: { short_lived_token_max_s: 5 }\n')));
    assert.match(msg, /credentials\.short_lived\.kind/);
  });

  it('a real-time wait that would outlive scenario_ms is refused at load, at the timing field', () => {
    const msg = refusal(file(profile(short, 'timing: { short_lived_token_max_s: 50, expiry_leeway_s: 5 }\ntimeouts: { request_ms: 5000, scenario_ms: 60000, poll_deadline_ms: 10000 }\n')));
    assert.match(msg, /timing\.short_lived_token_max_s/);
    assert.match(msg, /scenario_ms 60000/);
    // 3 + 2 s of wait and 4 × 5 s of exchanges fit in 60 s
    assert.doesNotThrow(() => readProfile(file(profile(short, 'timing: { short_lived_token_max_s: 3 }\ntimeouts: { request_ms: 5000, scenario_ms: 60000, poll_deadline_ms: 10000 }\n'))));
  });

  it('indications.rotating_uid and timing.uid_rotation_max_s come together; the view carries the bound; its wait nests in scenario_ms', () => {
    const rotating = (bottom: string) => profile('', `indications: { primary: P, rotating_uid: R }\n${bottom}`);
    const t = loadTargetProfile(file(rotating('timing: { uid_rotation_max_s: 3 }\n')), { env: ENV });
    assert.deepEqual(t.timing, { expiryLeewayS: 2, uidRotationMaxS: 3, issuanceWatchS: 10 });
    assert.equal((targetView(t).timing as Record<string, unknown>).uid_rotation_max_s, 3);
    assert.match(refusal(file(rotating(''))), /timing\.uid_rotation_max_s .*indications\.rotating_uid needs timing\.uid_rotation_max_s/s);
    assert.match(refusal(file(profile('', 'indications: { primary: P }\ntiming: { uid_rotation_max_s: 3 }\n'))), /needs indications\.rotating_uid/);
    const msg = refusal(file(rotating('timing: { uid_rotation_max_s: 59 }\ntimeouts: { request_ms: 5000, scenario_ms: 60000, poll_deadline_ms: 10000 }\n')));
    assert.match(msg, /timing\.uid_rotation_max_s .*scenario_ms 60000/s);
  });

  it('unknown timing fields are refused by the schema', () => {
    assert.match(refusal(file(profile('', 'timing: { cutoff_every_s: 5 }\n'))), /timing/);
  });

  it('fixtures/targets/reference-no-control.yaml: no control URL, no clock, a short-lived test client', () => {
    const p = readProfile(join(REPO_ROOT, 'fixtures/targets/reference-no-control.yaml'));
    assert.equal(p.raw.control_url, undefined);
    assert.ok(!(p.raw.capabilities ?? []).includes('clock'));
    assert.equal(p.raw.credentials.short_lived?.client_id, 'cc-alice-short');
    assert.equal(p.raw.timing?.short_lived_token_max_s, 3);
    assert.equal(p.raw.indications?.rotating_uid, 'FTF-FIX-ROTATE');
    assert.equal(p.raw.timing?.uid_rotation_max_s, 3);
  });
});

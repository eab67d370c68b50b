/**
 * Profiles that fit real APIs (issue 12): query strings and profile-known placeholders in paths, record
 * pointers (validated at the declared place, list items included), null for an optional indication role,
 * the event page-size parameter's name and json_if. Old profiles stay valid with the reference's defaults.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { applyEventLimitParam } from '../../src/harness/engine/event-params.js';
import { schemaRegistry } from '../../src/harness/schemas/registry.js';
import { RECORD_DEFAULTS } from '../../src/harness/target/defaults.js';
import { missingRoles, missingRolesReason, scenarioRoles } from '../../src/harness/scenario/roles.js';
import { loadTargetProfile, REFERENCE_PROFILE } from '../../src/harness/target/load.js';
import { readProfile } from '../../src/harness/target/profile.js';
import { fillPathParams } from '../../src/harness/target/resolve.js';
import { ProfileError } from '../../src/harness/target/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'ftf-target-fit-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
function profile(extra: string): string {
  const file = join(dir, `p${++n}.yaml`);
  writeFileSync(file, `name: vendor
base_url: https://sandbox.vendor.test/api/v1
auth_url: https://sandbox.vendor.test
environment: sandbox
credentials:
  primary: { kind: client_credentials, client_id: cid, client_secret_env: VENDOR_SECRET }
${extra}`);
  return file;
}
const load = (extra: string) => loadTargetProfile(profile(extra), { env: { VENDOR_SECRET: 's3cret-value' } });

describe('profile keys that locate things', () => {
  it('an old profile gets the reference layout: records at their defaults, no absent role, no DELETE body', () => {
    const t = loadTargetProfile(REFERENCE_PROFILE, { partial: true });
    assert.deepEqual(t.records, RECORD_DEFAULTS);
    assert.equal(t.webhook.deleteBody, false);
  });

  it('paths take query strings and path_params fills the placeholders no scenario knows', () => {
    const t = load(`paths:
  holdings: /holding?entity_code={entity_code}
  holidays: /holiday/{year}
path_params: { year: 2026 }
`);
    assert.equal(t.paths.holdings, '/holding?entity_code={entity_code}');
    assert.equal(t.paths.holidays, '/holiday/2026');
    assert.deepEqual(fillPathParams({ a: '/x/{y}/{z}' }, { y: 'a b' }), { a: '/x/a%20b/{z}' });
  });

  it('a path with a fragment or without a leading slash is refused at its line', () => {
    assert.throws(() => load('paths: { holdings: "holding#x" }\n'), (e: unknown) => e instanceof ProfileError && /paths\.holdings/.test(e.message));
  });

  it('records: pointers or null for subscribe only; unknown record keys are refused', () => {
    const t = load('records: { indication: /0, subscribe: null }\n');
    assert.equal(t.records.indication, '/0');
    assert.equal(t.records.subscribe, null);
    assert.throws(() => load('records: { indication: null }\n'), ProfileError);
    assert.throws(() => load('records: { holding: /x }\n'), ProfileError);
  });

  it('an optional indication role set to null is absent; primary cannot be', () => {
    const t = load('indications: { primary: P-1, fractional_minimum: null }\n');
    assert.deepEqual(t.indications, { primary: 'P-1' });
    assert.equal('fractional_minimum' in t.indications, false, 'a null role is left out of the indications');
    assert.throws(() => load('indications: { primary: null }\n'), ProfileError);
  });

  it('the embedded reference profile and every example profile still validate', () => {
    for (const f of ['reference.yaml', 'reference-production.yaml', 'sandbox.example.yaml', 'production.example.yaml']) {
      readProfile(join(REFERENCE_PROFILE, '..', f));
    }
  });
});

type Registry = ReturnType<typeof schemaRegistry>;
function match(r: Registry, method: string, path: string): { operation: string; schemaId: string } {
  const m = r.matchOperation(method, path, 'api', 200);
  assert.ok(m, `${method} ${path} matches an operation`);
  return { operation: m.operation, schemaId: m.schemaId ?? '' };
}

describe('schema check at the declared record place', () => {
  const indication = { uid: 'u-1', minimum: 1, maximum: 50, subscriptionDates: ['2026-01-05'] };
  it('records.indication "/0": the first list item is the record, and it must be a whole indication', () => {
    const r = schemaRegistry({ records: { indication: '/0' } });
    const m = match(r, 'GET', '/indication/FTF-1');
    assert.equal(m.operation, 'indication.get');
    assert.equal(r.validate(m.schemaId, [indication]).valid, true);
    assert.equal(r.validate(m.schemaId, []).valid, false);
    assert.equal(r.validate(m.schemaId, [{ uid: 'u-1' }]).valid, false, 'nothing the spec fixes becomes optional');
    assert.equal(r.validate(m.schemaId, indication).valid, false, 'the record is where the profile says, not elsewhere');
  });
  it('records.indication "/indication": a wrapper field', () => {
    const r = schemaRegistry({ records: { indication: '/indication' } });
    const m = match(r, 'GET', '/indication/FTF-1');
    assert.equal(r.validate(m.schemaId, { indication }).valid, true);
    assert.equal(r.validate(m.schemaId, indication).valid, false);
  });
  it('a path with a query string is recognised by its path part', () => {
    const r = schemaRegistry({ paths: { holdings: '/holding?entity_code={entity_code}' } });
    assert.equal(match(r, 'GET', '/holding').operation, 'holding.list');
    assert.equal(match(r, 'GET', '/holding/ENT-A/H-1').operation, 'holding.get');
  });
});

describe('names and shapes a scenario cannot know', () => {
  it('GET /event: limit becomes the profile\'s page-size parameter, other requests keep it', () => {
    const url = new URL('http://h/api/v1/event?limit=2&start_cursor=c');
    applyEventLimitParam(url, '/api/v1', 'page_size');
    assert.equal(url.search, '?start_cursor=c&page_size=2');
    const other = new URL('http://h/api/v1/holding?limit=2');
    applyEventLimitParam(other, '/api/v1', 'page_size');
    assert.equal(other.search, '?limit=2');
  });
  it('a scenario naming an absent role is not applicable, with the reason', () => {
    const scenario = { vars: {}, steps: [{ use: 'amounts-indication', with: { code: '${target.indications.fractional_minimum}' } }] } as unknown as Parameters<typeof scenarioRoles>[0];
    const roles = scenarioRoles(scenario);
    assert.deepEqual(roles, ['indications.fractional_minimum']);
    const absent = missingRoles({ indications: { primary: 'P' } }, roles);
    assert.deepEqual(absent, ['indications.fractional_minimum']);
    assert.match(missingRolesReason(absent), /needs profile role indications\.fractional_minimum/);
    assert.deepEqual(missingRoles({ indications: { fractional_minimum: 'F' } }, roles), []);
  });
});

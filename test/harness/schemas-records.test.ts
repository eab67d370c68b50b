/**
 * Issue 30 (item 7, records): every record a profile locates (`records.<key>`, docs/target-profiles.md) is
 * validated at its declared place with the full record schema: bare (""), wrapped ("/<name>") and as a list item
 * ("/0"); `null` = the answer holds no record there, so none is required. One case per record key, and a key
 * without a case fails here. POST /subscribe was the gap: a Subscription with `holdingUid: 123` passed, bare or
 * wrapped, while the same record read back through GET /subscription was rejected.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { schemaRegistry } from '../../src/harness/schemas/registry.js';
import { RECORD_DEFAULTS } from '../../src/harness/target/defaults.js';
import { sampleAs } from './schemas-helpers.js';

type Obj = Record<string, unknown>;

interface RecordCase {
  method: string;
  path: string;
  good: () => Obj;
  /** The same record with one field the schema forbids. */
  bad: () => Obj;
  /** Other places of the same answer the profile keeps at their defaults (the subscribe uid). */
  fields?: (place: string) => Record<string, string>;
  /** Where a target may put the record (records.<key> values to try). */
  places: string[];
}

const CASES: Record<string, RecordCase> = {
  indication: {
    method: 'GET',
    path: '/indication/IND-1',
    good: () => sampleAs<Obj>('indication'),
    bad: () => ({ ...sampleAs<Obj>('indication'), subscriptionDates: 'tomorrow' }),
    places: ['', '/indication', '/0'],
  },
  subscribe: {
    method: 'POST',
    path: '/subscribe',
    good: () => ({ uid: 'sub-1', holdingUid: null }),
    bad: () => ({ uid: 'sub-1', holdingUid: 123 }),
    // The uid sits inside the record wherever the record is (fields.subscription_uid).
    fields: (place) => ({ subscription_uid: `${place}/uid` }),
    // The answer is a JSON object "containing the subscription uid" (spec): bare or wrapped, never a list.
    places: ['', '/subscription', '/data'],
  },
};

/** The body with the record at `place`: "" the body itself, "/name" a wrapper, "/0" the first list item. */
function placed(record: Obj, place: string): unknown {
  if (place === '') return record;
  const token = place.slice(1);
  return /^\d+$/.test(token) ? [record] : { [token]: record };
}

function check(key: string, place: string | null, body: unknown): { valid: boolean; text: string } {
  const c = CASES[key]!;
  const registry = schemaRegistry({ records: { [key]: place }, fields: c.fields?.(place ?? '') ?? {} });
  const match = registry.matchOperation(c.method, c.path, 'api', 200);
  assert.ok(match?.schemaId, `${c.method} ${c.path} has a schema`);
  const r = registry.validate(match.schemaId, body);
  return { valid: r.valid, text: JSON.stringify(r) };
}

describe('every record a profile locates is validated at its declared place', () => {
  it('every records key of the profile defaults has a case here', () => {
    assert.deepEqual(Object.keys(CASES).sort(), Object.keys(RECORD_DEFAULTS).sort());
  });
  for (const key of Object.keys(RECORD_DEFAULTS)) {
    it(`records.${key}: a wrong record fails, bare, wrapped and as a list item; a right one passes`, () => {
      const c = CASES[key]!;
      for (const place of c.places) {
        assert.equal(check(key, place, placed(c.good(), place)).valid, true, `records.${key}: "${place}" good`);
        const bad = check(key, place, placed(c.bad(), place));
        assert.equal(bad.valid, false, `records.${key}: "${place}" a wrong record passed`);
      }
      // A missing record at the declared place fails too (what the spec fixes stays required).
      assert.equal(check(key, `/${key}`, { other: c.good() }).valid, false, `records.${key}: a missing record passed`);
    });
    it(`records.${key}: null = the answer holds no record there, none is required`, () => {
      const c = CASES[key]!;
      const body = key === 'subscribe' ? { subscriptionUid: 'sub-1', status: 'Pending' } : {};
      const registry = schemaRegistry({ records: { [key]: null }, fields: key === 'subscribe' ? { subscription_uid: '/subscriptionUid' } : {} });
      const match = registry.matchOperation(c.method, c.path, 'api', 200);
      if (key === 'subscribe') {
        assert.equal(registry.validate(match!.schemaId!, body).valid, true);
        // The uid is still checked where the profile says.
        assert.equal(registry.validate(match!.schemaId!, { status: 'Pending' }).valid, false);
      } else {
        assert.equal(match?.schemaId === undefined || registry.validate(match.schemaId, body).valid, true);
      }
    });
  }
});

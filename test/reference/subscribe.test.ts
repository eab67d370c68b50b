/** POST /subscribe: idempotency, replay, check order, amount limits, uid rotation, dates, concurrency. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assert422, assertDetail, indication, newKey, startRef, type Ref } from './helpers.js';

describe('POST /subscribe', () => {
  let ref: Ref;
  let alice: string;
  before(async () => {
    ref = await startRef();
    alice = await ref.token('cc-alice');
  });
  after(() => ref.close());

  const subscribe = (body: unknown, key: string | null = newKey(), token = alice) =>
    ref.api('POST', '/subscribe', { token, json: body, headers: key === null ? {} : { 'idempotency-key': key } });

  it('requires the Idempotency-Key header (400) and creates nothing without it', async () => {
    const ind = await indication(ref, alice, 'FTF-FIX-1M');
    const res = await subscribe({ indicationUid: ind.uid, entityCode: 'ENT-ALPHA', amount: 1_000_000 }, null);
    assertDetail(res, 400, 'Idempotency-Key header is required.');
    const empty = await subscribe({ indicationUid: ind.uid, entityCode: 'ENT-ALPHA', amount: 1_000_000 }, '  ');
    assertDetail(empty, 400, 'Idempotency-Key header is required.');
  });

  it('creates a Pending subscription with holdingUid null and lists it', async () => {
    const ind = await indication(ref, alice, 'FTF-FIX-1M');
    const res = await subscribe({ indicationUid: ind.uid, entityCode: 'ENT-ALPHA', amount: 1_000_000 });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, 'Pending');
    assert.equal(res.body.holdingUid, null);
    assert.equal(res.body.manualReview, false);
    assert.equal(res.body.subscriptionDate, ind.subscriptionDates[0]);
    const list = await ref.api('GET', '/subscription?entity_code=ENT-ALPHA', { token: alice });
    assert.ok(list.body.some((s: { uid: string }) => s.uid === res.body.uid));
  });

  it('replays the cached response for a used key, success and rejection alike, creating nothing new', async () => {
    const ind = await indication(ref, alice, 'FTF-FIX-1M');
    const key = newKey();
    const first = await subscribe({ indicationUid: ind.uid, entityCode: 'ENT-ALPHA', amount: 2_000_000 }, key);
    const second = await subscribe({ indicationUid: ind.uid, entityCode: 'ENT-ALPHA', amount: 9_000_000 }, key);
    assert.equal(second.status, 200);
    assert.equal(second.text, first.text);
    assert.equal(second.headers['idempotent-replayed'], 'true');

    const rejKey = newKey();
    const rej = await subscribe({ indicationUid: ind.uid, entityCode: 'ENT-ALPHA', amount: 10 }, rejKey);
    assertDetail(rej, 400, 'Amount is below the indication minimum.');
    const rej2 = await subscribe({ indicationUid: ind.uid, entityCode: 'ENT-ALPHA', amount: 5_000_000 }, rejKey);
    assert.equal(rej2.status, 400);
    assert.equal(rej2.text, rej.text);

    const badKey = newKey();
    const v1 = await subscribe({ entityCode: 'ENT-ALPHA' }, badKey);
    assert422(v1, 'indicationUid');
    const v2 = await subscribe({ indicationUid: ind.uid, entityCode: 'ENT-ALPHA', amount: 5_000_000 }, badKey);
    assert.equal(v2.status, 422);
    assert.equal(v2.text, v1.text);
  });

  it('keys are per user: bob reusing alice\'s key gets his own outcome', async () => {
    const bob = await ref.token('cc-bob');
    const ind = await indication(ref, alice, 'FTF-FIX-1M');
    const key = newKey();
    const a = await subscribe({ indicationUid: ind.uid, entityCode: 'ENT-BETA', amount: 1_000_000 }, key, alice);
    const b = await subscribe({ indicationUid: ind.uid, entityCode: 'ENT-BETA', amount: 1_000_000 }, key, bob);
    assert.equal(a.status, 200);
    assertDetail(b, 403, 'Not authorised for this entity');
  });

  it('20 concurrent requests with one key create exactly one subscription', async () => {
    const ind = await indication(ref, alice, 'FTF-FIX-1M');
    const before = (await ref.api('GET', '/subscription?entity_code=ENT-BETA', { token: alice })).body.length;
    const key = newKey();
    const results = await Promise.all(Array.from({ length: 20 }, () =>
      subscribe({ indicationUid: ind.uid, entityCode: 'ENT-BETA', amount: 3_000_000 }, key)));
    const uids = new Set(results.map((r) => r.body.uid));
    assert.ok(results.every((r) => r.status === 200));
    assert.equal(uids.size, 1);
    const afterList = (await ref.api('GET', '/subscription?entity_code=ENT-BETA', { token: alice })).body;
    assert.equal(afterList.length, before + 1);
  });

  it('new keys with the same body create new subscriptions with new uids', async () => {
    const ind = await indication(ref, alice, 'FTF-FIX-1M');
    const body = { indicationUid: ind.uid, entityCode: 'ENT-ALPHA', amount: 1_500_000 };
    const a = await subscribe(body);
    const b = await subscribe(body);
    assert.equal(a.status, 200);
    assert.equal(b.status, 200);
    assert.notEqual(a.body.uid, b.body.uid);
  });

  it('checks in order: endpoint permission, key, 422, entity 403, indication, date, minimum, maximum', async () => {
    const carol = await ref.token('cc-carol-readonly');
    const ind = await indication(ref, alice, 'FTF-FIX-1M');
    // read-only client: 403 before the missing key and the invalid body
    assertDetail(await subscribe({}, null, carol), 403, 'Endpoint not enabled for this API user.');
    // missing key before 422
    assertDetail(await subscribe({}, null), 400, 'Idempotency-Key header is required.');
    // 422 before the forbidden entity
    assert422(await subscribe({ indicationUid: ind.uid, entityCode: 'ENT-GAMMA', amount: '1000000' }), 'amount');
    // forbidden entity before unknown indication
    assertDetail(await subscribe({ indicationUid: 'nope', entityCode: 'ENT-GAMMA', amount: 1 }), 403, 'Not authorised for this entity');
    // unknown indication before bad date
    assertDetail(await subscribe({ indicationUid: 'nope', entityCode: 'ENT-ALPHA', amount: 1, subscriptionDate: '2020-01-01' }), 404, 'Indication not found');
    // bad date before minimum
    assertDetail(await subscribe({ indicationUid: ind.uid, entityCode: 'ENT-ALPHA', amount: 1, subscriptionDate: '2026-03-04' }), 400,
      'Subscription date is not a valid date for this indication.');
    // minimum before maximum is not reachable with one amount; each alone:
    assertDetail(await subscribe({ indicationUid: ind.uid, entityCode: 'ENT-ALPHA', amount: 999_999.99 }), 400, 'Amount is below the indication minimum.');
    assertDetail(await subscribe({ indicationUid: ind.uid, entityCode: 'ENT-ALPHA', amount: 50_000_000.01 }), 400, 'Amount is above the indication maximum.');
  });

  it('accepts amounts exactly at the minimum and maximum (decimal math on fractional millions)', async () => {
    const frac = await indication(ref, alice, 'FTF-FIX-FRAC');
    const atMin = await subscribe({ indicationUid: frac.uid, entityCode: 'ENT-ALPHA', amount: 250_000 });
    assert.equal(atMin.status, 200, atMin.text);
    assertDetail(await subscribe({ indicationUid: frac.uid, entityCode: 'ENT-ALPHA', amount: 249_999.99 }), 400, 'Amount is below the indication minimum.');
    const atMax = await subscribe({ indicationUid: frac.uid, entityCode: 'ENT-ALPHA', amount: 5_500_000 });
    assert.equal(atMax.status, 200);
    assert.equal(atMax.body.manualReview, false);
  });

  it('above the maximum: 200 with manualReview when not enforced, 400 when enforced', async () => {
    const frac = await indication(ref, alice, 'FTF-FIX-FRAC');
    const over = await subscribe({ indicationUid: frac.uid, entityCode: 'ENT-ALPHA', amount: 5_500_000.01 });
    assert.equal(over.status, 200, over.text);
    assert.equal(over.body.manualReview, true);
    const ext = await indication(ref, alice, 'FTF-EXT-6M');
    assertDetail(await subscribe({ indicationUid: ext.uid, entityCode: 'ENT-BETA', amount: 100_000_001 }), 400, 'Amount is above the indication maximum.');
    assert.equal((await subscribe({ indicationUid: ext.uid, entityCode: 'ENT-BETA', amount: 2_000_000 })).status, 200);
  });

  it('accepts a listed subscriptionDate and refuses unlisted ones (weekend, holiday, past)', async () => {
    const ind = await indication(ref, alice, 'FTF-FIX-1M');
    const listed = ind.subscriptionDates[2] ?? '';
    const ok = await subscribe({ indicationUid: ind.uid, entityCode: 'ENT-ALPHA', amount: 1_000_000, subscriptionDate: listed });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.subscriptionDate, listed);
    for (const d of ['2026-03-07', '2026-03-04', '2026-02-27']) {
      assertDetail(await subscribe({ indicationUid: ind.uid, entityCode: 'ENT-ALPHA', amount: 1_000_000, subscriptionDate: d }), 400,
        'Subscription date is not a valid date for this indication.');
    }
    assert422(await subscribe({ indicationUid: ind.uid, entityCode: 'ENT-ALPHA', amount: 1_000_000, subscriptionDate: '2026-02-30' }), 'subscriptionDate');
  });
});

describe('POST /subscribe on the simulated clock', () => {
  let ref: Ref;
  let alice: string;
  before(async () => {
    ref = await startRef();
    alice = await ref.token('cc-alice');
  });
  after(() => ref.close());

  const subscribe = (body: unknown) => ref.api('POST', '/subscribe', { token: alice, json: body, headers: { 'idempotency-key': newKey() } });

  it('a Fixed uid rotates daily: yesterday\'s uid is 400 "no longer available"; the Extendable uid is stable', async () => {
    const fixed = await indication(ref, alice, 'FTF-FIX-1M');
    const ext = await indication(ref, alice, 'FTF-EXT-6M');
    await ref.call('POST', '/_sandbox/clock/advance', { json: { days: 1 } });
    alice = await ref.token('cc-alice', true);
    const fixed2 = await indication(ref, alice, 'FTF-FIX-1M');
    const ext2 = await indication(ref, alice, 'FTF-EXT-6M');
    assert.notEqual(fixed2.uid, fixed.uid);
    assert.equal(ext2.uid, ext.uid);
    assertDetail(await subscribe({ indicationUid: fixed.uid, entityCode: 'ENT-ALPHA', amount: 1_000_000 }), 400,
      'Indication is no longer available for subscription.');
    assert.equal((await subscribe({ indicationUid: fixed2.uid, entityCode: 'ENT-ALPHA', amount: 1_000_000 })).status, 200);
  });

  it('a listed date whose cut-off has passed by the time of subscribing is refused', async () => {
    await ref.call('POST', '/_sandbox/reset');
    alice = await ref.token('cc-alice');
    const ind = await indication(ref, alice, 'FTF-FIX-1M');
    const today = ind.subscriptionDates[0];
    assert.equal(today, '2026-03-02');
    await ref.call('POST', '/_sandbox/clock/advance', { json: { hours: 3, minutes: 30 } }); // 11:30 London > 11:00
    assertDetail(await subscribe({ indicationUid: ind.uid, entityCode: 'ENT-ALPHA', amount: 1_000_000, subscriptionDate: today }), 400,
      'Subscription date is not a valid date for this indication.');
    const later = await indication(ref, alice, 'FTF-FIX-1M');
    assert.equal(later.subscriptionDates[0], '2026-03-03');
  });
});

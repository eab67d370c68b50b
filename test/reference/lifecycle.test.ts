/** Lifecycle on the simulated clock: cut-off, issuance, funding, default dates; the sandbox control API. */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { assertDetail, indication, newKey, startRef, type Ref } from './helpers.js';

describe('subscription lifecycle', () => {
  let ref: Ref;
  let alice: string;
  before(async () => {
    ref = await startRef();
  });
  beforeEach(async () => {
    await ref.call('POST', '/_sandbox/reset');
    alice = await ref.token('cc-alice', true);
  });
  after(() => ref.close());

  const advance = (json: unknown) => ref.call('POST', '/_sandbox/clock/advance', { json });
  const subscribe = async (code: string, extra: Record<string, unknown> = {}) => {
    const ind = await indication(ref, alice, code);
    const res = await ref.api('POST', '/subscribe', {
      token: alice, headers: { 'idempotency-key': newKey() },
      json: { indicationUid: ind.uid, entityCode: 'ENT-ALPHA', amount: 1_000_000, ...extra },
    });
    assert.equal(res.status, 200, res.text);
    return res.body as { uid: string; subscriptionDate: string };
  };
  const find = async (uid: string) => {
    const list = await ref.api('GET', '/subscription?entity_code=ENT-ALPHA', { token: alice });
    return list.body.find((s: { uid: string }) => s.uid === uid);
  };

  it('stays Pending until the cut-off, then issues a holding dated the subscription date', async () => {
    const sub = await subscribe('FTF-FIX-1M'); // cut-off 11:00 Europe/London = 11:00Z on 2026-03-02
    await advance({ hours: 2, minutes: 59 });
    const pending = await find(sub.uid);
    assert.equal(pending.status, 'Pending');
    assert.equal(pending.holdingUid, null);
    await advance({ minutes: 2 });
    const issued = await find(sub.uid);
    assert.equal(issued.status, 'Issued');
    assert.equal(typeof issued.holdingUid, 'string');
    const h = await ref.api('GET', `/holding/ENT-ALPHA/${issued.holdingUid}`, { token: alice });
    assert.equal(h.status, 200);
    assert.equal(h.body.status, 'Issued');
    assert.equal(h.body.issueDate, '2026-03-02');
    assert.equal(h.body.subscriptionUid, sub.uid);
    assert.equal(h.body.maturityDate, '2026-04-02');
    assert.equal(h.body.cutoffDatetime, '2026-03-02T11:00:00+00:00');
    // Issued is terminal: later reads keep it
    await advance({ days: 3 });
    alice = await ref.token('cc-alice', true);
    assert.equal((await ref.api('GET', `/holding/ENT-ALPHA/${issued.holdingUid}`, { token: alice })).body.status, 'Issued');
  });

  it('appends SUBSCRIBED at subscription and ISSUED at issuance', async () => {
    const sub = await subscribe('FTF-FIX-1M');
    const head = (await ref.api('GET', '/event?event_type=SUBSCRIBED&entity_code=ENT-ALPHA', { token: alice })).body;
    const last = head.events[head.events.length - 1];
    assert.equal(last.subscriptionUid, sub.uid);
    await advance({ hours: 4 });
    const issued = (await ref.api('GET', `/event?event_type=ISSUED&start_cursor=${last.cursor}`, { token: alice })).body;
    assert.equal(issued.events.length, 1);
    assert.equal(issued.events[0].subscriptionUid, sub.uid);
  });

  it('an omitted subscriptionDate defaults to today, or the next available date after today\'s cut-off', async () => {
    const early = await subscribe('FTF-FIX-1M');
    assert.equal(early.subscriptionDate, '2026-03-02');
    await advance({ hours: 4 }); // 12:00 London, past the 11:00 cut-off
    const late = await subscribe('FTF-FIX-1M');
    assert.equal(late.subscriptionDate, '2026-03-03');
    await advance({ days: 1 }); // 2026-03-03 12:00: next is 03-05 (03-04 is an FTF holiday)
    alice = await ref.token('cc-alice', true);
    const skip = await subscribe('FTF-FIX-1M');
    assert.equal(skip.subscriptionDate, '2026-03-05');
  });

  it('late funding moves the subscription to the next available date; the holding shows it', async () => {
    const sub = await subscribe('FTF-FIX-1M');
    const delayed = await ref.call('POST', `/_sandbox/subscriptions/${sub.uid}/funding`, { json: { state: 'delayed' } });
    assert.equal(delayed.status, 200);
    await advance({ hours: 4 }); // past cut-off, unfunded: still pending on the same date
    let s = await find(sub.uid);
    assert.equal(s.status, 'Pending');
    assert.equal(s.subscriptionDate, '2026-03-02');
    const arrived = await ref.call('POST', `/_sandbox/subscriptions/${sub.uid}/funding`, { json: { state: 'arrived' } });
    assert.equal(arrived.body.subscriptionDate, '2026-03-03');
    s = await find(sub.uid);
    assert.equal(s.status, 'Pending');
    assert.equal(s.requestedSubscriptionDate, '2026-03-02');
    await advance({ days: 1 }); // past 2026-03-03 11:00
    alice = await ref.token('cc-alice', true);
    s = await find(sub.uid);
    assert.equal(s.status, 'Issued');
    const h = await ref.api('GET', `/holding/ENT-ALPHA/${s.holdingUid}`, { token: alice });
    assert.equal(h.body.issueDate, '2026-03-03');
  });

  it('funding that arrives before the cut-off keeps the date', async () => {
    const sub = await subscribe('FTF-FIX-1M');
    await ref.call('POST', `/_sandbox/subscriptions/${sub.uid}/funding`, { json: { state: 'delayed' } });
    await advance({ hours: 1 });
    await ref.call('POST', `/_sandbox/subscriptions/${sub.uid}/funding`, { json: { state: 'arrived' } });
    await advance({ hours: 3 });
    const s = await find(sub.uid);
    assert.equal(s.status, 'Issued');
    assert.equal(s.subscriptionDate, '2026-03-02');
  });

  it('the funding control refuses unknown and no-longer-pending subscriptions', async () => {
    assertDetail(await ref.call('POST', '/_sandbox/subscriptions/nope/funding', { json: { state: 'arrived' } }), 404, 'Subscription not found');
    const sub = await subscribe('FTF-FIX-1M');
    await advance({ hours: 4 });
    assertDetail(await ref.call('POST', `/_sandbox/subscriptions/${sub.uid}/funding`, { json: { state: 'delayed' } }), 409);
    assert.equal((await ref.call('POST', `/_sandbox/subscriptions/${sub.uid}/funding`, { json: { state: 'late' } })).status, 422);
  });
});

describe('sandbox control API', () => {
  let ref: Ref;
  before(async () => {
    ref = await startRef();
  });
  after(() => ref.close());

  it('reports and advances the clock, forward only', async () => {
    const c = await ref.call('GET', '/_sandbox/clock');
    assert.equal(c.body.today, '2026-03-02');
    assert.match(c.body.now, /^2026-03-02T08:00:0\d\.\d{3}Z$/);
    const moved = await ref.call('POST', '/_sandbox/clock/advance', { json: { to: '2026-03-05T09:30:00Z' } });
    assert.equal(moved.body.today, '2026-03-05');
    assertDetail(await ref.call('POST', '/_sandbox/clock/advance', { json: { to: '2026-03-01T00:00:00Z' } }), 400, 'The simulated clock only moves forward.');
    assert.equal((await ref.call('POST', '/_sandbox/clock/advance', { json: { days: -1 } })).status, 422);
    assert.equal((await ref.call('POST', '/_sandbox/clock/advance', { json: { weeks: 1 } })).status, 422);
    await ref.call('POST', '/_sandbox/reset');
    assert.equal((await ref.call('GET', '/_sandbox/clock')).body.today, '2026-03-02');
  });

  it('appends synthetic events round-robin over kinds and honours entityCode/eventTypes', async () => {
    const alice = await ref.token('cc-alice');
    const before = (await ref.api('GET', '/event?entity_code=ENT-BETA&limit=1', { token: alice })).body.pageInfo.totalCount;
    const res = await ref.call('POST', '/_sandbox/events', { json: { count: 20, entityCode: 'ENT-BETA' } });
    assert.equal(res.status, 200);
    assert.equal(res.body.appended, 20);
    const page = (await ref.api('GET', '/event?entity_code=ENT-BETA&limit=1', { token: alice })).body;
    assert.equal(page.pageInfo.totalCount, before + 20);
    await ref.call('POST', '/_sandbox/events', { json: { count: 4, entityCode: 'ENT-ALPHA', eventTypes: ['FINALIZED'] } });
    const fin = (await ref.api('GET', '/event?entity_code=ENT-ALPHA&event_type=FINALIZED', { token: alice })).body;
    assert.ok(fin.events.slice(-4).every((e: { finalized: boolean }) => e.finalized === true));
    assertDetail(await ref.call('POST', '/_sandbox/events', { json: { count: 1, entityCode: 'ENT-NOPE' } }), 400);
    assert.equal((await ref.call('POST', '/_sandbox/events', { json: { count: 0 } })).status, 422);
  });

  it('is absent in production mode (404), with no control URL', async () => {
    const prod = await startRef({ mode: 'production' });
    try {
      assertDetail(await prod.call('GET', '/_sandbox/clock'), 404, 'Not Found');
      assertDetail(await prod.call('POST', '/_sandbox/reset'), 404, 'Not Found');
    } finally {
      await prod.close();
    }
  });
});

/** GET /event: paging, fence, totalCount, filters, scoping, cursors, event payload shapes per kind. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { EVENT_TYPES } from '../../src/reference/data/types.js';
import { assert422, assertDetail, startRef, type Ref } from './helpers.js';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DECIMAL = /^-?\d+(\.\d+)?$/;

/** Required fields per kind: name -> 'decimal' | 'date' | 'string' | 'true' | 'date?' (date or null). */
const SHAPES: Record<string, Record<string, string>> = {
  ADJUSTED: {
    obligorExposureCode: 'string', maturityValue: 'decimal', yield: 'decimal', currency: 'string', holdingUid: 'string', cost: 'decimal',
    subscriptionDate: 'date', maturityDate: 'date', previousMaturityDate: 'date', previousMaturityValue: 'decimal', previousSubscriptionDate: 'date',
  },
  CANCELLED: { currency: 'string', holdingUid: 'string', cost: 'decimal' },
  CASH_MOVED: { currency: 'string', amount: 'decimal' },
  CURRENCY_CONVERTED: { fromCurrency: 'string', toCurrency: 'string', fromAmount: 'decimal', toAmount: 'decimal', fxRate: 'decimal' },
  EXTENDED: {
    obligorExposureCode: 'string', maturityValue: 'decimal', yield: 'decimal', currency: 'string', holdingUid: 'string',
    maturityDate: 'date', previousMaturityDate: 'date', extensionOptionDate: 'date?', previousExtensionOptionDate: 'date?',
  },
  FINALIZED: { obligorExposureCode: 'string', maturityValue: 'decimal', yield: 'decimal', currency: 'string', holdingUid: 'string', maturityDate: 'date', finalized: 'true' },
  SUBSCRIBED: {}, ISSUED: {}, SPLIT: {}, REDEEMED: {},
};

function assertEventShape(e: Record<string, unknown>): void {
  assert.equal(typeof e.uid, 'string');
  assert.match(String(e.cursor), /^ev1\./);
  assert.equal(typeof e.entityCode, 'string');
  const shape = SHAPES[String(e.eventType)];
  assert.ok(shape, `unknown eventType ${String(e.eventType)}`);
  for (const [field, kind] of Object.entries(shape)) {
    const v = e[field];
    const where = `${String(e.eventType)}.${field} = ${JSON.stringify(v)}`;
    if (kind === 'decimal') assert.ok(typeof v === 'string' && DECIMAL.test(v), where);
    else if (kind === 'date') assert.ok(typeof v === 'string' && DATE.test(v), where);
    else if (kind === 'date?') assert.ok(v === null || (typeof v === 'string' && DATE.test(v)), where);
    else if (kind === 'true') assert.equal(v, true, where);
    else assert.equal(typeof v, 'string', where);
  }
  if (typeof e.currency === 'string') assert.match(e.currency, /^[A-Z]{3}$/);
}

describe('GET /event', () => {
  let ref: Ref;
  let alice: string;
  before(async () => {
    ref = await startRef({ events: 2500 });
    alice = await ref.token('cc-alice');
  });
  after(() => ref.close());
  const get = (qs: string, token = alice) => ref.api('GET', `/event${qs}`, { token });

  it('returns {events, pageInfo} with limit default 1000 and exact totalCount', async () => {
    const res = await get('');
    assert.equal(res.status, 200);
    assert.equal(res.body.pageInfo.limit, 1000);
    assert.equal(res.body.events.length, 1000);
    assert.equal(res.body.pageInfo.hasNextPage, true);
    const total = res.body.pageInfo.totalCount;
    // paging through yields exactly totalCount events in stream order, then hasNextPage false
    const seen: string[] = [];
    let cursor: string | null = null;
    for (;;) {
      const page: { body: { events: Array<{ uid: string }>; pageInfo: { hasNextPage: boolean; pageEndCursor: string | null } } } =
        await get(`?limit=700${cursor ? `&start_cursor=${cursor}` : ''}`);
      seen.push(...page.body.events.map((e) => e.uid));
      if (!page.body.pageInfo.hasNextPage) break;
      cursor = page.body.pageInfo.pageEndCursor;
    }
    assert.equal(seen.length, total);
    assert.equal(new Set(seen).size, total);
  });

  it('only carries events of the caller\'s allow-list (no ENT-GAMMA for alice; only ENT-ALPHA for bob)', async () => {
    const all = (await get('?limit=1000')).body.events;
    assert.ok(all.every((e: { entityCode: string }) => e.entityCode !== 'ENT-GAMMA'));
    const bob = await ref.token('cc-bob');
    const bobs = (await get('?limit=1000', bob)).body.events;
    assert.ok(bobs.length > 0 && bobs.every((e: { entityCode: string }) => e.entityCode === 'ENT-ALPHA'));
    assertDetail(await get('?entity_code=ENT-GAMMA'), 403, 'Not authorised for this entity');
  });

  it('startCursor / pageEndCursor / totalCount / hasNextPage agree; start_cursor is exclusive', async () => {
    const p1 = (await get('?limit=5')).body;
    assert.equal(p1.pageInfo.startCursor, p1.events[0].cursor);
    assert.equal(p1.pageInfo.pageEndCursor, p1.events[4].cursor);
    const p2 = (await get(`?limit=5&start_cursor=${p1.events[1].cursor}`)).body;
    assert.deepEqual(p2.events.map((e: { uid: string }) => e.uid).slice(0, 3), p1.events.slice(2).map((e: { uid: string }) => e.uid));
    assert.equal(p2.pageInfo.totalCount, p1.pageInfo.totalCount - 2);
  });

  it('end_cursor is an inclusive fence: later events are not returned even when they exist', async () => {
    const first = (await get('?limit=10')).body;
    const fence = first.events[9].cursor;
    await ref.call('POST', '/_sandbox/events', { json: { count: 30, entityCode: 'ENT-ALPHA' } });
    const fenced = (await get(`?limit=4&start_cursor=${first.events[1].cursor}&end_cursor=${fence}`)).body;
    assert.equal(fenced.pageInfo.endCursor, fence);
    assert.equal(fenced.pageInfo.totalCount, 8);
    assert.equal(fenced.pageInfo.hasNextPage, true);
    const rest = (await get(`?limit=10&start_cursor=${fenced.pageInfo.pageEndCursor}&end_cursor=${fence}`)).body;
    assert.equal(rest.events.length, 4);
    assert.equal(rest.events[3].cursor, fence);
    assert.equal(rest.pageInfo.hasNextPage, false);
    const after = (await get(`?start_cursor=${fence}&end_cursor=${fence}`)).body;
    assert.equal(after.events.length, 0);
    assert.equal(after.pageInfo.startCursor, null);
    assert.equal(after.pageInfo.totalCount, 0);
  });

  it('endCursor is the head of the caller\'s stream at request time', async () => {
    const head = (await get('?limit=1')).body.pageInfo.endCursor;
    const tail = (await get(`?start_cursor=${head}`)).body;
    assert.equal(tail.events.length, 0);
    assert.equal(tail.pageInfo.hasNextPage, false);
    await ref.call('POST', '/_sandbox/events', { json: { count: 3, entityCode: 'ENT-BETA' } });
    const newer = (await get(`?start_cursor=${head}`)).body;
    assert.equal(newer.events.length, 3);
    assert.equal(newer.pageInfo.endCursor, newer.events[2].cursor);
  });

  it('filters by entity_code and event_type, with exact counts', async () => {
    for (const type of EVENT_TYPES) {
      const res = (await get(`?entity_code=ENT-BETA&event_type=${type}&limit=1000`)).body;
      assert.ok(res.events.length > 0, `no ${type} for ENT-BETA`);
      assert.equal(res.pageInfo.totalCount, res.events.length);
      assert.ok(res.events.every((e: { eventType: string; entityCode: string }) => e.eventType === type && e.entityCode === 'ENT-BETA'));
    }
    assert422(await get('?event_type=BOGUS'), 'event_type');
  });

  it('every event of every kind has the spec fields and types', async () => {
    let cursor = '';
    let n = 0;
    for (;;) {
      const page = (await get(`?limit=1000${cursor ? `&start_cursor=${cursor}` : ''}`)).body;
      for (const e of page.events) {
        try {
          assertEventShape(e);
        } catch (err) {
          assert.fail(`${(err as Error).message}: ${JSON.stringify(e)}`);
        }
      }
      n += page.events.length;
      if (!page.pageInfo.hasNextPage) break;
      cursor = page.pageInfo.pageEndCursor;
    }
    assert.ok(n > 1500, `only ${n} events`);
  });

  it('the seeded history covers all ten kinds for ENT-ALPHA, ENT-BETA and ENT-GAMMA', async () => {
    const fresh = await startRef();
    try {
      const dave = fresh.ctx.data.history.filter((e) => e.entityCode === 'ENT-GAMMA').map((e) => e.eventType);
      for (const entity of ['ENT-ALPHA', 'ENT-BETA', 'ENT-GAMMA']) {
        const kinds = new Set(fresh.ctx.data.history.filter((e) => e.entityCode === entity).map((e) => e.eventType));
        assert.deepEqual([...kinds].sort(), [...EVENT_TYPES].sort(), entity);
      }
      assert.ok(dave.length > 0);
      const t = await fresh.token('cc-alice');
      const page = (await fresh.api('GET', '/event', { token: t })).body;
      for (const e of page.events) assertEventShape(e);
    } finally {
      await fresh.close();
    }
  });

  it('refuses invalid, forged and foreign cursors with 400 "Invalid cursor."', async () => {
    const good = (await get('?limit=1')).body.events[0].cursor as string;
    const other = await startRef({ seed: 99 });
    try {
      const t = await other.token('cc-alice');
      const foreign = (await other.api('GET', '/event?limit=1', { token: t })).body.events[0].cursor;
      assert.notEqual(foreign, good);
      for (const bad of ['nope', 'ev1.', 'ev1.!!!', `ev1.${Buffer.from('5.zzzz').toString('base64url')}`, `ev1.${Buffer.from('99999999.a').toString('base64url')}`, foreign, good.slice(0, -1)]) {
        assertDetail(await get(`?start_cursor=${encodeURIComponent(bad)}`), 400, 'Invalid cursor.');
      }
      assertDetail(await get(`?end_cursor=${encodeURIComponent('ev1.x')}`), 400, 'Invalid cursor.');
    } finally {
      await other.close();
    }
  });

  it('validates limit 1..1000 with 422', async () => {
    for (const l of ['0', '1001', 'abc', '1.5', '-1']) assert422(await get(`?limit=${l}`), 'limit');
    assert.equal((await get('?limit=1')).body.events.length, 1);
  });

  it('the stream is stable: re-reading from a cursor yields the same events', async () => {
    const a = (await get('?limit=50')).body;
    const again = (await get('?limit=50')).body;
    assert.deepEqual(again.events, a.events);
  });
});

/**
 * The paging oracle (src/harness/properties/oracle.ts): the expected slice, event labels, and one test per kind of
 * deviation a walk can show, each asserting the clause and the words of the diagnosis.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkHeadCovers, checkReread, expectedSlice, labelRun, snapshotLabeller, TraversalOracle, type OracleContext } from '../../src/harness/properties/oracle.js';
import type { EventRef, PageRecord, Violation } from '../../src/harness/properties/types.js';

const SNAP: EventRef[] = Array.from({ length: 10 }, (_, i) => ({ uid: `uid-${String(i).padStart(4, '0')}`, cursor: `ev1.c${i}` }));
const ev = (i: number): EventRef => SNAP[i] as EventRef;
const label = snapshotLabeller(SNAP);
const index = new Map(SNAP.map((e, i) => [e.uid, i]));

function page(idx: number[], hasNextPage: boolean, extra: Partial<PageRecord['pageInfo']> = {}, events?: EventRef[]): PageRecord {
  const evs = events ?? idx.map(ev);
  return { startCursor: undefined, events: evs, pageInfo: { hasNextPage, limit: 3, pageEndCursor: evs.at(-1)?.cursor ?? null, ...extra } };
}

function oracle(start: number, fence: number): TraversalOracle {
  const ctx: OracleContext = { label, snapshotIndex: (u) => index.get(u), startIndex: start, fenceIndex: fence };
  return new TraversalOracle(expectedSlice(SNAP, start, fence), ctx);
}

/** Feeds pages until the first violation; returns it (or finish's verdict). */
function run(o: TraversalOracle, pages: PageRecord[]): Violation | undefined {
  for (const p of pages) {
    const v = o.accept(p);
    if (v) return v;
  }
  return o.finish(20);
}

describe('expectedSlice and labels', () => {
  it('slices (start, fence] of the snapshot', () => {
    assert.deepEqual(expectedSlice(SNAP, 2, 5).map((e) => e.cursor), ['ev1.c3', 'ev1.c4', 'ev1.c5']);
    assert.deepEqual(expectedSlice(SNAP, -1, 1).map((e) => e.cursor), ['ev1.c0', 'ev1.c1']);
    assert.deepEqual(expectedSlice(SNAP, 4, 4), []);
  });

  it('refuses impossible ranges', () => {
    assert.throws(() => expectedSlice(SNAP, 5, 4), RangeError);
    assert.throws(() => expectedSlice(SNAP, -2, 4), RangeError);
    assert.throws(() => expectedSlice(SNAP, 0, 10), RangeError);
  });

  it('names events by snapshot position and compresses runs', () => {
    assert.equal(label(ev(7).uid), '#7');
    assert.equal(label('abcdef123456'), 'new:abcdef12');
    assert.equal(labelRun([3, 4, 5, 6, 9].map((i) => ev(i).uid), label), '#3..#6 #9');
    assert.equal(labelRun([ev(3).uid, ev(4).uid], label), '#3 #4');
    assert.equal(labelRun([], label), '(none)');
  });

  it('cuts long lists in the middle, keeping compressed runs whole', () => {
    const strays = Array.from({ length: 40 }, (_, i) => `stray-${String(i).padStart(3, '0')}`);
    assert.equal(labelRun(strays, label), 'new:stray-00 new:stray-00 new:stray-00 new:stray-00 … new:stray-03 new:stray-03 new:stray-03 (40 events)');
    assert.equal(labelRun(SNAP.map((e) => e.uid), label), '#0..#9');
  });
});

describe('TraversalOracle', () => {
  it('accepts a correct walk (short pages included) and its totalCounts', () => {
    const o = oracle(1, 6);
    const v = run(o, [page([2, 3, 4], true, { totalCount: 5 }), page([5], true, { totalCount: 2 }), page([6], false, { totalCount: 1 })]);
    assert.equal(v, undefined);
    assert.equal(o.done, true);
    assert.equal(o.delivered, 5);
  });

  it('accepts an empty range answered by an empty last page', () => {
    assert.equal(run(oracle(4, 4), [page([], false, { totalCount: 0 })]), undefined);
  });

  it('a repeated event is a duplicate (overlap)', () => {
    const v = run(oracle(1, 6), [page([2, 3, 4], true), page([4, 5, 6], false)]);
    assert.equal(v?.clause, 'EP-EVENT-PAGING');
    assert.equal(v?.page, 2);
    assert.match(v?.message ?? '', /event 1 \(#4\) was already returned on page 1: a duplicate/);
  });

  it('a skipped event is a gap', () => {
    const v = run(oracle(1, 6), [page([2, 3, 4], true), page([6], false)]);
    assert.equal(v?.clause, 'EP-EVENT-PAGING');
    assert.match(v?.message ?? '', /#6\) follows #4, but #5 come first: a gap, 1 event\(s\) lost/);
  });

  it('a reversed page is out of order', () => {
    const v = run(oracle(1, 6), [page([4, 3, 2], true)]);
    assert.equal(v?.clause, 'EVS-ORDER');
    assert.match(v?.message ?? '', /comes before #2: events are out of stream order/);
  });

  it('the start event returned again means start_cursor is inclusive', () => {
    const v = run(oracle(1, 6), [page([1, 2, 3], true)]);
    assert.equal(v?.clause, 'EP-EVENT-PAGING');
    assert.match(v?.message ?? '', /#1\) is at or before the start_cursor \(#1\)/);
  });

  it('a page larger than pageInfo.limit breaks EP-EVENT-PAGE-LIMIT', () => {
    const v = run(oracle(1, 6), [page([2, 3, 4, 5], true)]);
    assert.equal(v?.clause, 'EP-EVENT-PAGE-LIMIT');
    assert.match(v?.message ?? '', /holds 4 events, more than pageInfo.limit 3/);
  });

  it('a wrong totalCount is reported at the end, after the walk proved otherwise right', () => {
    const o = oracle(1, 6);
    assert.equal(o.accept(page([2, 3, 4], true, { totalCount: 3 })), undefined);
    assert.equal(o.accept(page([5, 6], false, { totalCount: 2 })), undefined);
    const v = o.finish(20);
    assert.equal(v?.clause, 'EP-EVENT-TOTAL');
    assert.equal(v?.page, 1);
    assert.match(v?.message ?? '', /totalCount is 3, but the range \(start_cursor, fence\] of this request holds 5 events \(#2\.\.#6\)/);
  });

  it('null totalCount is allowed', () => {
    assert.equal(run(oracle(1, 3), [page([2, 3], false, { totalCount: null })]), undefined);
  });

  it('hasNextPage false too early: the probe finds the missing events', () => {
    const o = oracle(1, 6);
    assert.equal(o.accept(page([2, 3, 4], false)), undefined);
    assert.equal(o.wantsProbe, true);
    assert.equal(o.probeKind, 'fenced');
    const v = o.accept(page([5, 6], false));
    assert.equal(v?.clause, 'EP-EVENT-PAGING');
    assert.equal(v?.page, 1);
    assert.match(v?.message ?? '', /hasNextPage is false after 3 of the 5 events of the range, but reading on from pageEndCursor returns #5 #6/);
  });

  it('an exclusive fence: the walk stops just before the fence event and nothing follows', () => {
    const o = oracle(1, 4);
    assert.equal(o.accept(page([2, 3], false)), undefined);
    const v = o.accept(page([], false));
    assert.equal(v?.clause, 'EP-EVENT-FENCE');
    assert.match(v?.message ?? '', /ends just before the fence event #4 .*end_cursor must include the fence event/);
  });

  it('an exclusive fence on a one-event range: the unfenced probe shows the fence event after start', () => {
    const o = oracle(3, 4);
    assert.equal(o.accept(page([], false)), undefined);
    assert.equal(o.probeKind, 'unfenced');
    const v = o.accept(page([4, 5, 6], true));
    assert.equal(v?.clause, 'EP-EVENT-FENCE');
    assert.match(v?.message ?? '', /the event after start_cursor is the fence event #4 itself/);
  });

  it('a skipping start_cursor on a one-event range: the unfenced probe shows the gap', () => {
    const o = oracle(3, 4);
    o.accept(page([], false));
    const v = o.accept(page([5, 6], true));
    assert.equal(v?.clause, 'EP-EVENT-PAGING');
    assert.match(v?.message ?? '', /start_cursor is followed by #5 #6, not by #4: start_cursor skips events/);
  });

  it('hasNextPage true at the fence: an empty next page blames hasNextPage', () => {
    const o = oracle(1, 3);
    assert.equal(o.accept(page([2, 3], true)), undefined);
    const v = o.accept(page([], false));
    assert.equal(v?.clause, 'EP-EVENT-PAGING');
    assert.equal(v?.page, 1);
    assert.match(v?.message ?? '', /hasNextPage is true, but this page ends at the fence/);
  });

  it('hasNextPage true at the fence: events on the next page lie beyond the fence', () => {
    const o = oracle(1, 3);
    o.accept(page([2, 3], true));
    const v = o.accept(page([4, 5], false));
    assert.equal(v?.clause, 'EP-EVENT-FENCE');
    assert.match(v?.message ?? '', /\(#4\) lies beyond the fence #3: nothing after end_cursor may appear/);
  });

  it('events newer than the snapshot on a page lie beyond the fence', () => {
    const v = run(oracle(1, 3), [page([], false, {}, [ev(2), ev(3), { uid: 'fresh-event-uid', cursor: 'ev1.new' }])]);
    assert.equal(v?.clause, 'EP-EVENT-FENCE');
    assert.match(v?.message ?? '', /new:fresh-ev\) lies beyond the fence #3 \(an event newer than the snapshot\)/);
  });

  it('an event beyond the range while the range is still short is a gap, not a fence breach: the fence event itself was skipped', () => {
    // A pageEndCursor one event too far (page-size-off-by-one) that skips the fence event of a walk to the head:
    // the next page starts after it and shows an event newer than the snapshot.
    const newer = run(oracle(1, 4), [page([2, 3], true), page([], false, {}, [{ uid: 'fresh-event-uid', cursor: 'ev1.new' }])]);
    assert.equal(newer?.clause, 'EP-EVENT-PAGING');
    assert.match(newer?.message ?? '', /event 1 \(new:fresh-ev\) follows #3, but #4 of the range come first: a gap/);
    // The same with an event of the snapshot beyond the fence.
    const beyond = run(oracle(1, 4), [page([2, 3], true), page([5], false)]);
    assert.equal(beyond?.clause, 'EP-EVENT-PAGING');
    // Before the pending event on the same page: out of order.
    const order = run(oracle(1, 4), [page([2, 3], true), page([], false, {}, [{ uid: 'fresh-event-uid', cursor: 'ev1.new' }, ev(4)])]);
    assert.equal(order?.clause, 'EVS-ORDER');
  });

  it('hasNextPage true without pageEndCursor cannot continue', () => {
    const v = run(oracle(1, 6), [page([2, 3], true, { pageEndCursor: null })]);
    assert.equal(v?.clause, 'EP-EVENT-PAGING');
    assert.match(v?.message ?? '', /pageEndCursor is null: the walk cannot continue/);
  });

  it('a walk cut off by the page cap reports an endless loop', () => {
    const o = oracle(1, 6);
    assert.equal(o.accept(page([2], true)), undefined);
    const v = o.finish(1);
    assert.match(v?.message ?? '', /no end after 1 pages: hasNextPage stayed true \(delivered 1 of the 5 events/);
  });
});

describe('checkReread', () => {
  it('accepts the same events, and a shorter page when both reads continue', () => {
    assert.equal(checkReread(page([2, 3], true), page([2, 3], true), 1, label), undefined);
    assert.equal(checkReread(page([2, 3], true), page([2], true), 1, label), undefined);
  });

  it('different events or a different end are EVS-ORDER', () => {
    const v = checkReread(page([2, 3], true), page([3, 4], true), 2, label);
    assert.equal(v?.clause, 'EVS-ORDER');
    assert.match(v?.message ?? '', /returned #3 #4; the first read returned #2 #3/);
    assert.equal(checkReread(page([2, 3], false), page([2], false), 1, label)?.clause, 'EVS-ORDER');
    assert.match(checkReread(page([2, 3], false), page([2, 3], true), 1, label)?.message ?? '', /hasNextPage true \(first read: false\)/);
  });
});

describe('checkHeadCovers', () => {
  const known = [2, 3, 4, 5].map(ev);
  it('accepts a fenced read holding every known event (and newer ones)', () => {
    assert.equal(checkHeadCovers([...known, { uid: 'newer', cursor: 'x' }], known, 1, label), undefined);
  });

  it('a fenced read that stops inside the known events had a fence short of the head', () => {
    const v = checkHeadCovers([ev(2)], known, 1, label);
    assert.equal(v?.clause, 'EP-EVENT-FENCE');
    assert.match(v?.message ?? '', /gives #2, but #3\.\.#5 already existed .*endCursor must be the head of the stream/);
  });

  it('leaves other differences to the oracle', () => {
    assert.equal(checkHeadCovers([ev(3), ev(4)], known, 1, label), undefined);
  });
});

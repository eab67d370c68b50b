/**
 * Generators of the paging properties (src/harness/properties/generators.ts): every generated case is inside its
 * bounds (checked as a property itself), large limits are occasional, and the case reads well in words.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { describeCase, LARGE_LIMITS, limitArbitrary, pagingCaseArbitrary, rangeArbitrary, type CaseBounds } from '../../src/harness/properties/generators.js';

const BOUNDS: CaseBounds = { streamLength: 60, maxRange: 15, canAppend: true, entities: ['ENT-ALPHA', 'ENT-GAMMA'], fence: 'event' };

describe('pagingCaseArbitrary', () => {
  it('event fences: -1 <= start <= fence < n, at most maxRange apart; limits and appends in bounds', () => {
    fc.assert(fc.property(pagingCaseArbitrary(BOUNDS), (c) => {
      assert.equal(c.fence.kind, 'event');
      if (c.fence.kind !== 'event') return;
      assert.ok(c.start >= -1 && c.start <= c.fence.index && c.fence.index < BOUNDS.streamLength, JSON.stringify(c));
      assert.ok(c.fence.index - c.start <= BOUNDS.maxRange, JSON.stringify(c));
      assert.ok((c.limit >= 1 && c.limit <= 50) || (LARGE_LIMITS as readonly number[]).includes(c.limit), `limit ${c.limit}`);
      assert.ok(c.appends.length <= 3);
      for (const a of c.appends) {
        assert.ok(a.count >= 1 && a.count <= 4 && a.beforePage >= 0 && a.beforePage <= 6);
        assert.ok(a.entityCode === undefined || BOUNDS.entities.includes(a.entityCode));
      }
    }), { numRuns: 500, seed: 7 });
  });

  it('head fences start within the last maxRange snapshot events', () => {
    fc.assert(fc.property(pagingCaseArbitrary({ ...BOUNDS, fence: 'head' }), (c) => {
      assert.equal(c.fence.kind, 'head');
      if (c.fence.kind !== 'head') return;
      assert.ok(c.start >= BOUNDS.streamLength - 1 - BOUNDS.maxRange && c.start <= BOUNDS.streamLength - 1, `start ${c.start}`);
      assert.ok(c.fence.headLimit >= 1 && c.fence.headLimit <= 5);
    }), { numRuns: 300, seed: 8 });
  });

  it('no appends without the control API', () => {
    fc.assert(fc.property(pagingCaseArbitrary({ ...BOUNDS, canAppend: false }), (c) => c.appends.length === 0), { numRuns: 200, seed: 9 });
  });

  it('tiny streams: a one-event snapshot still yields valid ranges; an empty one is refused', () => {
    fc.assert(fc.property(rangeArbitrary({ ...BOUNDS, streamLength: 1 }), (r) => r.fence.kind === 'event' && r.fence.index === 0 && r.start >= -1 && r.start <= 0), { numRuns: 50, seed: 3 });
    assert.throws(() => rangeArbitrary({ ...BOUNDS, streamLength: 0 }), RangeError);
  });
});

describe('limitArbitrary', () => {
  it('mostly small limits, large ones occasionally', () => {
    const xs = fc.sample(limitArbitrary(), { numRuns: 2000, seed: 11 });
    const small = xs.filter((x) => x <= 10).length;
    const large = xs.filter((x) => x >= 100).length;
    assert.ok(small > 1000, `small ${small}`);
    assert.ok(large > 50 && large < 400, `large ${large}`);
  });
});

describe('describeCase', () => {
  it('names positions, cursors, the fence kind and the appends', () => {
    const text = describeCase(
      { start: 2, fence: { kind: 'event', index: 9 }, limit: 3, appends: [{ beforePage: 1, count: 2, entityCode: 'ENT-ALPHA' }], reread: 4 },
      (i) => `ev1.c${i}`,
    );
    assert.equal(text, 'start_cursor #2 (ev1.c2), end_cursor #9 (ev1.c9), limit 3, appends: 2 event(s) of ENT-ALPHA before page 2, re-read page #4 (mod pages)');
    const head = describeCase({ start: -1, fence: { kind: 'head', headLimit: 2 }, limit: 1, appends: [], reread: 0 });
    assert.match(head, /^start_cursor none \(from the beginning\), end_cursor pageInfo\.endCursor of GET \/event\?limit=2 .*appends: none/);
  });
});

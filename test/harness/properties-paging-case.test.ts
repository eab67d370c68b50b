/**
 * runPagingCase (src/harness/properties/paging-case.ts) over an in-memory stream: a correct stream passes with
 * appends between pages, a refused page size skips the case (fast-check precondition), and the walk is
 * bounded when hasNextPage never turns false.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { LimitRefused, type EventQuery, type EventsApi } from '../../src/harness/properties/events-api.js';
import { runPagingCase, type Snapshot } from '../../src/harness/properties/paging-case.js';
import { kindOf } from '../../src/harness/report/records/error-codes.js';
import { PropertyViolation, propertyFailure, type EventRef, type PageRecord, type PagingCase } from '../../src/harness/properties/types.js';

/** A correct in-memory GET /event (start exclusive, fence inclusive), with a maximum page size and optional breakage. */
class MemoryStream {
  events: EventRef[] = Array.from({ length: 30 }, (_, i) => ({ uid: `u${i}`, cursor: `c${i}` }));
  requests: EventQuery[] = [];
  constructor(private readonly opts: { maxLimit?: number; neverEnds?: boolean } = {}) {}

  api(): EventsApi {
    const api = {
      canAppend: true,
      page: async (q: EventQuery, _label: string, o: { refusableLimit?: boolean } = {}): Promise<PageRecord> => this.page(q, o),
      append: async (count: number) => {
        for (let k = 0; k < count; k++) this.events.push({ uid: `u${this.events.length}`, cursor: `c${this.events.length}` });
      },
    };
    return api as unknown as EventsApi;
  }

  private page(q: EventQuery, o: { refusableLimit?: boolean }): PageRecord {
    this.requests.push(q);
    const limit = q.limit ?? 1000;
    if (o.refusableLimit && this.opts.maxLimit !== undefined && limit > this.opts.maxLimit) throw new LimitRefused(limit, 422);
    const from = q.startCursor === undefined ? 0 : this.events.findIndex((e) => e.cursor === q.startCursor) + 1;
    const to = q.endCursor === undefined ? this.events.length - 1 : this.events.findIndex((e) => e.cursor === q.endCursor);
    const range = this.events.slice(from, to + 1);
    const events = range.slice(0, limit);
    return {
      startCursor: q.startCursor,
      events,
      pageInfo: { hasNextPage: this.opts.neverEnds || range.length > events.length, limit, pageEndCursor: events.at(-1)?.cursor ?? null, endCursor: this.events[to]?.cursor ?? null, totalCount: range.length },
    };
  }
}

const snapshotOf = (s: MemoryStream): Snapshot => ({ events: [...s.events], complete: true, hasEndCursor: true });

describe('runPagingCase', () => {
  it('a correct stream passes, with appends between pages and a re-read', async () => {
    const s = new MemoryStream();
    const c: PagingCase = { start: 3, fence: { kind: 'event', index: 12 }, limit: 2, appends: [{ beforePage: 1, count: 3, entityCode: undefined }], reread: 2 };
    await runPagingCase(s.api(), snapshotOf(s), c, 10_000);
    assert.equal(s.events.length, 33, 'the append happened');
    // reference read + 5 walk pages (9 events by 2) + re-read
    assert.equal(s.requests.length, 7);
    assert.deepEqual(s.requests.at(-1), { startCursor: 'c7', endCursor: 'c12', limit: 2 });
  });

  it('a head fence passes and ignores events appended after it', async () => {
    const s = new MemoryStream();
    const c: PagingCase = { start: 20, fence: { kind: 'head', headLimit: 1 }, limit: 3, appends: [{ beforePage: 0, count: 2, entityCode: undefined }], reread: 0 };
    await runPagingCase(s.api(), snapshotOf(s), c, 10_000);
  });

  it('a refused page size skips the case instead of failing it', async () => {
    const s = new MemoryStream({ maxLimit: 50 });
    const c: PagingCase = { start: -1, fence: { kind: 'event', index: 5 }, limit: 250, appends: [], reread: 0 };
    await assert.rejects(runPagingCase(s.api(), snapshotOf(s), c, 10_000), (e: unknown) => fc.PreconditionFailure.isFailure(e));
  });

  it('a refused small page size skips the case too (the maximum page size is not shown by the spec)', async () => {
    const s = new MemoryStream({ maxLimit: 5 });
    const c: PagingCase = { start: -1, fence: { kind: 'event', index: 5 }, limit: 7, appends: [], reread: 0 };
    await assert.rejects(runPagingCase(s.api(), snapshotOf(s), c, 10_000), (e: unknown) => fc.PreconditionFailure.isFailure(e));
  });

  it('an endless hasNextPage is cut off by the page bound with a readable violation', async () => {
    const s = new MemoryStream({ neverEnds: true });
    const c: PagingCase = { start: -1, fence: { kind: 'event', index: 4 }, limit: 2, appends: [], reread: 0 };
    await assert.rejects(runPagingCase(s.api(), snapshotOf(s), c, 10_000), (e: unknown) => {
      assert.ok(e instanceof PropertyViolation);
      assert.equal(e.violation.clause, 'EP-EVENT-PAGING');
      assert.match(e.message, /reference read page 1: hasNextPage is true, but this page ends at the fence/);
      return true;
    });
    assert.ok(s.requests.length <= 3, `bounded: ${s.requests.length} requests`);
  });

  it("the profile's own page bound (timeouts.max_pages) reached by a correct walk is a bound, errored, not a violation", async () => {
    const s = new MemoryStream();
    // 20 events at 2 per page need 10 pages; the profile allows 4.
    const c: PagingCase = { start: -1, fence: { kind: 'event', index: 19 }, limit: 2, appends: [], reread: 0 };
    let caught: unknown;
    await runPagingCase(s.api(), snapshotOf(s), c, 4).catch((e: unknown) => (caught = e));
    assert.ok(caught instanceof PropertyViolation, String(caught));
    assert.equal(caught.violation.clause, 'BOUND');
    assert.match(caught.message, /profile's page bound, timeouts\.max_pages 4, before the end/);
    // One reference read (one page of the default size), then the walk's 4 pages.
    assert.equal(s.requests.length, 5, 'bounded by the profile');
    // What the runner turns it into: FTF_E_BOUND_EXCEEDED, a target-kind code (errored), blaming no clause.
    const failure = propertyFailure('counterexample text', caught);
    assert.equal(failure.code, 'FTF_E_BOUND_EXCEEDED');
    assert.equal(kindOf(failure.code), 'target');
    assert.equal((failure as { failedClauses?: string[] }).failedClauses, undefined);
    // The same stream with enough pages passes: the bound, not the target, stopped it.
    await runPagingCase(new MemoryStream().api(), snapshotOf(s), c, 12);
  });

  it('a schema mismatch blames the clauses the schema check named (x-clause), else none (issue 24)', () => {
    const named = propertyFailure('text', new PropertyViolation({ clause: 'SCHEMA', schemaClauses: ['RES-EVENTS-RESPONSE'], message: 'off schema' }));
    assert.deepEqual((named as { failedClauses?: string[] }).failedClauses, ['RES-EVENTS-RESPONSE']);
    const unnamed = propertyFailure('text', new PropertyViolation({ clause: 'SCHEMA', message: 'off schema' }));
    assert.deepEqual((unnamed as { failedClauses?: string[] }).failedClauses, []);
  });

  it('a violation in doubt names each clause it leaves in doubt, and says so (the record marks its check in doubt)', () => {
    const v = new PropertyViolation({ clause: 'AUTH-ENTITY-403', inDoubtWith: ['EP-SUBSCRIPTION-LIST'], message: '404 for an entity that exists' });
    assert.match(v.message, /^\[AUTH-ENTITY-403 or EP-SUBSCRIPTION-LIST, in doubt\]/);
    const failure = propertyFailure('text', v) as { failedClauses?: string[]; inDoubt?: boolean };
    assert.deepEqual([failure.failedClauses, failure.inDoubt], [['AUTH-ENTITY-403', 'EP-SUBSCRIPTION-LIST'], true]);
    const sure = propertyFailure('text', new PropertyViolation({ clause: 'AUTH-ENTITY-403', message: '404' })) as { inDoubt?: boolean };
    assert.equal(sure.inDoubt, undefined);
  });

  it('a walk that never ends within its own bound (expected events + 2) stays a violation when the profile allows more', async () => {
    const s = new MemoryStream({ neverEnds: true });
    const c: PagingCase = { start: -1, fence: { kind: 'event', index: 19 }, limit: 2, appends: [], reread: 0 };
    await assert.rejects(runPagingCase(s.api(), snapshotOf(s), c, 10_000), (e: unknown) => e instanceof PropertyViolation && e.violation.clause !== 'BOUND');
  });
});

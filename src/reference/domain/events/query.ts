/**
 * GET /event semantics over the store: start_cursor exclusive, end_cursor an inclusive fence, endCursor the
 * head of the caller's (filtered) stream at request time or the fence, exact totalCount, hasNextPage true
 * exactly when more matching events exist up to the fence.
 */
import { ApiError, type Faults } from '../../context.js';
import { EVENT_TYPES, type EventType } from '../../data/types.js';
import type { CursorCodec } from './cursor.js';
import type { EventStore, Selection } from './store.js';

export interface EventQuery {
  /** Entity codes the caller may see, already narrowed by entity_code. */
  entityCodes: readonly string[];
  eventType: EventType | null;
  startCursor: string | null;
  endCursor: string | null;
  limit: number;
  /** The page size served when the request names none (only the fault page-size-off-by-one looks at it). */
  defaultLimit: number;
}

export interface PageInfo {
  hasNextPage: boolean;
  limit: number;
  endCursor: string | null;
  pageEndCursor: string | null;
  startCursor: string | null;
  totalCount: number;
}

export interface EventsPage {
  events: Array<Record<string, unknown>>;
  pageInfo: PageInfo;
}

export function selectionOf(store: EventStore, entityCodes: readonly string[], eventType: EventType | null): Selection {
  const entities: number[] = [];
  for (const c of entityCodes) {
    const i = store.entityIndex(c);
    if (i !== undefined) entities.push(i);
  }
  return { entities, type: eventType === null ? null : EVENT_TYPES.indexOf(eventType) };
}

/** Decodes a cursor or throws 400 "Invalid cursor." */
export function seqOfCursor(codec: CursorCodec, store: EventStore, cursor: string): number {
  const seq = codec.decode(cursor, store.head);
  if (seq === null) throw new ApiError(400, 'Invalid cursor.');
  return seq;
}

/** Decimal-string fields of events (Resources / Conventions: money and rates are decimal strings). */
const DECIMAL_FIELDS = new Set([
  'amount', 'cost', 'newCost', 'maturityValue', 'previousMaturityValue', 'yield', 'fromAmount', 'toAmount', 'fxRate',
]);

/** One event as the API shows it: the common fields, then the kind's fields (schema faults live here). */
export function materialise(store: EventStore, codec: CursorCodec, seq: number, faults: Faults): Record<string, unknown> {
  const event: Record<string, unknown> = {
    uid: store.uidAt(seq),
    cursor: codec.encode(seq),
    entityCode: store.entityCodeAt(seq),
    eventType: store.typeAt(seq),
    ...store.fieldsAt(seq),
  };
  if (faults.on('unknown-event-type') && event.eventType === 'SUBSCRIBED') event.eventType = 'SUBSCRIPTION_CREATED';
  if (faults.on('finalized-false') && event.eventType === 'FINALIZED') event.finalized = false;
  if (faults.on('event-money-as-number')) {
    for (const k of Object.keys(event)) if (DECIMAL_FIELDS.has(k) && typeof event[k] === 'string') event[k] = Number(event[k]);
  }
  return event;
}

/** The sequence after which the page starts: start_cursor is exclusive. */
function startAfter(store: EventStore, codec: CursorCodec, sel: Selection, q: EventQuery, faults: Faults): number {
  if (q.startCursor === null) return 0;
  const seq = seqOfCursor(codec, store, q.startCursor);
  if (faults.on('start-cursor-inclusive')) return Math.max(0, seq - 1);
  // Skips the first event after the cursor: one event lost between pages.
  if (faults.on('paging-gap')) return store.range(sel, seq, store.head, 1)[0] ?? seq;
  return seq;
}

/** The inclusive fence (end_cursor) and the endCursor to report: the fence, or the head of the filtered stream. */
function fenceOf(store: EventStore, codec: CursorCodec, sel: Selection, q: EventQuery, faults: Faults): { fence: number; endCursor: string | null } {
  // fence-first-page-only: the fence is read only on a request that starts at the beginning.
  const dropped = faults.on('fence-ignored') || (faults.on('fence-first-page-only') && q.startCursor !== null);
  if (q.endCursor !== null && !dropped) {
    const seq = seqOfCursor(codec, store, q.endCursor);
    if (faults.on('fence-exclusive')) return { fence: seq - 1, endCursor: q.endCursor };
    // fence-by-timestamp: "up to the fence" as "recorded no later than the fence event" (to the second), so
    // events appended after the fence within the same second pass it.
    return { fence: faults.on('fence-by-timestamp') ? store.sameSecondEnd(seq) : seq, endCursor: q.endCursor };
  }
  const last = store.last(sel, store.head);
  if (last === 0) return { fence: store.head, endCursor: null };
  // A stable fence is the cursor of the head event; the fault hands out a token that means "whatever the head is then".
  return { fence: store.head, endCursor: faults.on('end-cursor-moving') ? codec.movingHead() : codec.encode(last) };
}

/** More matching events exist beyond this page (up to the fence). */
function hasNextPage(total: number, onPage: number, limit: number, faults: Faults): boolean {
  if (faults.on('has-next-page-false-early')) return total - onPage > limit;
  if (faults.on('has-next-page-true-at-end')) return onPage >= limit || total > onPage;
  return total > onPage;
}

/**
 * The sequence pageEndCursor names: the page's last event. The fault page-size-off-by-one steps one event
 * further whenever the page size is not the default (the next page then starts one event late).
 */
function pageEndOf(store: EventStore, sel: Selection, last: number, fence: number, q: EventQuery, faults: Faults): number {
  if (!faults.on('page-size-off-by-one') || q.limit === q.defaultLimit) return last;
  return store.range(sel, last, fence, 1)[0] ?? last;
}

export function queryEvents(store: EventStore, codec: CursorCodec, q: EventQuery, faults: Faults): EventsPage {
  const sel = selectionOf(store, q.entityCodes, q.eventType);
  const after = startAfter(store, codec, sel, q, faults);
  const { fence, endCursor } = fenceOf(store, codec, sel, q, faults);
  const seqs = store.range(sel, after, fence, faults.on('page-limit-exceeded') ? q.limit + 1 : q.limit);
  const total = store.count(sel, after, fence);
  const first = seqs[0];
  // paging-overlap: the page's end cursor is its second-to-last event, so the next page repeats the last one.
  const lastOnPage = faults.on('paging-overlap') && seqs.length > 1 ? seqs[seqs.length - 2] : seqs[seqs.length - 1];
  const pageEndCursor = lastOnPage === undefined ? null : codec.encode(pageEndOf(store, sel, lastOnPage, fence, q, faults));
  const shown = faults.on('events-out-of-order') ? [...seqs].reverse() : seqs;
  return {
    events: shown.map((s) => materialise(store, codec, s, faults)),
    pageInfo: {
      hasNextPage: hasNextPage(total, seqs.length, q.limit, faults),
      limit: q.limit,
      endCursor: faults.on('end-cursor-is-page-end') ? pageEndCursor : endCursor,
      pageEndCursor,
      startCursor: first === undefined ? null : codec.encode(first),
      totalCount: faults.on('total-count-page-only') ? seqs.length : total,
    },
  };
}

/**
 * GET /event semantics over the store: start_cursor exclusive, end_cursor an inclusive fence, endCursor the
 * head of the caller's (filtered) stream at request time or the fence, exact totalCount, hasNextPage true
 * exactly when more matching events exist up to the fence.
 */
import { ApiError } from '../../context.js';
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

export function materialise(store: EventStore, codec: CursorCodec, seq: number): Record<string, unknown> {
  return {
    uid: store.uidAt(seq),
    cursor: codec.encode(seq),
    entityCode: store.entityCodeAt(seq),
    eventType: store.typeAt(seq),
    ...store.fieldsAt(seq),
  };
}

export function queryEvents(store: EventStore, codec: CursorCodec, q: EventQuery): EventsPage {
  const sel = selectionOf(store, q.entityCodes, q.eventType);
  const after = q.startCursor === null ? 0 : seqOfCursor(codec, store, q.startCursor);
  let fence: number;
  let endCursor: string | null;
  if (q.endCursor !== null) {
    fence = seqOfCursor(codec, store, q.endCursor);
    endCursor = q.endCursor;
  } else {
    fence = store.head;
    const last = store.last(sel, fence);
    endCursor = last === 0 ? null : codec.encode(last);
  }
  const seqs = store.range(sel, after, fence, q.limit);
  const total = store.count(sel, after, fence);
  const first = seqs[0];
  const lastOnPage = seqs[seqs.length - 1];
  return {
    events: seqs.map((s) => materialise(store, codec, s)),
    pageInfo: {
      hasNextPage: total > seqs.length,
      limit: q.limit,
      endCursor,
      pageEndCursor: lastOnPage === undefined ? null : codec.encode(lastOnPage),
      startCursor: first === undefined ? null : codec.encode(first),
      totalCount: total,
    },
  };
}

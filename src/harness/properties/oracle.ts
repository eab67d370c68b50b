/**
 * The paging oracle: pure, model-free checks of a traversal against a snapshot of the stream. The expected
 * result of a fenced walk is a slice of the snapshot; each page is checked as it arrives so a walk stops at
 * the first violation, and every violation names its clause and the events involved by snapshot position
 * (`#12`), which is what makes a shrunk counterexample readable.
 */
import type { EventRef, PageRecord, PagingClause, Violation } from './types.js';

/** The events of (start, fence] of the snapshot; start -1 = from the beginning; start === fence = empty. */
export function expectedSlice(snapshot: readonly EventRef[], start: number, fence: number): EventRef[] {
  if (!Number.isInteger(start) || !Number.isInteger(fence) || start < -1 || fence < start || fence >= snapshot.length) {
    throw new RangeError(`expectedSlice: need -1 <= start (${start}) <= fence (${fence}) < ${snapshot.length}`);
  }
  return snapshot.slice(start + 1, fence + 1);
}

/** Names an event by its snapshot position (`#3`), or as a newer event (`new:1a2b3c4d`). */
export function snapshotLabeller(snapshot: readonly EventRef[]): (uid: string) => string {
  const index = new Map(snapshot.map((e, i) => [e.uid, i]));
  return (uid) => {
    const i = index.get(uid);
    return i === undefined ? `new:${uid.slice(0, 8)}` : `#${i}`;
  };
}

/** Event lists longer than this (after compression) show their first and last events only. */
export const MAX_LABEL_CHARS = 120;

/** `#3 #4 #5`, compressed to `#3..#9` for runs of consecutive snapshot positions; long lists are cut in the middle. */
export function labelRun(uids: readonly string[], label: (uid: string) => string): string {
  const all = compress(uids, label);
  if (all.length <= MAX_LABEL_CHARS || uids.length <= 7) return all;
  return `${compress(uids.slice(0, 4), label)} … ${compress(uids.slice(-3), label)} (${uids.length} events)`;
}

function compress(uids: readonly string[], label: (uid: string) => string): string {
  if (uids.length === 0) return '(none)';
  const labels = uids.map(label);
  const out: string[] = [];
  let i = 0;
  while (i < labels.length) {
    let j = i;
    while (j + 1 < labels.length && consecutive(labels[j] as string, labels[j + 1] as string)) j++;
    out.push(j - i >= 2 ? `${labels[i]}..${labels[j]}` : labels.slice(i, j + 1).join(' '));
    i = j + 1;
  }
  return out.join(' ');
}

function consecutive(a: string, b: string): boolean {
  return /^#\d+$/.test(a) && /^#\d+$/.test(b) && Number(b.slice(1)) === Number(a.slice(1)) + 1;
}

export interface OracleContext {
  label: (uid: string) => string;
  /** Snapshot positions of the start cursor and the fence, when they are snapshot events (classifies strays). */
  startIndex?: number;
  fenceIndex?: number;
  snapshotIndex?: (uid: string) => number | undefined;
}

/**
 * Checks the pages of one walk in order. `accept` returns the first violation of a page (or undefined);
 * after a page with hasNextPage false the walk is `done`; `finish` reports a walk that never ended, or the
 * first totalCount mismatch of a walk that was otherwise right.
 * Two symptoms are ambiguous on their own, so the oracle asks the walk for ONE more page before judging:
 * - hasNextPage false before the fence (`probing`): if reading on from pageEndCursor yields the missing
 *   events, hasNextPage was wrong; if it yields nothing and only the fence event is missing, the fence is
 *   exclusive; anything else is classified like any page.
 * - hasNextPage true at the fence (`overrun`): events on the next page lie beyond the fence; an empty next
 *   page means hasNextPage was wrong.
 */
export class TraversalOracle {
  private consumed = 0;
  private pageNo = 0;
  private readonly seenOnPage = new Map<string, number>();
  private readonly position: Map<string, number>;
  private pendingTotal: Violation | undefined;
  private probing: number | undefined;
  private overrun: number | undefined;
  done = false;

  constructor(
    readonly expected: readonly EventRef[],
    private readonly ctx: OracleContext,
  ) {
    this.position = new Map(expected.map((e, i) => [e.uid, i]));
  }

  /** How many expected events the accepted pages delivered (the position a re-read of the next page starts at). */
  get delivered(): number {
    return this.consumed;
  }

  /** The walk must read one more page although hasNextPage said otherwise. */
  get wantsProbe(): boolean {
    return this.probing !== undefined;
  }

  /**
   * How to read on: `fenced` = the walk's next request from the last pageEndCursor; `unfenced` = from the
   * start_cursor without end_cursor (nothing was delivered: tells an exclusive fence from a skipping start).
   */
  get probeKind(): 'fenced' | 'unfenced' {
    return this.consumed === 0 ? 'unfenced' : 'fenced';
  }

  accept(page: PageRecord): Violation | undefined {
    this.pageNo++;
    if (this.probing !== undefined) return this.judgeProbe(page, this.probing);
    if (this.overrun !== undefined) return this.judgeOverrun(page, this.overrun);
    const v = this.check(page, this.pageNo);
    if (v) return v;
    page.events.forEach((e) => this.seenOnPage.set(e.uid, this.pageNo));
    this.consumed += page.events.length;
    const remaining = this.expected.length - this.consumed;
    if (!page.pageInfo.hasNextPage && remaining > 0) this.probing = this.pageNo;
    else if (page.pageInfo.hasNextPage && remaining === 0) this.overrun = this.pageNo;
    else this.done = !page.pageInfo.hasNextPage;
    return undefined;
  }

  /** After the last page: a walk cut off by the page cap while hasNextPage was still true, else a totalCount mismatch. */
  finish(cap: number): Violation | undefined {
    if (this.done) return this.pendingTotal;
    if (this.probing !== undefined) return this.stoppedEarly(this.probing, 'the page cap left no room to read on');
    return violation('EP-EVENT-PAGING', undefined,
      `no end after ${cap} pages: hasNextPage stayed true (delivered ${this.consumed} of the ${this.expected.length} events of the range); an endless hasNextPage loop`);
  }

  private check(page: PageRecord, n: number): Violation | undefined {
    const { events, pageInfo } = page;
    const { label } = this.ctx;
    if (events.length > pageInfo.limit) {
      return violation('EP-EVENT-PAGE-LIMIT', n, `holds ${events.length} events, more than pageInfo.limit ${pageInfo.limit}`);
    }
    for (let j = 0; j < events.length; j++) {
      const v = this.checkEvent(events, j, n);
      if (v) return v;
    }
    if (pageInfo.hasNextPage && (typeof pageInfo.pageEndCursor !== 'string' || pageInfo.pageEndCursor === '')) {
      return violation('EP-EVENT-PAGING', n, `hasNextPage is true but pageEndCursor is ${JSON.stringify(pageInfo.pageEndCursor)}: the walk cannot continue`);
    }
    const total = pageInfo.totalCount;
    if (total !== null && total !== undefined && total !== this.expected.length - this.consumed) {
      // Kept until the walk ends: a wrong fence or a gap also skews totalCount, and that is the better diagnosis.
      this.pendingTotal ??= violation('EP-EVENT-TOTAL', n,
        `totalCount is ${total}, but the range (start_cursor, fence] of this request holds ${this.expected.length - this.consumed} events (${labelRun(this.expected.slice(this.consumed).map((e) => e.uid), label)})`);
    }
    return undefined;
  }

  private judgeProbe(page: PageRecord, early: number): Violation {
    this.done = true;
    const next = this.expected[this.consumed];
    const first = page.events[0];
    if (this.probeKind === 'unfenced') return this.judgeUnfencedProbe(page, early);
    if (first && next && first.uid === next.uid) {
      return violation('EP-EVENT-PAGING', early,
        `hasNextPage is false after ${this.consumed} of the ${this.expected.length} events of the range, but reading on from pageEndCursor returns ${labelRun(page.events.map((e) => e.uid), this.ctx.label)}: hasNextPage must stay true until the fence`);
    }
    if (!first) return this.stoppedEarly(early, 'reading on from pageEndCursor returns nothing');
    return this.checkEvent(page.events, 0, this.pageNo) ?? this.stoppedEarly(early, 'reading on returns other events');
  }

  private judgeUnfencedProbe(page: PageRecord, early: number): Violation {
    const { label, fenceIndex } = this.ctx;
    const next = this.expected[0] as EventRef;
    const first = page.events[0];
    const got = labelRun(page.events.map((e) => e.uid), label);
    if (!first) return this.stoppedEarly(early, 'reading from start_cursor without end_cursor returns nothing either');
    if (first.uid === next.uid && this.expected.length === 1 && fenceIndex !== undefined) {
      return violation('EP-EVENT-FENCE', early,
        `the fenced read returns no event, but without end_cursor the event after start_cursor is the fence event #${fenceIndex} itself (${got}): end_cursor must include the fence event`);
    }
    if (first.uid === next.uid) {
      return violation('EP-EVENT-PAGING', early,
        `the fenced read returns no event and hasNextPage false, but without end_cursor start_cursor is followed by ${got}: the range holds ${this.expected.length} events`);
    }
    return violation('EP-EVENT-PAGING', early,
      `the fenced read returns no event; without end_cursor, start_cursor is followed by ${got}, not by ${label(next.uid)}: start_cursor skips events`);
  }

  private judgeOverrun(page: PageRecord, at: number): Violation {
    this.done = true;
    if (page.events.length > 0) {
      return this.checkEvent(page.events, 0, this.pageNo) ?? violation('EP-EVENT-FENCE', this.pageNo, 'events follow the fence');
    }
    return violation('EP-EVENT-PAGING', at,
      `hasNextPage is true, but this page ends at the fence (all ${this.expected.length} event(s) of the range delivered, and the next page is empty): hasNextPage must be false exactly at the end`);
  }

  private checkEvent(events: readonly EventRef[], j: number, n: number): Violation | undefined {
    const { label } = this.ctx;
    const got = events[j] as EventRef;
    const at = this.consumed + j;
    const want = this.expected[at];
    if (want && got.uid === want.uid) return undefined;
    const where = `event ${j + 1} (${label(got.uid)})`;
    const earlierPage = this.seenOnPage.get(got.uid);
    const earlierHere = events.slice(0, j).some((e) => e.uid === got.uid);
    if (earlierPage !== undefined || earlierHere) {
      return violation('EP-EVENT-PAGING', n,
        `${where} was already returned ${earlierHere ? 'earlier on this page' : `on page ${earlierPage}`}: a duplicate (pages overlap, or start_cursor is not exclusive)`);
    }
    const pos = this.position.get(got.uid);
    const snap = this.ctx.snapshotIndex?.(got.uid);
    const { startIndex, fenceIndex } = this.ctx;
    if (pos === undefined && snap !== undefined && startIndex !== undefined && snap <= startIndex) {
      return violation('EP-EVENT-PAGING', n,
        `${where} is at or before the start_cursor (#${startIndex}): start_cursor must return only events strictly after it`);
    }
    // Still short of the range's end: `got` is a later event of the range, or lies beyond the range, which every event
    // of the range precedes in stream order. Either way `want` was skipped, or comes later (out of order). With the
    // range delivered, the same event lies beyond the fence.
    if (want) {
      const laterHere = events.slice(j + 1).some((e) => e.uid === want.uid);
      if (laterHere || (pos !== undefined && pos < at)) {
        return violation('EVS-ORDER', n, `${where} comes before ${label(want.uid)}: events are out of stream order (page holds ${labelRun(events.map((e) => e.uid), label)})`);
      }
      const after = at === 0 ? 'the start_cursor' : label((this.expected[at - 1] as EventRef).uid);
      return violation('EP-EVENT-PAGING', n, pos !== undefined
        ? `${where} follows ${after}, but ${labelRun(this.expected.slice(at, pos).map((e) => e.uid), label)} come first: a gap, ${pos - at} event(s) lost`
        : `${where} follows ${after}, but ${labelRun(this.expected.slice(at).map((e) => e.uid), label)} of the range come first: a gap`);
    }
    const fence = fenceIndex !== undefined ? `the fence #${fenceIndex}` : 'the fence';
    return violation('EP-EVENT-FENCE', n,
      `${where} lies beyond ${fence}${snap === undefined ? ' (an event newer than the snapshot)' : ''}: nothing after end_cursor may appear`);
  }

  private stoppedEarly(n: number, why: string): Violation {
    const missing = this.expected.slice(this.consumed);
    const { label, fenceIndex } = this.ctx;
    const last = this.expected[this.expected.length - 1];
    const onlyFence = missing.length === 1 && fenceIndex !== undefined && last !== undefined && label(last.uid) === `#${fenceIndex}`;
    if (onlyFence && this.consumed > 0) {
      return violation('EP-EVENT-FENCE', n, `the walk ends just before the fence event #${fenceIndex} and ${why}: end_cursor must include the fence event`);
    }
    const hint = onlyFence ? ' (either end_cursor excludes the fence event, or start_cursor skips the event after it)' : '';
    return violation('EP-EVENT-PAGING', n,
      `hasNextPage is false after ${this.consumed} of the ${this.expected.length} events of the range and ${why}: the walk misses ${labelRun(missing.map((e) => e.uid), label)}${hint}`);
  }
}

/** EVS-ORDER: a page read again from the same start_cursor (same fence and limit) returns the same events. */
export function checkReread(original: PageRecord, again: PageRecord, pageNo: number, label: (uid: string) => string): Violation | undefined {
  const a = original.events.map((e) => e.uid);
  const b = again.events.map((e) => e.uid);
  // Page sizes may differ between reads (a page holds AT MOST limit events), the events may not.
  const prefixOk = a.length <= b.length ? a.every((u, i) => b[i] === u) : b.every((u, i) => a[i] === u);
  const bothContinue = original.pageInfo.hasNextPage && again.pageInfo.hasNextPage;
  if (prefixOk && a.length === b.length && original.pageInfo.hasNextPage !== again.pageInfo.hasNextPage) {
    return violation('EVS-ORDER', pageNo, `re-reading from the same start_cursor returned the same events but hasNextPage ${again.pageInfo.hasNextPage} (first read: ${original.pageInfo.hasNextPage})`);
  }
  if (prefixOk && (a.length === b.length || bothContinue)) return undefined;
  return violation('EVS-ORDER', pageNo,
    `re-reading from the same start_cursor returned ${labelRun(b, label)}; the first read returned ${labelRun(a, label)}: the continuation of a stored cursor must be stable`);
}

/**
 * EP-EVENT-FENCE for a fence taken from an unfenced read's pageInfo.endCursor (the head at that time): every
 * snapshot event after the start existed before that read, so a fenced read that stops inside them (a strict
 * prefix) had a fence short of the head. Other differences are left to the oracle (gaps, order, start).
 */
export function checkHeadCovers(fenced: readonly EventRef[], known: readonly EventRef[], headLimit: number, label: (uid: string) => string): Violation | undefined {
  if (fenced.length >= known.length || !fenced.every((e, i) => known[i]?.uid === e.uid)) return undefined;
  const missing = known.slice(fenced.length);
  const either = missing.length === 1 ? ' (or end_cursor excludes the fence event)' : '';
  return violation('EP-EVENT-FENCE', undefined,
    `pageInfo.endCursor of an unfenced read (limit ${headLimit}), used as end_cursor, gives ${labelRun(fenced.map((e) => e.uid), label)}, but ${labelRun(missing.map((e) => e.uid), label)} already existed when that endCursor was issued: endCursor must be the head of the stream, not the page end${either}`);
}

function violation(clause: PagingClause, page: number | undefined, message: string): Violation {
  return { clause, ...(page !== undefined ? { page } : {}), message };
}

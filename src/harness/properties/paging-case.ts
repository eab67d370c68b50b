/**
 * Runs one generated paging case against the target: resolve the start and the fence, establish the expected
 * range (the snapshot slice, confirmed by a reference read with the default page size; or, for a head fence,
 * a reference read checked to cover the snapshot), walk it with the case's limit while appending events
 * between pages, then re-read one page. Every page goes through the oracle; the first violation throws.
 */
import fc from 'fast-check';
import { LimitRefused, type EventsApi } from './events-api.js';
import { checkHeadCovers, checkReread, expectedSlice, labelRun, snapshotLabeller, TraversalOracle, type OracleContext } from './oracle.js';
import { PropertyViolation, type AppendStep, type EventRef, type PageRecord, type PagingCase, type Violation } from './types.js';

export interface Snapshot {
  events: EventRef[];
  /** The first page held the whole stream (hasNextPage false), so it also knows the head. */
  complete: boolean;
  /** The target fills pageInfo.endCursor (head fences need it). */
  hasEndCursor: boolean;
}

/** A walk never takes more pages than this: the limit is raised for longer ranges (head fences on busy streams). */
export const MAX_WALK_PAGES = 100;
/** Bound of a reference read (default page size) and of its duplicate-only checks. */
const MAX_REFERENCE_PAGES = 50;

/** First page of the stream with the default page size; pads a short stream through the control API when it can. */
export async function takeSnapshot(api: EventsApi, opts: { minEvents: number; entities: readonly string[] }): Promise<Snapshot> {
  let page = await api.page({}, 'snapshot');
  const missing = opts.minEvents - page.events.length;
  if (missing > 0 && !page.pageInfo.hasNextPage && api.canAppend && opts.entities.length) {
    const each = Math.ceil(missing / opts.entities.length);
    for (const entity of opts.entities) await api.append(each, entity, `pad the stream (${entity})`);
    page = await api.page({}, 'snapshot');
  }
  const uids = new Set(page.events.map((e) => e.uid));
  if (uids.size !== page.events.length) {
    throw new PropertyViolation({ clause: 'EVS-ORDER', role: 'snapshot', message: 'the first page of the stream holds the same event uid twice' });
  }
  // One order whatever the page size: the start of the stream read with limit 2 is a prefix of the snapshot.
  const small = await api.page({ limit: 2 }, 'snapshot order check (limit 2)');
  const label = snapshotLabeller(page.events);
  if (!small.events.every((e, i) => page.events[i]?.uid === e.uid)) {
    throw new PropertyViolation({
      clause: 'EVS-ORDER',
      role: 'snapshot',
      message: `the start of the stream read with limit 2 is ${labelRun(small.events.map((e) => e.uid), label)}, with the default page size ${labelRun(page.events.slice(0, 4).map((e) => e.uid), label)}…: the stream is not read in one stable order`,
    });
  }
  return { events: page.events, complete: !page.pageInfo.hasNextPage, hasEndCursor: typeof page.pageInfo.endCursor === 'string' };
}

export async function runPagingCase(api: EventsApi, snap: Snapshot, c: PagingCase, maxPages: number): Promise<void> {
  const label = snapshotLabeller(snap.events);
  const index = new Map(snap.events.map((e, i) => [e.uid, i]));
  const ctx: OracleContext = { label, snapshotIndex: (uid) => index.get(uid), ...(c.start >= 0 ? { startIndex: c.start } : {}) };
  const startCursor = c.start >= 0 ? snap.events[c.start]?.cursor : undefined;
  let endCursor: string;
  let expected: EventRef[];
  if (c.fence.kind === 'event') {
    const fence = snap.events[c.fence.index] as EventRef;
    endCursor = fence.cursor;
    ctx.fenceIndex = c.fence.index;
    expected = expectedSlice(snap.events, c.start, c.fence.index);
    await walk(api, { startCursor, endCursor }, new TraversalOracle(expected, ctx), 'reference read', { maxPages: Math.min(maxPages, MAX_REFERENCE_PAGES) });
  } else {
    const head = await api.page({ startCursor, limit: c.fence.headLimit }, 'head read (its pageInfo.endCursor is the fence)');
    if (typeof head.pageInfo.endCursor !== 'string') {
      // Nothing after the start (or no endCursor offered): no fence to hold.
      fc.pre(false);
      return;
    }
    endCursor = head.pageInfo.endCursor;
    const pages = await collect(api, { startCursor, endCursor }, label);
    const fenced = pages.flatMap((p) => p.events);
    const known = snap.events.slice(c.start + 1);
    fail(checkHeadCovers(fenced, known, c.fence.headLimit, label), 'reference read');
    // The snapshot is authoritative for the events it knows; the newer ones are what the reference read says.
    expected = [...known, ...fenced.slice(known.length)];
    const reference = new TraversalOracle(expected, ctx);
    for (const p of pages) fail(reference.accept(p), 'reference read');
    fail(reference.finish(pages.length), 'reference read');
  }
  const limit = Math.max(c.limit, Math.ceil(expected.length / MAX_WALK_PAGES));
  const oracle = new TraversalOracle(expected, ctx);
  // Any page size may be refused: the maximum a client can request is "not shown", so even a small one skips the case.
  const pages = await walk(api, { startCursor, endCursor, limit }, oracle, 'walk', { maxPages, appends: c.appends, refusableLimit: true });
  const r = c.reread % pages.length;
  const original = pages[r] as PageRecord;
  const again = await api.page({ startCursor: original.startCursor, endCursor, limit }, `re-read of walk page ${r + 1}`);
  fail(checkReread(original, again, r + 1, label), 're-read of walk');
}

interface WalkOptions {
  maxPages: number;
  appends?: readonly AppendStep[];
  refusableLimit?: boolean;
}

/** Pages from the start to hasNextPage false, each checked by the oracle; bounded by expected length + 2 pages. Also used by the model properties (model/commands.ts), unfenced too. */
export async function walk(api: EventsApi, q: { startCursor: string | undefined; endCursor?: string | undefined; limit?: number | undefined }, oracle: TraversalOracle, role: string, opts: WalkOptions): Promise<PageRecord[]> {
  const cap = Math.min(opts.maxPages, oracle.expected.length + 2);
  const pages: PageRecord[] = [];
  let cursor = q.startCursor;
  for (let k = 0; k < cap && !oracle.done; k++) {
    for (const a of opts.appends ?? []) {
      if (a.beforePage === k) await api.append(a.count, a.entityCode, `append ${a.count} before ${role} page ${k + 1}`);
    }
    const probe = oracle.wantsProbe ? oracle.probeKind : undefined;
    const query = probe === 'unfenced' ? { startCursor: q.startCursor, limit: q.limit } : { ...q, startCursor: cursor };
    const title = probe ? `${role} probe: read on ${probe === 'unfenced' ? 'from start_cursor without end_cursor' : 'although hasNextPage is false'}` : `${role} page ${k + 1}`;
    const page = await api.page(query, title, { refusableLimit: opts.refusableLimit ?? false }).catch((e: unknown) => {
      // A page size beyond the target's (unspecified) maximum: this case does not apply, fast-check draws another.
      if (e instanceof LimitRefused) fc.pre(false);
      throw e;
    });
    fail(oracle.accept(page), role);
    pages.push(page);
    cursor = page.pageInfo.pageEndCursor ?? undefined;
  }
  if (!oracle.done && cap === opts.maxPages && cap < oracle.expected.length + 2) fail(pageBound(cap, oracle.delivered, oracle.expected.length), role);
  fail(oracle.finish(cap), role);
  return pages;
}

/**
 * A walk stopped by the profile's own page bound (timeouts.max_pages) before its end: a correct target may need more
 * pages than the profile allows, so this is no violation of a clause but a bound (errored, types.ts propertyFailure).
 */
export function pageBound(cap: number, delivered: number, expected: number): Violation {
  return { clause: 'BOUND', message: `stopped at the profile's page bound, timeouts.max_pages ${cap}, before the end (delivered ${delivered} of the ${expected} events of the range, hasNextPage still true)` };
}

/** A reference read whose result is not known beforehand (head fences; the model's reads past its last known event): pages up to the end, stopped by duplicates, oversized pages or the bound. */
export async function collect(api: EventsApi, q: { startCursor: string | undefined; endCursor?: string | undefined }, label: (uid: string) => string): Promise<PageRecord[]> {
  const out: PageRecord[] = [];
  const seen = new Set<string>();
  let cursor = q.startCursor;
  for (let k = 0; k < MAX_REFERENCE_PAGES; k++) {
    const page = await api.page({ ...q, startCursor: cursor }, `reference read page ${k + 1}`);
    if (page.events.length > page.pageInfo.limit) {
      fail({ clause: 'EP-EVENT-PAGE-LIMIT', page: k + 1, message: `holds ${page.events.length} events, more than pageInfo.limit ${page.pageInfo.limit}` }, 'reference read');
    }
    for (const e of page.events) {
      if (seen.has(e.uid)) fail({ clause: 'EP-EVENT-PAGING', page: k + 1, message: `${label(e.uid)} was already returned: a duplicate` }, 'reference read');
      seen.add(e.uid);
    }
    out.push(page);
    if (!page.pageInfo.hasNextPage) return out;
    if (!page.pageInfo.pageEndCursor) fail({ clause: 'EP-EVENT-PAGING', page: k + 1, message: 'hasNextPage is true but pageEndCursor is missing' }, 'reference read');
    cursor = page.pageInfo.pageEndCursor ?? undefined;
  }
  fail({ clause: 'EP-EVENT-PAGING', message: `no end after ${MAX_REFERENCE_PAGES} pages of the default size: hasNextPage stayed true` }, 'reference read');
  return out;
}

function fail(v: Violation | undefined, role: string): void {
  if (v) throw new PropertyViolation({ ...v, role });
}

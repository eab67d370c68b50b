/**
 * Generators of paging cases over a snapshot of `streamLength` events. Small limits are likely (many pages),
 * large ones occasional; ranges are capped so a walk stays bounded on long streams; appends only when the
 * target has the sandbox control API. Everything shrinks towards "from the start, tiny range, limit 1, no
 * appends", which is what a counterexample should look like.
 */
import fc from 'fast-check';
import type { AppendStep, FenceChoice, PagingCase } from './types.js';

export interface CaseBounds {
  streamLength: number;
  /** Largest number of snapshot events a fenced range may hold. */
  maxRange: number;
  canAppend: boolean;
  /** Entity codes for appends (allowed ones and the forbidden one: its events must never show). */
  entities: readonly string[];
  fence: 'event' | 'head';
}

export const LARGE_LIMITS = [100, 250, 1000] as const;

/** 1..10 mostly, 11..50 often, 100/250/1000 occasionally. */
export function limitArbitrary(): fc.Arbitrary<number> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.integer({ min: 1, max: 10 }) },
    { weight: 3, arbitrary: fc.integer({ min: 11, max: 50 }) },
    { weight: 1, arbitrary: fc.constantFrom(...LARGE_LIMITS) },
  );
}

export function appendsArbitrary(b: Pick<CaseBounds, 'canAppend' | 'entities'>): fc.Arbitrary<AppendStep[]> {
  if (!b.canAppend) return fc.constant([]);
  const step = fc.record({
    beforePage: fc.nat({ max: 6 }),
    count: fc.integer({ min: 1, max: 4 }),
    entityCode: b.entities.length ? fc.option(fc.constantFrom(...b.entities), { nil: undefined }) : fc.constant(undefined),
  });
  return fc.array(step, { maxLength: 3 });
}

/**
 * start in [-1, n-1] and the fence after it, at most maxRange events apart (start === fence: an empty range).
 * Head fences start within the last maxRange snapshot events (the range runs to the head).
 */
export function rangeArbitrary(b: CaseBounds): fc.Arbitrary<{ start: number; fence: FenceChoice }> {
  const n = b.streamLength;
  if (n < 1) throw new RangeError('rangeArbitrary: the snapshot holds no event');
  if (b.fence === 'head') {
    const lowest = Math.max(-1, n - 1 - b.maxRange);
    return fc.record({ start: fc.integer({ min: lowest, max: n - 1 }), headLimit: fc.integer({ min: 1, max: 5 }) })
      .map(({ start, headLimit }) => ({ start, fence: { kind: 'head' as const, headLimit } }));
  }
  return fc.tuple(fc.integer({ min: -1, max: n - 1 }), fc.integer({ min: 0, max: n - 1 })).map(([a, c]) => {
    const start = Math.min(a, c);
    const fence = Math.min(Math.max(a, c), start + b.maxRange);
    return { start, fence: { kind: 'event' as const, index: fence } };
  });
}

export function pagingCaseArbitrary(b: CaseBounds): fc.Arbitrary<PagingCase> {
  return fc.record({ range: rangeArbitrary(b), limit: limitArbitrary(), appends: appendsArbitrary(b), reread: fc.nat({ max: 50 }) })
    .map(({ range, limit, appends, reread }) => ({ start: range.start, fence: range.fence, limit, appends, reread }));
}

/** The case in words for the counterexample: positions are snapshot indices (#n). */
export function describeCase(c: PagingCase, cursorAt?: (index: number) => string | undefined): string {
  const cur = (i: number) => {
    const cursor = cursorAt?.(i);
    return cursor ? `#${i} (${cursor})` : `#${i}`;
  };
  const start = c.start < 0 ? 'none (from the beginning)' : cur(c.start);
  const fence = c.fence.kind === 'event' ? cur(c.fence.index) : `pageInfo.endCursor of GET /event?limit=${c.fence.headLimit} from the start (the head)`;
  const appends = c.appends.length
    ? c.appends.map((a) => `${a.count} event(s)${a.entityCode ? ` of ${a.entityCode}` : ''} before page ${a.beforePage + 1}`).join(', ')
    : 'none';
  return `start_cursor ${start}, end_cursor ${fence}, limit ${c.limit}, appends: ${appends}, re-read page #${c.reread} (mod pages)`;
}

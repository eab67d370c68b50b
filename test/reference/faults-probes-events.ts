/** Probes of the paging, event-schema and checkpoint faults (see faults-harness.ts for the contract). */
import { EVENT_TYPES } from '../../src/reference/data/types.js';
import type { H, Probe } from './faults-harness.js';

interface Ev { uid: string; cursor: string; eventType: string; [k: string]: unknown }

/** alice's whole stream (one page: the seeded history is far below 1000 events). */
async function all(h: H): Promise<Ev[]> {
  return (await h.events()).body.events;
}

async function page(h: H, query: Record<string, string | number>): Promise<{ events: Ev[]; pageInfo: Record<string, unknown> }> {
  const q = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
  return (await h.events(`?${q.toString()}`)).body;
}

const at = (events: Ev[], i: number): Ev => {
  const e = events[i];
  if (!e) throw new Error(`stream too short: no event ${i}`);
  return e;
};

export const EVENT_PROBES: Probe[] = [
  {
    fault: 'paging-overlap',
    checks: 'page 2 (from page 1\'s pageEndCursor) starts with page 1\'s last event',
    deviates: async (h) => {
      const p1 = await page(h, { limit: 3 });
      const p2 = await page(h, { limit: 3, start_cursor: String(p1.pageInfo.pageEndCursor) });
      return p2.events[0]?.uid === at(p1.events, 2).uid;
    },
  },
  {
    fault: 'paging-gap',
    checks: 'page 2 skips the 4th event of the stream',
    deviates: async (h) => {
      const events = await all(h);
      const p2 = await page(h, { limit: 3, start_cursor: at(events, 2).cursor });
      return p2.events[0]?.uid === at(events, 4).uid;
    },
  },
  {
    fault: 'start-cursor-inclusive',
    checks: 'start_cursor returns its own event first',
    deviates: async (h) => {
      const events = await all(h);
      return (await page(h, { limit: 2, start_cursor: at(events, 2).cursor })).events[0]?.uid === at(events, 2).uid;
    },
  },
  {
    fault: 'fence-ignored',
    checks: 'end_cursor at the 3rd event returns more than 3 events',
    deviates: async (h) => (await page(h, { end_cursor: at(await all(h), 2).cursor })).events.length > 3,
  },
  {
    fault: 'fence-exclusive',
    checks: 'end_cursor at the 3rd event does not return it',
    deviates: async (h) => {
      const fence = at(await all(h), 2);
      return !(await page(h, { end_cursor: fence.cursor })).events.some((e) => e.uid === fence.uid);
    },
  },
  {
    fault: 'fence-first-page-only',
    checks: 'with start_cursor at the 1st event and end_cursor at the 3rd, events beyond the 3rd come back (without start_cursor the fence holds)',
    deviates: async (h) => {
      const events = await all(h);
      const fence = at(events, 2).cursor;
      const firstPage = await page(h, { end_cursor: fence });
      const later = await page(h, { start_cursor: at(events, 0).cursor, end_cursor: fence });
      return firstPage.events.length === 3 && later.events.some((e) => e.uid === at(events, 3).uid);
    },
  },
  {
    fault: 'fence-by-timestamp',
    checks: 'with the simulated clock held still, the head read after 3 appends, used as end_cursor after 3 more appends, lets the newer events through',
    deviates: async (h) => {
      // Every append then falls in one second of the simulated clock (no luck with second boundaries).
      const clock = h.ref.domain.clock;
      const still = clock.now();
      h.ref.domain.clock = { ...clock, now: () => still };
      await h.sandbox('/events', { count: 3, entityCode: 'ENT-ALPHA' });
      const before = await page(h, { limit: 1000 });
      await h.sandbox('/events', { count: 3, entityCode: 'ENT-ALPHA' });
      const fenced = await page(h, { limit: 1000, end_cursor: String(before.pageInfo.endCursor) });
      return fenced.events.length > before.events.length;
    },
  },
  {
    fault: 'page-size-off-by-one',
    checks: 'with limit 3 page 2 starts at the 5th event; with the default limit pageEndCursor is the page\'s last event',
    deviates: async (h) => {
      const events = await all(h);
      const p1 = await page(h, { limit: 3 });
      const p2 = await page(h, { limit: 3, start_cursor: String(p1.pageInfo.pageEndCursor) });
      const whole = await page(h, {});
      return p2.events[0]?.uid === at(events, 4).uid && whole.pageInfo.pageEndCursor === at(whole.events, whole.events.length - 1).cursor;
    },
  },
  {
    fault: 'end-cursor-is-page-end',
    checks: 'pageInfo.endCursor of a 1-event page is that event, not the head',
    deviates: async (h) => {
      const p = await page(h, { limit: 1 });
      return p.pageInfo.endCursor === at(p.events, 0).cursor;
    },
  },
  {
    fault: 'end-cursor-moving',
    checks: 'endCursor read before 3 appends, used as end_cursor after them, lets the new events through',
    deviates: async (h) => {
      const before = await page(h, { limit: 1000 });
      await h.sandbox('/events', { count: 3, entityCode: 'ENT-ALPHA' });
      const fenced = await page(h, { limit: 1000, end_cursor: String(before.pageInfo.endCursor) });
      return fenced.events.length > before.events.length;
    },
  },
  {
    fault: 'has-next-page-false-early',
    checks: '4 events up to the fence, limit 2: page 1 says hasNextPage false',
    deviates: async (h) => (await page(h, { limit: 2, end_cursor: at(await all(h), 3).cursor })).pageInfo.hasNextPage === false,
  },
  {
    fault: 'has-next-page-true-at-end',
    checks: '2 events up to the fence, limit 2: hasNextPage true',
    deviates: async (h) => (await page(h, { limit: 2, end_cursor: at(await all(h), 1).cursor })).pageInfo.hasNextPage === true,
  },
  {
    fault: 'total-count-page-only',
    checks: 'totalCount of a 2-event page of a longer stream is 2',
    deviates: async (h) => (await page(h, { limit: 2 })).pageInfo.totalCount === 2,
  },
  {
    fault: 'events-out-of-order',
    checks: 'a 3-event page does not start with the stream\'s first event',
    deviates: async (h) => (await page(h, { limit: 3 })).events[0]?.uid !== at((await page(h, { limit: 1 })).events, 0).uid,
  },
  {
    fault: 'page-limit-exceeded',
    checks: 'limit 2 returns more than 2 events',
    deviates: async (h) => (await page(h, { limit: 2 })).events.length > 2,
  },
  // ---- event schema ----
  {
    fault: 'event-money-as-number',
    checks: 'some event money field is a JSON number',
    deviates: async (h) => (await all(h)).some((e) => typeof e.amount === 'number' || typeof e.cost === 'number'),
  },
  {
    fault: 'event-cursor-prefix-missing',
    checks: 'an event cursor lacks "ev1."',
    deviates: async (h) => !at(await all(h), 0).cursor.startsWith('ev1.'),
  },
  {
    fault: 'unknown-event-type',
    checks: 'an eventType outside the ten kinds',
    deviates: async (h) => (await all(h)).some((e) => !(EVENT_TYPES as readonly string[]).includes(e.eventType)),
  },
  {
    fault: 'finalized-false',
    checks: 'a FINALIZED event with finalized !== true',
    deviates: async (h) => (await all(h)).some((e) => e.eventType === 'FINALIZED' && e.finalized !== true),
  },
  // ---- checkpoints ----
  {
    fault: 'checkpoint-no-version-check',
    checks: 'PATCH with a stale version answers 200',
    deviates: async (h) => {
      await h.api('PUT', '/event/checkpoint/nv');
      const cursor = at(await all(h), 0).cursor;
      return (await h.api('PATCH', '/event/checkpoint/nv', { json: { expectedCheckpointVersion: 'ec1.stale', newCursor: cursor } })).status === 200;
    },
  },
  {
    fault: 'checkpoint-same-cursor-unversioned',
    checks: 'PATCH with a stale version to the cursor the checkpoint holds answers 200; to another cursor, 409',
    deviates: async (h) => {
      const created = await h.api('PUT', '/event/checkpoint/same');
      const same = await h.api('PATCH', '/event/checkpoint/same', { json: { expectedCheckpointVersion: 'ec1.stale', newCursor: created.body.cursor } });
      const other = await h.api('PATCH', '/event/checkpoint/same', { json: { expectedCheckpointVersion: 'ec1.stale', newCursor: at(await all(h), 0).cursor } });
      return same.status === 200 && other.status === 409;
    },
  },
  ...['checkpoint-cas-not-atomic', 'checkpoint-cas-window-2ms'].map((fault) => ({
    fault,
    // app.inject starts all five in one tick: they reach the version check before even a 2 ms timer fires.
    checks: 'of 5 concurrent PATCHes with one version more than one answers 200',
    deviates: async (h: H) => {
      const created = await h.api('PUT', '/event/checkpoint/race');
      const cursor = at(await all(h), 0).cursor;
      const json = { expectedCheckpointVersion: created.body.checkpointVersion, newCursor: cursor };
      const results = await Promise.all(Array.from({ length: 5 }, () => h.api('PATCH', '/event/checkpoint/race', { json })));
      return results.filter((r) => r.status === 200).length > 1;
    },
  })),
  {
    fault: 'checkpoint-409-without-state',
    checks: 'the 409 body has no checkpoint',
    deviates: async (h) => {
      await h.api('PUT', '/event/checkpoint/c409');
      const res = await h.api('PATCH', '/event/checkpoint/c409', { json: { expectedCheckpointVersion: 'ec1.stale', newCursor: at(await all(h), 0).cursor } });
      return res.status === 409 && res.body.checkpoint === undefined;
    },
  },
  {
    fault: 'checkpoint-put-200-on-create',
    checks: 'first PUT answers 200',
    deviates: async (h) => (await h.api('PUT', '/event/checkpoint/first')).status === 200,
  },
  {
    fault: 'checkpoint-cursor-not-at-end',
    checks: 'a new checkpoint\'s cursor is not the newest event alice sees',
    deviates: async (h) => {
      const events = await all(h);
      return (await h.api('PUT', '/event/checkpoint/end')).body.cursor !== at(events, events.length - 1).cursor;
    },
  },
  {
    fault: 'checkpoint-not-user-scoped',
    checks: 'bob reads alice\'s checkpoint',
    deviates: async (h) => {
      await h.api('PUT', '/event/checkpoint/alice-only');
      return (await h.api('GET', '/event/checkpoint/alice-only', { as: 'cc-bob' })).status === 200;
    },
  },
  {
    fault: 'checkpoint-version-unchanged',
    checks: 'a successful PATCH keeps the version',
    deviates: async (h) => {
      const created = await h.api('PUT', '/event/checkpoint/ver');
      const json = { expectedCheckpointVersion: created.body.checkpointVersion, newCursor: at(await all(h), 0).cursor };
      const patched = await h.api('PATCH', '/event/checkpoint/ver', { json });
      return patched.status === 200 && patched.body.checkpoint.checkpointVersion === created.body.checkpointVersion;
    },
  },
  {
    fault: 'checkpoint-version-prefix-missing',
    checks: 'checkpointVersion lacks "ec1."',
    deviates: async (h) => !String((await h.api('PUT', '/event/checkpoint/pfx')).body.checkpointVersion).startsWith('ec1.'),
  },
];

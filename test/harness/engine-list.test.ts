/**
 * The `list` step (issue 25): every paging kind walks every page of a list of 7 entries served 3 a page; a
 * `find` stops at the first page holding the record; a loop, a Link off the target and a walk past
 * timeouts.max_list_pages fail readably; a page without an array where the profile points is a failed
 * check; request shapes put the value where the profile says. Against a stub server on port 0.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { nextLink, pathUnderBase, walkPages, WalkProblem } from '../../src/harness/engine/paging.js';
import { placeShape } from '../../src/harness/engine/shapes.js';
import { listPagingOf, requestShapesOf, type ListPaging } from '../../src/harness/target/paging.js';
import { json, makeTarget, run, scenarioFromYaml, startStub, type Stub } from './engine-helpers.js';

const ENTRIES = Array.from({ length: 7 }, (_, i) => ({ uid: `u${i + 1}` }));
const SIZE = 3;
let stub: Stub;
let hangCalls = 0;

before(async () => {
  stub = await startStub((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const q = url.searchParams;
    switch (url.pathname) {
      case '/api/v1/pn': {
        const page = Number(q.get('page') ?? 1);
        return json(res, 200, { results: ENTRIES.slice((page - 1) * SIZE, page * SIZE), info: { more: page * SIZE < ENTRIES.length } });
      }
      case '/api/v1/pn-empty': {
        const page = Number(q.get('p') ?? 0);
        return json(res, 200, ENTRIES.slice(page * SIZE, (page + 1) * SIZE));
      }
      case '/api/v1/cur': {
        const from = Number(q.get('after') ?? 0);
        return json(res, 200, { data: ENTRIES.slice(from, from + SIZE), next: from + SIZE < ENTRIES.length ? String(from + SIZE) : null });
      }
      case '/api/v1/link': {
        const from = Number(q.get('from') ?? 0);
        if (from + SIZE < ENTRIES.length) res.setHeader('link', `<${stub.url}/api/v1/link?from=${from + SIZE}&k=${q.get('k') ?? ''}>; rel="next", <${stub.url}/api/v1/link>; rel="first"`);
        return json(res, 200, ENTRIES.slice(from, from + SIZE));
      }
      case '/api/v1/off': {
        const from = Number(q.get('offset') ?? 0);
        return json(res, 200, ENTRIES.slice(from, from + Number(q.get('limit') ?? 100)));
      }
      // The first walk is answered; every later request hangs (only a bound ends it).
      case '/api/v1/hang-after-first': {
        if (++hangCalls > 1) return undefined;
        return json(res, 200, { data: ENTRIES.slice(0, SIZE), next: null });
      }
      case '/api/v1/loop': return json(res, 200, { data: [{ uid: 'x' }], next: 'same' });
      case '/api/v1/offsite': res.setHeader('link', '<http://elsewhere.invalid/api/v1/x>; rel="next"'); return json(res, 200, []);
      case '/api/v1/notalist': return json(res, 200, { results: 'nope' });
      case '/api/v1/echo': return json(res, 200, { body: req.body, query: Object.fromEntries(q), type: req.headers['content-type'] ?? null });
      default: return json(res, 404, { detail: 'Not Found' });
    }
  });
});
after(() => stub.close());

const targetWith = (paging: ListPaging, listPointer = '', maxListPages = 50, scenarioMs?: number) => {
  const t = makeTarget(stub.url, { maxListPages, ...(scenarioMs ? { scenarioMs } : {}) });
  return { ...t, fields: { subscriptions_list: listPointer }, paging: { ...t.paging, subscriptions: paging } };
};

const walkScenario = (path: string, extra = '') => scenarioFromYaml(`
id: t.list
title: list walk
covers: [T-ONE]
steps:
  - list: { of: subscriptions, request: { method: GET, path: ${path} }, as: subs${extra} }
  - set: { uids: "\${pluck(subs.items, '/uid')}" }
`);

const KINDS: Array<[string, string, ListPaging, string]> = [
  ['page-number with has_next', '/pn', listPagingOf({ kind: 'page-number', has_next: '/info/more' }), '/results'],
  ['page-number until an empty page (0-based, param p)', '/pn-empty', listPagingOf({ kind: 'page-number', param: 'p', first: 0 }), ''],
  ['cursor', '/cur', listPagingOf({ kind: 'cursor', param: 'after', next: '/next' }), '/data'],
  ['link-header (query of the template dropped, the link\'s kept)', '/link?k=v', listPagingOf('link-header'), ''],
  ['offset-limit', '/off', listPagingOf({ kind: 'offset-limit', limit: SIZE }), ''],
];

describe('list step: every page, whatever the paging kind', () => {
  for (const [name, path, paging, pointer] of KINDS) {
    it(name, async () => {
      const before = stub.requests.length;
      const r = await run(walkScenario(path), targetWith(paging, pointer));
      assert.equal(r.error, undefined, r.error?.message);
      assert.deepEqual(r.outcome?.vars.uids, ENTRIES.map((e) => e.uid));
      assert.ok(stub.requests.length - before >= 3, `${stub.requests.length - before} pages read`);
    });
  }

  it('none reads one answer only (the default)', async () => {
    const before = stub.requests.length;
    const r = await run(walkScenario('/pn'), targetWith(listPagingOf(undefined), '/results'));
    assert.equal(r.error, undefined, r.error?.message);
    assert.deepEqual(r.outcome?.vars.uids, ['u1', 'u2', 'u3']);
    assert.equal(stub.requests.length - before, 1);
  });

  it('watch: true ends at its deadline (a template from the profile) without failing; without it the deadline fails', async () => {
    const yaml = (watch: string) => `
id: t.watch
title: watch
covers: [T-ONE]
steps:
  - list: { of: subscriptions, request: { method: GET, path: /cur }, find: entry.uid == 'u5', until: "list.found.uid == 'nobody'",${watch} deadline_ms: '\${num(target.timing.issuance_watch_s * 10000)}', interval_ms: 10000, as: subs }
  - expect: { of: subs, where: ["subs.found.uid == 'u5'"] }
`;
    // A fake clock (time moves in sleeps only): each real walk gets the time left as its bound, so the fake timeline
    // is long (100 s, 10 walks) to keep the real requests far from it on a busy machine (no timing luck).
    const clock = (): { now: () => number; sleep: (ms: number) => Promise<void> } => {
      let now = 0;
      return { now: () => now, sleep: async (ms) => void (now += ms) };
    };
    // scenario_ms is measured on the same clock: it stays above the 100 s.
    const target = targetWith(listPagingOf({ kind: 'cursor', param: 'after', next: '/next' }), '/data', 50, 1_000_000);
    const watched = await run(scenarioFromYaml(yaml(' watch: true,')), { ...target, timing: { ...target.timing, issuanceWatchS: 10 } }, clock());
    assert.equal(watched.error, undefined, watched.error?.message);
    const polled = await run(scenarioFromYaml(yaml('')), { ...target, timing: { ...target.timing, issuanceWatchS: 10 } }, clock());
    assert.match(polled.error?.message ?? '', /still false at the deadline \(100000 ms, 10 walk\(s\)/);
  });

  it('a sleep that overruns the deadline (a busy machine) ends the walk at the deadline: no walk without time left', async () => {
    // A fake clock whose sleeps overrun by far: after the first walk and its sleep, the deadline has passed.
    let now = 0;
    const clock = { now: () => now, sleep: async (ms: number) => void (now += ms + 1_000_000) };
    const yaml = (watch: string) => `
id: t.overrun
title: overrun
covers: [T-ONE]
steps:
  - list: { of: subscriptions, request: { method: GET, path: /cur }, find: entry.uid == 'u5', until: "list.found.uid == 'nobody'",${watch} deadline_ms: 100000, interval_ms: 10000, as: subs }
`;
    const target = targetWith(listPagingOf({ kind: 'cursor', param: 'after', next: '/next' }), '/data', 50, 1_000_000);
    const before = stub.requests.length;
    const watched = await run(scenarioFromYaml(yaml(' watch: true,')), target, clock);
    assert.equal(watched.error, undefined, watched.error?.message);
    const polled = await run(scenarioFromYaml(yaml('')), target, clock);
    // Not "no complete response within 1 ms": the deadline, with the one walk made in time.
    assert.match(polled.error?.message ?? '', /still false at the deadline \(100000 ms, 1 walk\(s\) of 2 page\(s\)/);
    assert.equal(stub.requests.length - before, 4, 'one walk of two pages each, none after the deadline');
  });

  it('a walk the deadline cuts short (it began with little time left) ends the step at the deadline, not as the target\'s timeout', async () => {
    // Fake time moves in sleeps only: the one sleep leaves 50 ms of the deadline, the next walk's request hangs, and
    // its 50 ms bound (the time left, not the request's own bound) cuts it. Before: errored FTF_E_TARGET_TIMEOUT
    // "no complete response within 50 ms", blaming the target.
    const clockAt = (): { now: () => number; sleep: (ms: number) => Promise<void> } => {
      let now = 0;
      return { now: () => now, sleep: async () => void (now = 100_000 - 50) };
    };
    const yaml = (watch: string) => `
id: t.cut
title: cut
covers: [T-ONE]
steps:
  - list: { of: subscriptions, request: { method: GET, path: /hang-after-first }, find: entry.uid == 'u2', until: "list.found.uid == 'nobody'",${watch} deadline_ms: 100000, interval_ms: 10000, as: subs }
  - expect: { of: subs, where: ["subs.found.uid == 'u2'"] }
`;
    const target = targetWith(listPagingOf({ kind: 'cursor', param: 'after', next: '/next' }), '/data', 50, 1_000_000);
    hangCalls = 0;
    const watched = await run(scenarioFromYaml(yaml(' watch: true,')), target, clockAt());
    assert.equal(watched.error, undefined, watched.error?.message);
    assert.equal(hangCalls, 2, 'the second walk was sent and cut');
    hangCalls = 0;
    const polled = await run(scenarioFromYaml(yaml('')), target, clockAt());
    assert.match(polled.error?.message ?? '', /still false at the deadline \(100000 ms, 1 walk\(s\)/);
    // The first walk has the whole deadline: a target that does not answer it is the target's timeout.
    hangCalls = 1;
    const first = await run(scenarioFromYaml(yaml(' watch: true,').replace('deadline_ms: 100000', 'deadline_ms: 50')), target, clockAt());
    assert.match(first.error?.message ?? '', /no complete response within/);
  });

  it('find stops at the first page holding the record', async () => {
    const before = stub.requests.length;
    const r = await run(scenarioFromYaml(`
id: t.find
title: find
covers: [T-ONE]
steps:
  - list: { of: subscriptions, request: { method: GET, path: /cur }, find: entry.uid == 'u5', as: subs }
  - expect: { of: subs, where: ["subs.found.uid == 'u5'", 'subs.pages == 2', '!subs.complete'] }
`), targetWith(listPagingOf({ kind: 'cursor', param: 'after', next: '/next' }), '/data'));
    assert.equal(r.error, undefined, r.error?.message);
    assert.equal(stub.requests.length - before, 2);
  });

  it('a token that comes again, a Link off the target and a walk past max_list_pages fail readably', async () => {
    const loop = await run(walkScenario('/loop'), targetWith(listPagingOf({ kind: 'cursor', next: '/next' }), '/data'));
    assert.match(loop.error?.message ?? '', /came again: the target pages in a loop/);
    const off = await run(walkScenario('/offsite'), targetWith(listPagingOf('link-header')));
    assert.match(off.error?.message ?? '', /leaves the target's base URL/);
    const long = await run(walkScenario('/cur'), targetWith(listPagingOf({ kind: 'cursor', param: 'after', next: '/next' }), '/data', 2));
    assert.match(long.error?.message ?? '', /more than timeouts\.max_list_pages \(2\) pages/);
  });

  it('a page without an array where the profile points is a failed check, not an engine error', async () => {
    const r = await run(walkScenario('/notalist'), targetWith(listPagingOf('page-number'), '/results'));
    assert.equal((r.error as { code?: string } | undefined)?.code, 'FTF_E_CHECK_FAILED');
    assert.match(r.error?.message ?? '', /\[list\] page 1 of GET .* has no array at pointer "\/results"/);
  });
});

describe('request shapes', () => {
  it('place the value where the profile says: JSON body, query, form, nowhere', async () => {
    assert.deepEqual(placeShape({ in: 'json-body', name: 'url' }, 'u'), { body: { text: '{"url":"u"}', contentType: 'application/json' } });
    assert.deepEqual(placeShape({ in: 'json-body', name: '' }, 'u'), { body: { text: '{}', contentType: 'application/json' } });
    assert.deepEqual(placeShape({ in: 'query', name: 'url' }, 'u'), { query: { url: 'u' } });
    assert.deepEqual(placeShape({ in: 'form', name: 'url' }, 'a b'), { body: { text: 'url=a+b', contentType: 'application/x-www-form-urlencoded' } });
    assert.deepEqual(placeShape({ in: 'none' }, 'u'), {});
    const t = makeTarget(stub.url);
    const r = await run(scenarioFromYaml(`
id: t.shape
title: shape
covers: [T-ONE]
steps:
  - request: { method: DELETE, path: /echo, shape: { of: webhook_delete, value: 'https://h.invalid/x' }, as: d }
  - request: { method: PUT, path: /echo, shape: { of: checkpoint_put, value: cp-1 }, as: p }
  - expect: { of: d, json: { query: { url: 'https://h.invalid/x' }, body: '' } }
  - expect: { of: p, json: { body: '{"name":"cp-1"}', type: application/json } }
`), { ...t, shapes: requestShapesOf({ webhook: { delete: 'query' }, checkpoint: { put: 'json-body' } }, 'url') });
    assert.equal(r.error, undefined, r.error?.message);
  });

  it('the old webhook.delete_body: true still means a JSON body named by fields.webhook_url', () => {
    assert.deepEqual(requestShapesOf({ webhook: { delete_body: true } }, 'callbackUrl').webhook_delete, { in: 'json-body', name: 'callbackUrl' });
    assert.deepEqual(requestShapesOf({}, 'url').webhook_delete, { in: 'none' });
  });
});

describe('paging helpers', () => {
  it('nextLink reads rel="next" among several links (RFC 8288), pathUnderBase keeps links under base_url', () => {
    assert.equal(nextLink('<https://a/api/v1/x?p=2>; rel="next", <https://a/api/v1/x?p=9>; rel="last"'), 'https://a/api/v1/x?p=2');
    assert.equal(nextLink('<https://a/x?p=1>; rel="prev"'), undefined);
    assert.equal(nextLink('</api/v1/x?p=2>; rel=next'), '/api/v1/x?p=2');
    assert.equal(pathUnderBase('https://a/api/v1', 'https://a/api/v1/x', '/api/v1/x?p=2'), '/x?p=2');
    assert.equal(pathUnderBase('https://a/api/v1', 'https://a/api/v1/x', 'https://b/api/v1/x'), undefined);
    assert.equal(pathUnderBase('https://a/api/v1', 'https://a/api/v1/x', 'https://a/other'), undefined);
  });
});

describe('walkPages: the page bound is the profile\'s, a loop is the target\'s', () => {
  const fetchPages = (next: (n: number) => string) => async (_req: unknown, n: number) => ({ status: 200, body: { items: [n], next: next(n) }, headers: {}, url: 'http://x/api/v1/l' });
  const walk = (next: (n: number) => string) => walkPages({ paging: { kind: 'cursor', param: 'c', next: '/next' }, pointer: '/items', maxPages: 3, baseUrl: 'http://x/api/v1', fetch: fetchPages(next), notAList: () => new Error('not a list') });
  it('max_list_pages reached marks the problem as a bound (the model property reports it errored, not as a violation)', async () => {
    await assert.rejects(walk((n) => `t${n}`), (e: unknown) => e instanceof WalkProblem && e.bound && /max_list_pages \(3\)/.test(e.message));
  });
  it('a token that comes again is no bound', async () => {
    await assert.rejects(walk(() => 'same'), (e: unknown) => e instanceof WalkProblem && !e.bound && /came again/.test(e.message));
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { graceMs, testTimeoutMs } from '../../src/harness/target/bounds.js';
import { fakeSchemas, json, makeTarget, run, scenarioFromYaml, startStub, type Stub } from './engine-helpers.js';

let stub: Stub;
let polls = 0;

before(async () => {
  stub = await startStub((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const start = Number(url.searchParams.get('start_cursor') ?? '0');
    switch (url.pathname) {
      case '/api/v1/events': {
        // 7 events, pages of 3, cursor = index of the next event.
        const events = Array.from({ length: 7 }, (_, i) => ({ uid: `e${i}` })).slice(start, start + 3);
        const next = start + events.length;
        return json(res, 200, { events, pageInfo: { hasNextPage: next < 7, pageEndCursor: String(next) } });
      }
      case '/api/v1/forever':
        return json(res, 200, { events: [{ uid: `e${start}` }], pageInfo: { hasNextPage: true, pageEndCursor: String(start + 1) } });
      case '/api/v1/empty-forever':
        // Endless empty pages, each a little slow: only the scenario bound can end this.
        setTimeout(() => json(res, 200, { events: [], pageInfo: { hasNextPage: true, pageEndCursor: String(start + 1) } }), 20);
        return;
      case '/api/v1/loop':
        return json(res, 200, { events: [], pageInfo: { hasNextPage: true, pageEndCursor: 'same' } });
      case '/api/v1/nocursor':
        return json(res, 200, { events: [], pageInfo: { hasNextPage: true } });
      case '/api/v1/status':
        polls++;
        return json(res, 200, { status: polls >= 3 ? 'Issued' : 'Pending' });
      case '/api/v1/pending-then-hang':
        // The first request is answered (still pending); every later one hangs: only a bound ends it.
        if (++polls > 1) return;
        return json(res, 200, { status: 'Pending' });
      case '/api/v1/never':
        return json(res, 200, { status: 'Pending' });
      case '/api/v1/hang':
        return; // never answers
      case '/api/v1/html':
        res.writeHead(500, { 'content-type': 'text/html' });
        return res.end(`<html><body>${'Internal error '.repeat(100)}</body></html>`);
      case '/api/v1/reset':
        return req.socket.destroy();
      default:
        return json(res, 404, { detail: 'Not Found' });
    }
  });
});
after(() => stub.close());

const paginate = (path: string, maxPages: number): string => `
id: t.page
title: paging
covers: [T-ONE]
steps:
  - paginate:
      request: { method: GET, path: ${path}, query: { limit: 3 } }
      cursor: /pageInfo/pageEndCursor
      items: /events
      until: page.body.pageInfo.hasNextPage == false
      max_pages: ${maxPages}
      as: paged
`;

describe('engine bounds: paginate', () => {
  it('follows the cursor to the end and collects pages and items', async () => {
    const r = await run(scenarioFromYaml(paginate('/events', 10)), makeTarget(stub.url));
    assert.equal(r.error, undefined, r.error?.message);
    const paged = r.outcome?.vars.paged as { pages: unknown[]; items: Array<{ uid: string }>; count: number };
    assert.equal(paged.pages.length, 3);
    assert.deepEqual(paged.items.map((e) => e.uid), ['e0', 'e1', 'e2', 'e3', 'e4', 'e5', 'e6']);
  });

  it('fails when max_pages is hit, naming the bound', async () => {
    const r = await run(scenarioFromYaml(paginate('/forever', 5)), makeTarget(stub.url));
    assert.equal((r.error as { code?: string }).code, 'FTF_E_BOUND_EXCEEDED');
    assert.match(r.error?.message ?? '', /still false after 5 page\(s\) \(the bound: max_pages 5, profile max_pages 100\)/);
    assert.equal(stub.requests.filter((q) => q.url.startsWith('/api/v1/forever')).length, 5);
  });

  it("the profile's max_pages caps the scenario's", async () => {
    const r = await run(scenarioFromYaml(paginate('/forever', 50)), makeTarget(stub.url, { maxPages: 4 }));
    assert.match(r.error?.message ?? '', /after 4 page\(s\)/);
  });

  it('a repeated cursor and a missing cursor fail at once', async () => {
    const loop = await run(scenarioFromYaml(paginate('/loop', 50)), makeTarget(stub.url));
    assert.match(loop.error?.message ?? '', /page 2 returned the cursor "same" again: the target pages in a loop/);
    const none = await run(scenarioFromYaml(paginate('/nocursor', 50)), makeTarget(stub.url));
    assert.match(none.error?.message ?? '', /page 1: .* there is no cursor at \/pageInfo\/pageEndCursor/);
  });
});

const poll = (path: string, deadline: number, interval = 10): string => `
id: t.poll
title: polling
covers: [T-ONE]
steps:
  - poll:
      request: { method: GET, path: ${path} }
      until: response.body.status == 'Issued'
      interval_ms: ${interval}
      deadline_ms: ${deadline}
      as: final
`;

describe('engine bounds: poll', () => {
  it('repeats until the condition holds', async () => {
    polls = 0;
    const r = await run(scenarioFromYaml(poll('/status', 5000)), makeTarget(stub.url));
    assert.equal(r.error, undefined, r.error?.message);
    assert.equal(polls, 3);
    assert.deepEqual((r.outcome?.vars.final as { body: unknown }).body, { status: 'Issued' });
  });

  it('fails readably at the deadline (fake clock: no timing luck)', async () => {
    // Fake time only advances in sleep(); each real request still gets the time left as its timeout, so the
    // fake timeline is long (seconds per attempt) to keep real requests far from their bound under load.
    let now = 0;
    const r = await run(scenarioFromYaml(poll('/never', 100_000, 10_000)), makeTarget(stub.url, { scenarioMs: 1_000_000 }), {
      now: () => now,
      sleep: async (ms) => {
        now += ms;
      },
    });
    assert.equal((r.error as { code?: string }).code, 'FTF_E_BOUND_EXCEEDED');
    assert.match(r.error?.message ?? '', /still false at the deadline \(100000 ms, 10 attempt\(s\), every 10000 ms\); last answer 200: \{"status":"Pending"\}/);
  });

  it('a sleep that overruns the deadline (a busy machine) ends the poll at the deadline: no request without time left', async () => {
    polls = 0;
    let now = 0;
    const r = await run(scenarioFromYaml(poll('/status', 100_000, 10_000)), makeTarget(stub.url, { scenarioMs: 1_000_000 }), {
      now: () => now,
      sleep: async (ms) => {
        now += ms + 1_000_000;
      },
    });
    // Not "no complete response within 1 ms" (a second request with no time left): the deadline, after one attempt.
    assert.equal((r.error as { code?: string }).code, 'FTF_E_BOUND_EXCEEDED');
    assert.match(r.error?.message ?? '', /still false at the deadline \(100000 ms, 1 attempt\(s\), every 10000 ms\); last answer 200: \{"status":"Pending"\}/);
    assert.equal(polls, 1, 'no request after the deadline');
  });
  it('a request the deadline cuts short (it began with little time left) ends the poll at the deadline, not as the target\'s timeout', async () => {
    polls = 0;
    let now = 0;
    // Fake time: the one sleep leaves 50 ms of the deadline; the second request hangs and its 50 ms bound cuts it.
    const r = await run(scenarioFromYaml(poll('/pending-then-hang', 100_000, 10_000)), makeTarget(stub.url, { scenarioMs: 1_000_000 }), {
      now: () => now,
      sleep: async () => void (now = 100_000 - 50),
    });
    assert.equal(polls, 2, 'the second request was sent and cut');
    assert.equal((r.error as { code?: string }).code, 'FTF_E_BOUND_EXCEEDED', r.error?.message);
    assert.match(r.error?.message ?? '', /still false at the deadline \(100000 ms, 1 attempt\(s\), every 10000 ms\); last answer 200: \{"status":"Pending"\}/);
  });
});

describe('engine bounds: misbehaving targets', () => {
  const single = (path: string, extra = ''): string => `
id: t.bad
title: bad target
covers: [T-ONE]
steps:
  - request: { method: GET, path: ${path}${extra} }
`;

  // The limit of these checks is the bound itself plus the grace the bounds module gives (no guessed ms).
  it('a hanging target fails within the request bound with a readable message', async () => {
    const target = makeTarget(stub.url);
    const r = await run(scenarioFromYaml(single('/hang', ', timeout_ms: 300')), target);
    assert.equal((r.error as { code?: string }).code, 'FTF_E_TARGET_TIMEOUT');
    assert.match(r.error?.message ?? '', /GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/hang failed \(bound 300 ms\)/);
    assert.ok(r.elapsedMs <= 300 + graceMs(target.timeouts), `took ${r.elapsedMs} ms`);
  });

  it("the profile's request timeout applies when the step gives none", async () => {
    const target = makeTarget(stub.url, { requestMs: 250 });
    const r = await run(scenarioFromYaml(single('/hang')), target);
    assert.match(r.error?.message ?? '', /failed \(bound 250 ms\)/);
    assert.ok(r.elapsedMs <= 250 + graceMs(target.timeouts), `took ${r.elapsedMs} ms`);
  });

  it('an HTML 500 fails the auto schema check with a ≤ 300-char excerpt', async () => {
    const schemas = fakeSchemas(() => ({ operation: 'x.get', schemaId: undefined, knownStatuses: [200] }));
    const r = await run(scenarioFromYaml(single('/html')), makeTarget(stub.url), { schemas });
    const m = /body: (.*)$/.exec(r.error?.message ?? '');
    assert.ok(m, r.error?.message);
    assert.match(r.error?.message ?? '', /→ 500: status 500 is not an answer operation x\.get may give/);
    assert.ok((m[1] ?? '').length <= 300 + 20, `excerpt too long: ${m[1]?.length}`);
    assert.match(m[1] ?? '', /^<html><body>Internal error/);
  });

  it('non-JSON for a known schema fails as "not JSON"', async () => {
    const schemas = fakeSchemas(() => ({ operation: 'x.get', schemaId: 'thing', knownStatuses: [500] }));
    const r = await run(scenarioFromYaml(single('/html')), makeTarget(stub.url), { schemas });
    assert.match(r.error?.message ?? '', /expected a JSON body for x\.get, got text\/html/);
  });

  it('a connection reset fails readably and redacts the message', async () => {
    const r = await run(scenarioFromYaml(single('/reset')), makeTarget(stub.url), { redact: (s) => s.replace(/127\.0\.0\.1/g, '[host]') });
    assert.ok(r.error);
    assert.match(r.error.message, /^GET http:\/\/\[host\]:\d+\/api\/v1\/reset failed/);
  });
});

describe('engine bounds: the scenario bound nests the step bounds', () => {
  // R 200 ms, S 1000 ms: endless empty pages (max_pages 10000 × R would be 2000 s) end at S.
  const tight = () => makeTarget(stub.url, { requestMs: 200, scenarioMs: 1_000, maxPages: 100_000 });

  it('endless empty pages end at scenario_ms with an error naming the exchange and the step line', async () => {
    const target = tight();
    const r = await run(scenarioFromYaml(paginate('/empty-forever', 10_000)), target);
    const e = r.error as { code?: string; location?: { line: number } } | undefined;
    assert.equal(e?.code, 'FTF_E_BOUND_EXCEEDED', r.error?.message);
    assert.match(r.error?.message ?? '', /the scenario bound \(timeouts\.scenario_ms 1000 ms\) ran out (before GET \{api_url\}\/empty-forever|during step "paginate GET \/empty-forever[^"]*": GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/empty-forever)/);
    assert.equal(e?.location?.line, 6, 'the paginate step of the YAML');
    assert.ok(r.elapsedMs <= testTimeoutMs(target.timeouts), `took ${r.elapsedMs} ms, over the test bound ${testTimeoutMs(target.timeouts)} ms`);
  });

  it('a wait longer than the scenario is cut at the scenario bound', async () => {
    const target = tight();
    const r = await run(scenarioFromYaml('id: t.wait\ntitle: w\ncovers: [T-ONE]\nsteps:\n  - wait: { ms: 60000 }\n'), target);
    assert.equal((r.error as { code?: string }).code, 'FTF_E_BOUND_EXCEEDED');
    assert.match(r.error?.message ?? '', /ran out while step "wait up to 60000 ms" waited/);
    assert.ok(r.elapsedMs <= testTimeoutMs(target.timeouts), `took ${r.elapsedMs} ms`);
  });

  it('a step that starts after the bound names itself (fake clock)', async () => {
    let now = 0;
    const yaml = 'id: t.late\ntitle: l\ncovers: [T-ONE]\nsteps:\n  - set: { a: 1 }\n  - set: { b: 2 }\n';
    const r = await run(scenarioFromYaml(yaml), makeTarget(stub.url), { now: () => (now += 6_000) });
    assert.match(r.error?.message ?? '', /ran out before step "set b"/);
    assert.equal((r.error as { location?: { line: number } }).location?.line, 6);
  });

  it('a poll whose deadline outlives the scenario ends at the scenario bound (fake clock)', async () => {
    let now = 0;
    const r = await run(scenarioFromYaml(poll('/never', 100_000, 1_000)), makeTarget(stub.url, { scenarioMs: 5_000 }), {
      now: () => now,
      sleep: async (ms) => {
        now += ms;
      },
    });
    assert.match(r.error?.message ?? '', /scenario bound \(timeouts\.scenario_ms 5000 ms\) ran out (while step|before GET)/);
  });
});

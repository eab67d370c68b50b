/**
 * Engine additions for the resources/webhooks/errors catalogue: parallel `for_each`, the `listen` and `wait`
 * steps, deferred clean-up, and the fill_path / repeat expression functions.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { targetOnLoopback } from '../../src/harness/engine/steps/listen.js';
import { evaluate } from '../../src/harness/expressions/index.js';
import { json, makeTarget, run, scenarioFromYaml, startStub, type Stub } from './engine-helpers.js';

let stub: Stub;
/** The stub plays a target that calls back the URL it is given (POST /api/v1/hook {url}). */
before(async () => {
  stub = await startStub((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'GET' && url.pathname.startsWith('/api/v1/item/')) return json(res, 200, { got: decodeURIComponent(url.pathname.slice('/api/v1/item/'.length)) });
    if (req.method === 'POST' && url.pathname === '/api/v1/hook') {
      const { url: hook, deliver } = JSON.parse(req.body) as { url: string; deliver: boolean };
      if (!deliver) return json(res, 200, {});
      const out = httpRequest(hook, { method: 'POST', headers: { 'content-type': 'application/json' } }, (r) => {
        r.resume();
        r.on('end', () => json(res, 200, { delivered: r.statusCode }));
      });
      out.end(JSON.stringify({ eventType: 'SUBSCRIBED' }));
      return;
    }
    return json(res, 404, { detail: 'Not Found' });
  });
});
after(() => stub.close());

describe('parallel for_each', () => {
  it('sends one request per element; the template sees item and i', async () => {
    const scenario = scenarioFromYaml(`
id: t.foreach
title: for each
covers: [T-ONE]
vars: { things: [{ uid: a }, { uid: b }, { uid: 'c d' }] }
steps:
  - parallel:
      for_each: things
      request: { method: GET, path: "/item/\${item.uid}-\${i}" }
      as: got
      expect_all: { status: 200 }
      where: "pluck(results, '/body/got') == ['a-0', 'b-1', 'c d-2']"
`);
    const r = await run(scenario, makeTarget(stub.url));
    assert.equal(r.error, undefined, r.error?.message);
    assert.equal((r.outcome?.vars.got as unknown[]).length, 3);
  });

  it('an empty list sends nothing; a non-list and more than 100 elements fail readably', async () => {
    const empty = scenarioFromYaml(`
id: t.foreach-empty
title: empty
covers: [T-ONE]
vars: { things: [] }
steps:
  - parallel: { for_each: things, request: { method: GET, path: "/item/\${item}" }, as: got, where: len(results) == 0 }
`);
    const r1 = await run(empty, makeTarget(stub.url));
    assert.equal(r1.error, undefined, r1.error?.message);
    const notList = scenarioFromYaml(`
id: t.foreach-bad
title: not a list
covers: [T-ONE]
vars: { things: 3 }
steps:
  - parallel: { for_each: things, request: { method: GET, path: "/item/\${item}" } }
`);
    const r2 = await run(notList, makeTarget(stub.url));
    assert.match(r2.error?.message ?? '', /for_each `things` gave number, not a list/);
    const big = scenarioFromYaml(`
id: t.foreach-big
title: too many
covers: [T-ONE]
vars: { things: [${Array.from({ length: 101 }, (_, i) => i).join(', ')}] }
steps:
  - parallel: { for_each: things, request: { method: GET, path: "/item/\${item}" } }
`);
    const r3 = await run(big, makeTarget(stub.url));
    assert.match(r3.error?.message ?? '', /gave 101 elements; at most 100/);
    assert.equal(stub.requests.filter((q) => q.url === '/api/v1/item/100').length, 0, 'nothing is sent when the bound is hit');
  });

  it('the loader rejects count together with for_each and item outside for_each', () => {
    assert.throws(() => scenarioFromYaml(`
id: t.foreach-both
title: both
covers: [T-ONE]
steps:
  - parallel: { count: 2, for_each: '[1]', request: { method: GET, path: /x } }
`), /does not match any allowed form|must match exactly one/);
    assert.throws(() => scenarioFromYaml(`
id: t.item-outside
title: item without for_each
covers: [T-ONE]
steps:
  - parallel: { count: 2, request: { method: GET, path: "/x/\${item}" } }
`), /item/);
  });
});

const WAIT_MS = 5000;

describe('listen + wait', () => {
  it('records a callback the target makes; wait stops early once until is true; the listener closes at the end', async () => {
    const scenario = scenarioFromYaml(`
id: t.listen
title: listen
covers: [T-ONE]
steps:
  - listen: { as: hook, max_ms: 5000 }
  - request: { method: POST, path: /hook, json: { url: '\${hook.url}', deliver: true } }
  - wait: { ms: ${WAIT_MS}, until: len(hook.requests) > 0 }
  - expect:
      where:
        - len(hook.requests) == 1
        - hook.requests[0].method == 'POST'
        - hook.requests[0].body == '{"eventType":"SUBSCRIBED"}'
        - starts_with(hook.requests[0].path, '/ftf-callback/')
`);
    const r = await run(scenario, makeTarget(stub.url));
    assert.equal(r.error, undefined, r.error?.message);
    // Without the early stop the wait alone takes WAIT_MS: below it means it stopped early, however busy the machine.
    assert.ok(r.elapsedMs < WAIT_MS, `wait should stop early, took ${r.elapsedMs} ms`);
    const url = (r.outcome?.vars.hook as { url: string }).url;
    await assert.rejects(fetch(url, { method: 'POST' }), 'the listener is closed once the scenario ends');
  });

  it('a "nothing arrived" check fails when the target does call back', async () => {
    const scenario = scenarioFromYaml(`
id: t.listen-none
title: nothing arrives
covers: [T-ONE]
steps:
  - listen: { as: hook }
  - request: { method: POST, path: /hook, json: { url: '\${hook.url}', deliver: true } }
  - wait: { ms: 300, until: len(hook.requests) > 0 }
  - fail_if: len(hook.requests) > 0
    message: 'delivered \${len(hook.requests)} request(s)'
`);
    const r = await run(scenario, makeTarget(stub.url));
    assert.match(r.error?.message ?? '', /delivered 1 request\(s\)/);
  });

  it('wait without until waits the full time on the injected clock and never fails', async () => {
    let now = 0;
    const slept: number[] = [];
    const scenario = scenarioFromYaml(`
id: t.wait
title: wait
covers: [T-ONE]
steps:
  - wait: { ms: 100 }
`);
    const r = await run(scenario, makeTarget(stub.url), {
      now: () => now,
      sleep: async (ms) => {
        slept.push(ms);
        now += ms;
      },
    });
    assert.equal(r.error, undefined, r.error?.message);
    assert.equal(slept.reduce((a, b) => a + b, 0), 100);
  });

  it('refuses a target that is not on the loopback (the check would pass vacuously)', async () => {
    const scenario = scenarioFromYaml(`
id: t.listen-remote
title: remote
covers: [T-ONE]
steps:
  - listen: { as: hook }
`);
    const target = { ...makeTarget(stub.url), baseUrl: 'https://sandbox.example.com/api/v1' };
    const r = await run(scenario, target);
    assert.match(r.error?.message ?? '', /not on the harness's loopback/);
    assert.equal((r.error as { code?: string }).code, 'FTF_E_CAPABILITY_MISSING');
    assert.equal(targetOnLoopback('http://localhost:8080/api/v1'), true);
    assert.equal(targetOnLoopback('http://[::1]:8080/api/v1'), true);
    assert.equal(targetOnLoopback('http://10.0.0.1/api/v1'), false);
  });
});

describe('fill_path and repeat', () => {
  it('fill_path URL-encodes each value and names a missing placeholder', () => {
    assert.equal(evaluate("fill_path('/holding/{entity_code}/{holding_uid}', 'entity_code', 'ENT A', 'holding_uid', 'x/y')", {}), '/holding/ENT%20A/x%2Fy');
    assert.equal(evaluate("fill_path('/cell/{code}', 'code', 'é')", {}), '/cell/%C3%A9');
    assert.throws(() => evaluate("fill_path('/cell/{code}', 'name', 'x')", {}), /no value for \{code\}/);
    assert.throws(() => evaluate("fill_path('/cell/{code}', 'code')", {}), /name\/value pairs/);
  });

  it('repeat builds bounded strings', () => {
    assert.equal(evaluate("repeat('ab', 3)", {}), 'ababab');
    assert.equal(evaluate("len(repeat('x', 1048576))", {})?.toString(), '1048576');
    assert.throws(() => evaluate("repeat('x', -1)", {}), /whole count/);
    assert.throws(() => evaluate("repeat('xx', 10000000)", {}), /at most/);
  });
});

describe('object, flatten and slice', () => {
  it('object builds a map with computed names; flatten removes one level; slice cuts', () => {
    assert.deepEqual(evaluate("object('url', 'http://x')", {}), { url: 'http://x' });
    assert.equal(evaluate("object('url', 'http://x', 'n', 2).n == 2", {}), true);
    assert.deepEqual(evaluate("keys(object(f, 1))", { f: 'indicationUid' }), ['indicationUid']);
    assert.throws(() => evaluate("object('a')", {}), /name\/value pairs/);
    assert.deepEqual(evaluate('flatten(x)', { x: [[1], [], [2, 3], 4] }), [1, 2, 3, 4]);
    assert.deepEqual(evaluate('slice(x, 1)', { x: ['a', 'b', 'c'] }), ['b', 'c']);
    assert.deepEqual(evaluate('slice(x, 0, 2)', { x: ['a', 'b', 'c'] }), ['a', 'b']);
    assert.throws(() => evaluate('slice(3, 1)', {}), /needs a list/);
  });
});

describe('fail_if message', () => {
  it('is rendered only when the condition holds (it may read what exists only then)', async () => {
    const scenario = scenarioFromYaml(`
id: t.fail-if-lazy
title: lazy message
covers: [T-ONE]
vars: { items: [] }
steps:
  - fail_if: len(items) > 0
    message: 'first: \${items[0].name}'
`);
    const r = await run(scenario, makeTarget(stub.url));
    assert.equal(r.error, undefined, r.error?.message);
  });
});

/**
 * Malformed input never answers 5xx and every error body is spec-shaped ({detail: string} or the 422 shape):
 * hand-picked cases plus a fast-check fuzz of methods, paths, queries, headers and bodies (>= 600 requests).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { assertDetail, assertSpecError, newKey, startRef, type Ref } from './helpers.js';

describe('robustness', () => {
  let ref: Ref;
  let alice: string;
  before(async () => {
    ref = await startRef({ events: 200 });
    alice = await ref.token('cc-alice');
  });
  after(() => ref.close());

  const post = (path: string, raw: string | Buffer, contentType: string) =>
    ref.api('POST', path, { token: alice, raw, headers: { 'content-type': contentType, 'idempotency-key': newKey() } });

  it('malformed JSON is 400, an empty JSON body is 400, a wrong content type is 415', async () => {
    assertDetail(await post('/subscribe', '{"amount": ', 'application/json'), 400, 'Malformed JSON body.');
    assertDetail(await post('/subscribe', '', 'application/json'), 400);
    assertDetail(await post('/subscribe', '<x/>', 'application/xml'), 415);
    assertDetail(await post('/subscribe', 'amount=1', 'application/x-www-form-urlencoded'), 415);
    assertDetail(await post('/subscribe', '{"__proto__": {"x": 1}}', 'application/json'), 400);
  });

  it('an oversized body is 413 {detail}', async () => {
    const big = JSON.stringify({ indicationUid: 'x'.repeat(70 * 1024), entityCode: 'ENT-ALPHA', amount: 1 });
    assertDetail(await post('/subscribe', big, 'application/json'), 413);
  });

  it('bad path values are 4xx {detail}', async () => {
    assertDetail(await ref.api('GET', '/holding/%ZZ/x', { token: alice }), 400);
    assertDetail(await ref.api('GET', `/holding/ENT-ALPHA/${'a'.repeat(300)}`, { token: alice }), 404);
    const odd = await ref.api('GET', '/holding/ENT-ALPHA/%F0%9F%92%A9', { token: alice });
    assert.equal(odd.status, 422);
  });

  it('fuzz: 600+ generated requests never answer 5xx and always give spec-shaped error bodies', async () => {
    const carol = await ref.token('cc-carol-readonly');
    const ind = (await ref.api('GET', '/indication/FTF-FIX-1M', { token: alice })).body;
    const cursor = (await ref.api('GET', '/event?limit=1', { token: alice })).body.events[0].cursor;
    const seg = fc.oneof(
      fc.constantFrom('ENT-ALPHA', 'ENT-BETA', 'ENT-GAMMA', 'FTF-FIX-1M', 'CELL-ONE', 'cp1', ind.uid, ''),
      fc.string({ maxLength: 40 }).map(encodeURIComponent),
      fc.constantFrom('%', '%ZZ', '..', '%00', 'a'.repeat(300)),
    );
    const path = fc.oneof(
      fc.constantFrom('/health', '/cell', '/entity', '/indication', '/holiday', '/event', '/event/checkpoint', '/subscribe', '/subscription', '/webhook'),
      seg.map((s) => `/cell/${s}`), seg.map((s) => `/entity/${s}`), seg.map((s) => `/entity/${s}/user`),
      seg.map((s) => `/holding/${s}`), fc.tuple(seg, seg).map(([a, b]) => `/holding/${a}/${b}`),
      fc.tuple(seg, seg).map(([a, b]) => `/holding/${a}/${b}/extension`), seg.map((s) => `/indication/${s}`),
      seg.map((s) => `/event/checkpoint/${s}`), seg.map((s) => `/${s}`),
    );
    const queryValue = fc.oneof(fc.string({ maxLength: 30 }), fc.integer().map(String), fc.constantFrom(cursor, 'ev1.', 'ENT-ALPHA', 'ENT-GAMMA', 'ISSUED', '1000', '0'));
    const query = fc.array(fc.tuple(fc.constantFrom('limit', 'start_cursor', 'end_cursor', 'entity_code', 'event_type', 'country', 'x'), queryValue), { maxLength: 4 })
      .map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&')}` : ''));
    const jsonBody = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
      fc.record({
        indicationUid: fc.oneof(fc.constant(ind.uid), fc.string()), entityCode: fc.constantFrom('ENT-ALPHA', 'ENT-BETA', 'ENT-GAMMA', 'X'),
        amount: fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.string()),
        subscriptionDate: fc.oneof(fc.constantFrom('2026-03-02', '2026-03-04', '2026-02-30', 'x'), fc.string()),
        expectedCheckpointVersion: fc.string(), newCursor: fc.constantFrom(cursor, 'ev1.x', ''), url: fc.constantFrom('https://a.test/x', 'nope'),
      }, { requiredKeys: [] }).map((v) => JSON.stringify(v)),
      fc.string({ maxLength: 60 }),
    );
    const request = fc.record({
      method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'GET', 'POST'),
      path, query,
      token: fc.constantFrom<string | undefined>(alice, alice, alice, carol, undefined, 'garbage'),
      contentType: fc.constantFrom<string | undefined>('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/xml', 'application/x-www-form-urlencoded', undefined, 'application/json; charset=latin1'),
      idempotencyKey: fc.option(fc.oneof(fc.uuid(), fc.stringMatching(/^[ -~]{0,300}$/)), { nil: undefined }),
      body: fc.option(jsonBody, { nil: undefined }),
    });
    let count = 0;
    const statuses = new Set<number>();
    await fc.assert(fc.asyncProperty(request, async (r) => {
      count += 1;
      const headers: Record<string, string> = {};
      if (r.contentType && r.body !== undefined) headers['content-type'] = r.contentType;
      if (r.idempotencyKey !== undefined) headers['idempotency-key'] = r.idempotencyKey;
      const sendBody = r.body !== undefined && r.method !== 'GET';
      const res = await ref.api(r.method, r.path + r.query, { token: r.token, headers, raw: sendBody ? r.body : undefined });
      statuses.add(res.status);
      assert.ok(res.status < 500, `${r.method} ${r.path}${r.query} -> ${res.status} ${res.text}`);
      if (res.status >= 400) assertSpecError(res);
    }), { numRuns: 650 });
    assert.ok(count >= 600);
    // the generator reaches the handlers, not only the auth hook and the router
    for (const s of [200, 400, 401, 403, 404, 422]) assert.ok(statuses.has(s), `no ${s} among ${[...statuses].join(',')}`);
  });
});

describe('check order before body parsing', () => {
  it('read-only 403 and missing Idempotency-Key 400 come before malformed/oversized bodies', async () => {
    const ref = await startRef();
    try {
      const carol = await ref.token('cc-carol-readonly');
      const alice = await ref.token('cc-alice');
      assertDetail(await ref.api('POST', '/subscribe', { token: carol, raw: '{bad', headers: { 'content-type': 'application/json' } }), 403,
        'Endpoint not enabled for this API user.');
      assertDetail(await ref.api('PATCH', '/event/checkpoint/x', { token: carol, raw: 'x'.repeat(70_000), headers: { 'content-type': 'application/json' } }), 403);
      assertDetail(await ref.api('POST', '/subscribe', { token: alice, raw: '{bad', headers: { 'content-type': 'application/json' } }), 400,
        'Idempotency-Key header is required.');
    } finally {
      await ref.close();
    }
  });
});

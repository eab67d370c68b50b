/**
 * The client graders on hand-made exchanges: each can pass, fail, and say "not judged"; the time-based ones
 * hold on a stalled machine (a stall only lengthens gaps, so it never makes a breach).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pollInterval } from '../../src/harness/client/graders/polling.js';
import { eventResume } from '../../src/harness/client/graders/events.js';
import { idemRetrySameKey, retryBackoff } from '../../src/harness/client/graders/subscribe.js';
import { refreshBeforeExpiry, renewAfter401 } from '../../src/harness/client/graders/tokens.js';
import { stalledWithin, watchStalls } from '../../src/harness/client/stalls.js';
import { loadPlan } from '../../src/harness/client/plan.js';
import type { ClientExchange, GraderResult } from '../../src/harness/client/types.js';

const plan = loadPlan('full');
let seq = 0;
function ex(atMs: number, method: string, path: string, over: Partial<ClientExchange> = {}): ClientExchange {
  return { seq: ++seq, atMs, environment: 'sandbox', credential: 'cc-alice', method, path, query: {}, headers: { authorization: 'Bearer [REDACTED:ACCESS_TOKEN_1]' }, status: 200, responseHeaders: {}, dropped: false, challenge: null, ...over };
}
function run(list: (() => ClientExchange)[]): ClientExchange[] {
  seq = 0;
  return list.map((f) => f());
}
const breaches = (r: GraderResult): number => (r.judged ? r.breaches.length : -1);
const sub = (at: number, key: string, over: Partial<ClientExchange> = {}) => () => ex(at, 'POST', '/api/v1/subscribe', { headers: { authorization: 'Bearer [REDACTED:ACCESS_TOKEN_1]', 'idempotency-key': key }, body: { indicationUid: 'u', entityCode: 'ENT-ALPHA', amount: 5000000 }, responseBody: { uid: 's1' }, ...over });

test('CL-IDEM-RETRY-SAME-KEY: a lost answer retried with a new key breaks it, with the same key passes, none: not judged', () => {
  assert.equal(breaches(idemRetrySameKey.grade({ plan, exchanges: run([sub(0, 'a', { dropped: true }), sub(500, 'b')]) })), 1);
  assert.equal(breaches(idemRetrySameKey.grade({ plan, exchanges: run([sub(0, 'a', { dropped: true }), sub(500, 'a')]) })), 0);
  assert.equal(idemRetrySameKey.grade({ plan, exchanges: run([sub(0, 'a')]) }).judged, false);
});

const poll = (at: number) => () => ex(at, 'GET', '/api/v1/subscription', { query: { entity_code: 'ENT-ALPHA' }, responseBody: [{ uid: 's1', status: 'Pending', holdingUid: null }] });
const s = (planSeconds: number) => planSeconds * plan.timeScale * 1000;

test('CL-POLL-INTERVAL: too often breaks it; one stalled gap does not; every gap too long does', () => {
  assert.equal(breaches(pollInterval.grade({ plan, exchanges: run([sub(0, 'a'), poll(s(35)), poll(s(36)), poll(s(37))]) })), 1);
  assert.equal(breaches(pollInterval.grade({ plan, exchanges: run([sub(0, 'a'), poll(s(35)), poll(s(70)), poll(s(200))]) })), 0);
  assert.equal(breaches(pollInterval.grade({ plan, exchanges: run([sub(0, 'a'), poll(s(35)), poll(s(125)), poll(s(215))]) })), 1);
});

const indication500 = (at: number, status: number) => () => ex(at, 'GET', '/api/v1/indication/FTF-FIX-1M', { status });

test('CL-RETRY-BACKOFF: retry n waits n x the minimum; a constant short delay and a tight loop break it', () => {
  assert.equal(breaches(retryBackoff.grade({ plan, exchanges: run([indication500(0, 500), indication500(200, 500), indication500(600, 200)]) })), 0);
  assert.equal(breaches(retryBackoff.grade({ plan, exchanges: run([indication500(0, 500), indication500(150, 500), indication500(300, 200)]) })), 1);
  assert.equal(breaches(retryBackoff.grade({ plan, exchanges: run([indication500(0, 500), indication500(2, 500), indication500(4, 200)]) })), 1);
});

test('CL-401-RENEW: the refused token sent again breaks it', () => {
  const refused = () => ex(0, 'GET', '/api/v1/event', { status: 401 });
  assert.equal(breaches(renewAfter401.grade({ plan, exchanges: run([refused, () => ex(10, 'GET', '/api/v1/event')]) })), 1);
  assert.equal(breaches(renewAfter401.grade({ plan, exchanges: run([refused, () => ex(10, 'GET', '/api/v1/event', { headers: { authorization: 'Bearer [REDACTED:ACCESS_TOKEN_2]' } })]) })), 0);
});

test('CL-EVENT-RESUME: a second run without start_cursor breaks it; from the last page end passes', () => {
  const page = (at: number, start: string | undefined, end: string, more: boolean) => () =>
    ex(at, 'GET', '/api/v1/event', { query: start ? { start_cursor: start } : {}, responseBody: { events: [{ cursor: end }], pageInfo: { hasNextPage: more, pageEndCursor: end, limit: 10 } } });
  assert.equal(breaches(eventResume.grade({ plan, exchanges: run([page(0, undefined, 'c1', true), page(1, 'c1', 'c2', false), page(2, undefined, 'c1', false)]) })), 1);
  assert.equal(breaches(eventResume.grade({ plan, exchanges: run([page(0, undefined, 'c1', true), page(1, 'c1', 'c2', false), page(2, 'c2', 'c3', false)]) })), 0);
  assert.equal(eventResume.grade({ plan, exchanges: run([page(0, undefined, 'c1', false)]) }).judged, false);
});

test('stalls of the grading process excuse lateness, never haste: CL-POLL-INTERVAL too seldom, CL-TOKEN-REFRESH-BEFORE-EXPIRY', () => {
  // One gap of 90 plan seconds: too seldom, unless the grading process was stalled for 40 of them.
  const slow = () => run([sub(0, 'a'), poll(s(35)), poll(s(125))]);
  assert.equal(breaches(pollInterval.grade({ plan, exchanges: slow() })), 1);
  assert.equal(breaches(pollInterval.grade({ plan, exchanges: slow(), stalls: [{ fromMs: s(60), toMs: s(100) }] })), 0);
  // A stall never excuses polling too often.
  assert.equal(breaches(pollInterval.grade({ plan, exchanges: run([sub(0, 'a'), poll(s(35)), poll(s(36))]), stalls: [{ fromMs: 0, toMs: s(200) }] })), 1);
  // A token used 1 s after its expiry: late, unless the grading process was stalled over that second.
  const lifetimeMs = 6_000;
  const token = () => ex(0, 'POST', '/oauth/token', { headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: 'Basic [REDACTED:BASIC(CLIENT_SECRET_cc-alice)]' }, body: { grant_type: 'client_credentials' }, responseBody: { access_token: '[REDACTED:ACCESS_TOKEN_1]', expires_in: lifetimeMs / 1000 } });
  const late = () => run([token, () => ex(lifetimeMs + 1_000, 'GET', '/api/v1/event')]);
  assert.equal(breaches(refreshBeforeExpiry.grade({ plan, exchanges: late() })), 1);
  assert.equal(breaches(refreshBeforeExpiry.grade({ plan, exchanges: late(), stalls: [{ fromMs: lifetimeMs - 500, toMs: lifetimeMs + 900 }] })), 0);
  assert.equal(stalledWithin([{ fromMs: 0, toMs: 100 }, { fromMs: 150, toMs: 300 }], 50, 200), 100);
});

test('watchStalls sees its own event loop blocked', async () => {
  const origin = performance.now();
  const watch = watchStalls(origin);
  await new Promise((r) => setTimeout(r, 50));
  const until = performance.now() + 200;
  while (performance.now() < until) { /* the process is busy: no timer runs */ }
  await new Promise((r) => setTimeout(r, 50));
  watch.stop();
  assert.ok(watch.stalls.some((x) => x.toMs - x.fromMs >= 150), JSON.stringify(watch.stalls));
});

/**
 * Counterexample text of the paging properties (src/harness/properties/counterexample.ts): URLs relative to the
 * bases, one line per request with a page summary, token requests and headers never shown.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFailure, formatRequestLines, relativeUrl, type Bases } from '../../src/harness/properties/counterexample.js';
import type { Exchange } from '../../src/harness/http/types.js';

const BASES: Bases = { baseUrl: 'http://127.0.0.1:4000/api/v1', authUrl: 'http://127.0.0.1:4000', controlUrl: 'http://127.0.0.1:4000/_sandbox' };

function exchange(id: number, method: string, url: string, status: number, json: unknown, body?: string): Exchange {
  return {
    id,
    label: `step ${id}`,
    startedAt: '2026-03-02T08:00:00.000Z',
    durationMs: 1,
    request: { method, url, headers: { authorization: 'Bearer [REDACTED:FTF_PRIMARY_ACCESS_TOKEN]' }, timeoutMs: 1000, ...(body ? { body } : {}) },
    response: { status, headers: {}, bodyText: JSON.stringify(json), json, durationMs: 1 },
    curl: 'curl …',
  };
}

const PAGE = {
  events: [{ uid: 'uid-a', cursor: 'ev1.a' }, { uid: 'uid-b', cursor: 'ev1.b' }],
  pageInfo: { hasNextPage: true, limit: 2, totalCount: 5, pageEndCursor: 'ev1.b', endCursor: 'ev1.z' },
};
const label = (u: string) => ({ 'uid-a': '#3', 'uid-b': '#4' })[u] ?? `new:${u}`;

const EXCHANGES: Exchange[] = [
  exchange(1, 'POST', 'http://127.0.0.1:4000/oauth/token', 200, { access_token: '[REDACTED]' }, 'grant_type=client_credentials'),
  exchange(2, 'GET', 'http://127.0.0.1:4000/api/v1/event?start_cursor=ev1.s&end_cursor=ev1.f&limit=2', 200, PAGE),
  exchange(3, 'POST', 'http://127.0.0.1:4000/_sandbox/events', 200, { appended: 2 }, '{"count":2}'),
];

describe('relativeUrl', () => {
  it('makes API URLs relative to base_url and names the other bases', () => {
    assert.equal(relativeUrl('http://127.0.0.1:4000/api/v1/event?limit=2', BASES), '/event?limit=2');
    assert.equal(relativeUrl('http://127.0.0.1:4000/_sandbox/events', BASES), '{control_url}/events');
    assert.equal(relativeUrl('http://127.0.0.1:4000/oauth/token', BASES), '{auth_url}/oauth/token');
    assert.equal(relativeUrl('http://elsewhere/x', BASES), 'http://elsewhere/x');
    assert.equal(relativeUrl('http://127.0.0.1:4000/api/v1', { baseUrl: 'http://127.0.0.1:4000/api/v1/' }), '/');
  });
});

describe('formatRequestLines', () => {
  it('one line per request with the page summary; token requests are left out', () => {
    const lines = formatRequestLines(EXCHANGES, BASES, label);
    assert.equal(lines.length, 2);
    assert.equal(lines[0],
      '  1. GET /event?start_cursor=ev1.s&end_cursor=ev1.f&limit=2 → 200: 2 events #3 #4, hasNextPage=true, limit=2, totalCount=5, pageEndCursor=ev1.b, endCursor=ev1.z   [step 2]');
    assert.equal(lines[1], '  2. POST {control_url}/events {"count":2} → 200   [step 3]');
  });

  it('long pages show their first and last events', () => {
    const many = { events: Array.from({ length: 20 }, (_, i) => ({ uid: `uuid-${String(i).padStart(2, '0')}-tail` })), pageInfo: { hasNextPage: false, limit: 1000 } };
    const line = formatRequestLines([exchange(4, 'GET', 'http://127.0.0.1:4000/api/v1/event', 200, many)], BASES)[0] ?? '';
    assert.match(line, /: 20 events uuid-00- uuid-01- uuid-02- uuid-03- … uuid-17- uuid-18- uuid-19- \(20 events\), hasNextPage=false/);
  });

  it('shows transport failures', () => {
    const failed: Exchange = { ...(EXCHANGES[1] as Exchange), error: { code: 'FTF_E_TARGET_TIMEOUT', message: 'no answer in 1000 ms' } };
    delete failed.response;
    assert.match(formatRequestLines([failed], BASES)[0] ?? '', /→ no response \(FTF_E_TARGET_TIMEOUT: no answer in 1000 ms\)/);
  });
});

describe('formatFailure', () => {
  const text = formatFailure({
    title: 'paging: walks',
    failure: '[EP-EVENT-PAGING] walk page 2: a duplicate',
    seed: -42,
    path: '3:0:1',
    numRuns: 4,
    numShrinks: 7,
    interrupted: false,
    counterexample: 'start_cursor #2, end_cursor #9, limit 3',
    exchanges: EXCHANGES,
    bases: BASES,
    label,
    command: 'npx playwright test specs/properties -g "paging: walks"',
  });

  it('carries the violation, seed, path, shrunk case, replay command and the requests', () => {
    assert.match(text, /^property "paging: walks" failed: \[EP-EVENT-PAGING\] walk page 2: a duplicate$/m);
    assert.match(text, /seed -42, path 3:0:1; failed after 4 run\(s\), shrunk 7 time\(s\)/);
    assert.match(text, /counterexample \(shrunk\): start_cursor #2, end_cursor #9, limit 3/);
    assert.match(text, /replay: FTF_FC_SEED=-42 FTF_FC_PATH=3:0:1 npx playwright test specs\/properties -g "paging: walks"/);
    assert.match(text, /1\. GET \/event\?start_cursor=ev1\.s&end_cursor=ev1\.f&limit=2 → 200: 2 events #3 #4/);
  });

  it('never shows headers or the token exchange', () => {
    assert.doesNotMatch(text, /authorization|Bearer \[|oauth\/token|grant_type/i);
  });

  it('says when shrinking was cut short and when there is no path', () => {
    const t = formatFailure({ title: 't', failure: 'f', seed: 1, path: null, numRuns: 1, numShrinks: 0, interrupted: true, counterexample: 'c', exchanges: [], bases: BASES, command: 'x' });
    assert.match(t, /path \(none\).*shrinking cut short by the time limit/);
    assert.match(t, /replay: FTF_FC_SEED=1 x/);
    assert.match(t, /\(none\)$/);
  });
});

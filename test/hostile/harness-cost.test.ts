/**
 * Unit tests of the harness changes made for speed and memory (docs/performance.md): the recorder redacts
 * only what the report keeps (and never leaves a partial secret at the cut), the redactor skips walking
 * JSON bodies that cannot hold a secret field, and paginate keeps pages/items only when something reads them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { retained } from '../../src/harness/engine/steps/paginate.js';
import { RecordingTransport } from '../../src/harness/http/recorder.js';
import { Redactor } from '../../src/harness/http/redactor.js';
import { memorySink } from '../../src/harness/http/sinks.js';
import type { HttpRequest, HttpResponse, Transport } from '../../src/harness/http/types.js';
import type { PaginateStep } from '../../src/harness/scenario/types.js';
import { json, makeTarget, run, scenarioFromYaml, startStub, type Stub } from '../harness/engine-helpers.js';

const SECRET = 'canary-secret-0123456789abcdef';

function fixed(bodyText: string): Transport {
  return {
    send: (_req: HttpRequest): Promise<HttpResponse> => Promise.resolve({ status: 200, headers: { 'content-type': 'application/json' }, bodyText, json: undefined, durationMs: 1 }),
  };
}

describe('recorder: redact only what the report keeps', () => {
  const MAX = 1000;
  for (const at of [0, MAX - 10, MAX - 1, MAX, MAX + 5, MAX + SECRET.length]) {
    it(`a secret at offset ${at} of a body over the cap leaves no 6-character piece of it in the report`, async () => {
      const body = `${'x'.repeat(at)}${SECRET}${'y'.repeat(5000)}`;
      const redactor = new Redactor();
      redactor.addSecret(SECRET, 'FTF_CANARY');
      const mem = memorySink();
      await new RecordingTransport(fixed(body), redactor, [mem], { maxReportBodyChars: MAX }).send({ method: 'GET', url: 'http://t.test/x', headers: {}, timeoutMs: 100 });
      const kept = mem.exchanges[0]?.response?.bodyText ?? '';
      assert.match(kept, /…\[truncated \d+ chars\]$/);
      assert.ok(kept.length <= MAX + 40, `kept ${kept.length} chars`);
      for (let i = 0; i + 6 <= SECRET.length; i++) assert.ok(!kept.includes(SECRET.slice(i, i + 6)), `piece ${SECRET.slice(i, i + 6)} of the secret leaked`);
      if (at + SECRET.length <= MAX - 40) assert.ok(kept.includes('[REDACTED:FTF_CANARY]'), 'a secret well inside the cap is shown redacted');
    });
  }

  it('a body under the cap is redacted whole and keeps its parsed JSON', async () => {
    const redactor = new Redactor();
    redactor.addSecret(SECRET, 'FTF_CANARY');
    const mem = memorySink();
    const text = JSON.stringify({ a: SECRET, b: 1 });
    await new RecordingTransport({ send: () => Promise.resolve({ status: 200, headers: {}, bodyText: text, json: JSON.parse(text) as unknown, durationMs: 1 }) }, redactor, [mem])
      .send({ method: 'GET', url: 'http://t.test/x', headers: {}, timeoutMs: 100 });
    assert.deepEqual(mem.exchanges[0]?.response?.json, { a: '[REDACTED:FTF_CANARY]', b: 1 });
  });
});

describe('redactor: the structural walk is skipped only when no secret field can be in the text', () => {
  it('learns from a token response, also when the key is spelled with a \\u escape', () => {
    const r = new Redactor();
    const text = '{"access_token":"tok-aaaaaaaaaaaa","expires_in":60}';
    r.learnFromBody(JSON.parse(text), text);
    assert.equal(r.redactText('x tok-aaaaaaaaaaaa'), 'x [REDACTED:ACCESS_TOKEN]');
    const escaped = '{"access\\u005ftoken":"tok-bbbbbbbbbbbb"}';
    r.learnFromBody(JSON.parse(escaped), escaped);
    assert.equal(r.redactText('tok-bbbbbbbbbbbb'), '[REDACTED:ACCESS_TOKEN]');
  });

  it('does not walk an event page (nothing to learn), and without rawText it walks as before', () => {
    const r = new Redactor();
    const page = { events: Array.from({ length: 3 }, (_, i) => ({ uid: `e${i}`, note: 'refresh-me' })) };
    r.learnFromBody(page, JSON.stringify(page));
    assert.equal(r.size, 0);
    r.learnFromBody({ nested: { refresh_token: 'rt-cccccccccccc' } });
    assert.equal(r.size, 1);
  });
});

describe('paginate: pages and items are retained only when readable', () => {
  const step = (extra: Partial<PaginateStep['paginate']>): PaginateStep['paginate'] =>
    ({ request: { method: 'GET', path: '/e' }, cursor: '/c', until: 'page.body.done == true', max_pages: 5, ...extra }) as PaginateStep['paginate'];

  it('decides from as:, until and the request template', () => {
    assert.deepEqual(retained(step({})), { pages: false, items: false });
    assert.deepEqual(retained(step({ as: 'paged' })), { pages: true, items: true });
    assert.deepEqual(retained(step({ until: 'len(items) >= 4' })), { pages: false, items: true });
    assert.deepEqual(retained(step({ until: '${len(pages) == 2}' })), { pages: true, items: false });
    assert.deepEqual(retained(step({ request: { method: 'GET', path: '/e', query: { n: '${len(pages)}' } } as PaginateStep['paginate']['request'] })), { pages: true, items: false });
  });

  let stub: Stub;
  before(async () => {
    stub = await startStub((req, res) => {
      if (req.url?.startsWith('/api/v1/loop')) return json(res, 200, { events: [], pageInfo: { hasNextPage: true, pageEndCursor: 'same' } });
      const start = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('start_cursor') ?? '0');
      const events = Array.from({ length: 9 }, (_, i) => ({ uid: `e${i}` })).slice(start, start + 3);
      json(res, 200, { events, pageInfo: { hasNextPage: start + 3 < 9, pageEndCursor: String(start + 3) } });
    });
  });
  after(() => stub.close());

  it('an until over items still sees every item; a step without as: still pages to the end', async () => {
    const yaml = (until: string, as = ''): string => `id: t.p\ntitle: p\ncovers: [T-ONE]\nsteps:\n  - paginate:\n      request: { method: GET, path: /e }\n      cursor: /pageInfo/pageEndCursor\n      items: /events\n      until: "${until}"\n      max_pages: 10\n${as}  - fail_if: last.body.events[0].uid != 'EXPECTED'\n`;
    const byItems = await run(scenarioFromYaml(yaml('len(items) >= 6').replace('EXPECTED', 'e3')), makeTarget(stub.url));
    assert.equal(byItems.error, undefined, byItems.error?.message);
    const toEnd = await run(scenarioFromYaml(yaml('page.body.pageInfo.hasNextPage == false').replace('EXPECTED', 'e6')), makeTarget(stub.url));
    assert.equal(toEnd.error, undefined, toEnd.error?.message);
  });

  it('a paging loop fails naming the method and the URL of the last page (readable like any exchange failure)', async () => {
    const r = await run(scenarioFromYaml('id: t.l\ntitle: l\ncovers: [T-ONE]\nsteps:\n  - paginate:\n      request: { method: GET, path: /loop }\n      cursor: /pageInfo/pageEndCursor\n      until: page.body.pageInfo.hasNextPage == false\n      max_pages: 10\n'), makeTarget(stub.url));
    assert.equal((r.error as { code?: string }).code, 'FTF_E_BOUND_EXCEEDED');
    assert.match(r.error?.message ?? '', new RegExp(`^paginate GET ${stub.url}/api/v1/loop\\?start_cursor=same: page 2 returned the cursor "same" again`));
  });
});

/**
 * The targeted variant matrix (issue 25; docs/variants.md, "Why a targeted variant run proves as much as a
 * full one"): the clean server records which variant questions each piece of work asks
 * (src/reference/variant-consults.ts), and a variant run takes every test whose recorded questions name it
 * (src/selftest/variant-targets.ts).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { buildReferenceApp } from '../../src/reference/app.js';
import type { ReferenceContext } from '../../src/reference/context.js';
import { API_PREFIX } from '../../src/reference/routes/index.js';
import { PERSONAS, VARIANTS } from '../../src/reference/variants.js';
import { closeConsultWindow, enableVariantConsults, openConsultWindow, resetVariantConsults } from '../../src/reference/variant-consults.js';
import { expandRun, keysOf, targetRuns } from '../../src/selftest/variant-targets.js';
import { oneWorker } from '../../src/selftest/plan.js';
import { readOutcome } from '../../src/harness/report/records/outcome.js';
import type { TestRecord } from '../../src/selftest/pw-report.js';
import { bearer, clientCredentialsToken } from '../reference/auth-helpers.js';

describe('the recording switchboard (clean reference)', () => {
  let app: FastifyInstance;
  let ctx: ReferenceContext;
  let token: string;
  let startup: string[];
  before(async () => {
    resetVariantConsults();
    enableVariantConsults();
    ({ app, ctx } = await buildReferenceApp({}));
    await app.ready();
    startup = closeConsultWindow().outside;
    token = await clientCredentialsToken(app, ctx, 'cc-alice').catch(async () => {
      // the token route lives under the API prefix
      const res = await app.inject({ method: 'POST', url: `${API_PREFIX}/oauth/token`, headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`cc-alice:${ctx.secrets.clients['cc-alice'] ?? ''}`).toString('base64')}` }, payload: 'grant_type=client_credentials' });
      return res.json<{ access_token: string }>().access_token;
    });
  });
  after(async () => {
    await app.close();
    resetVariantConsults();
  });

  const asked = async (method: 'GET' | 'PUT' | 'DELETE' | 'POST', url: string, payload?: unknown): Promise<string[]> => {
    openConsultWindow();
    await app.inject({ method, url: `${API_PREFIX}${url}`, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
    return closeConsultWindow().inWindow;
  };

  it('questions asked while the app is built and routes registered are outside any test: those variants run the whole suite', () => {
    for (const k of ['plural-paths', 'entity-in-query', 'holidays-by-year', 'opaque-ids', 'extra-fields']) assert.ok(startup.includes(k), `${k} asked at start-up`);
    // Decided once for their own routes (decideForRoutes): re-asked per request there, never outside.
    for (const k of ['point:webhook-delete-request', 'point:checkpoint-put-request', 'webhook-url-field', 'checkpoint-name-64', 'page-size-250', 'limit-param-page-size', 'page-limit-clamped']) {
      assert.ok(!startup.includes(k), `${k} is not asked outside a request`);
    }
  });

  it('a request records the questions its handling asks, in the open window only', async () => {
    assert.ok((await asked('DELETE', '/webhook')).includes('webhook-delete-url-null'));
    // Outside a window, a request's questions are `outside` (nothing is attributed to no test).
    await app.inject({ method: 'DELETE', url: `${API_PREFIX}/webhook`, headers: bearer(token) });
    assert.ok(closeConsultWindow().outside.includes('webhook-delete-url-null'));
  });

  it('a decision made once for a route is asked again by every request to that route (decideForRoutes)', async () => {
    assert.ok((await asked('DELETE', '/webhook')).includes('point:webhook-delete-request'));
    const webhookPost = await asked('POST', '/webhook', { url: 'https://hooks.example.test/x' });
    assert.ok(webhookPost.includes('webhook-url-field') && webhookPost.includes('point:webhook-post-status'));
    const put = await asked('PUT', '/event/checkpoint/targets-test');
    assert.ok(put.includes('point:checkpoint-put-request') && put.includes('checkpoint-name-64'), put.join(', '));
    const get = await asked('GET', '/event/checkpoint/targets-test');
    assert.ok(get.includes('checkpoint-name-64'));
    const events = await asked('GET', '/event?limit=1');
    for (const k of ['page-size-250', 'limit-param-page-size', 'page-limit-clamped']) assert.ok(events.includes(k), k);
  });
});

const rec = (title: string, consults?: { inWindow: string[]; outside: string[] }): TestRecord => ({
  project: 'clean', title, scenario: title, clauses: [], outcome: readOutcome({ annotations: [], lastStatus: 'passed' }), ...(consults ? { consults } : {}),
});

describe('targeting (variant-targets.ts)', () => {
  it('a targeted variant run takes one worker; the clean run, whole-suite runs and faults keep their spread', () => {
    assert.equal(oneWorker({ name: 'v', fault: null, variants: ['v'], only: ['a', 'b'] }), true);
    assert.equal(oneWorker({ name: 'v', fault: null, variants: ['v'] }), false);
    assert.equal(oneWorker({ name: 'clean', fault: null, only: ['a'] }), false);
    assert.equal(oneWorker({ name: 'f', fault: 'f', only: ['a'] }), false);
  });

  it('a persona is the union of its variants\' keys; a variant is its name and its point', () => {
    assert.deepEqual(keysOf(['indication-wrapped']), ['indication-wrapped', 'point:indication-record']);
    const persona = PERSONAS[0];
    assert.ok(persona);
    assert.deepEqual(expandRun(persona.name), [...persona.variants]);
  });

  it('whole suite when asked outside a test; the touching tests plus the unrecorded ones otherwise; unreached when nobody asks', () => {
    const clean = [
      rec('a', { inWindow: ['point:indication-record'], outside: [] }),
      rec('b', { inWindow: ['maximum-detail-other'], outside: ['opaque-ids'] }),
      rec('c'),
      rec('d', { inWindow: [], outside: [] }),
    ];
    const [wrapped, ids, maxDetail, expired] = targetRuns(['indication-wrapped', 'opaque-ids', 'maximum-detail-other', 'expired-uid-404'], clean);
    assert.deepEqual([wrapped?.scope, wrapped?.titles], ['targeted', ['a', 'c']]);
    assert.deepEqual([ids?.scope, ids?.titles], ['full', ['a', 'b', 'c', 'd']]);
    assert.deepEqual([maxDetail?.scope, maxDetail?.titles], ['targeted', ['b', 'c']]);
    assert.deepEqual([expired?.scope, expired?.titles], ['unreached', []]);
    // Under --grep (the clean run ran the selection only) a variant no selected test reaches is `unselected`, not a gap.
    assert.equal(targetRuns(['expired-uid-404'], clean, [], true)[0]?.scope, 'unselected');
    assert.equal(targetRuns(['indication-wrapped'], clean, [], true)[0]?.scope, 'targeted');
    // Start-up questions (the CLI's own build) count as outside too.
    assert.equal(targetRuns(['indication-wrapped'], clean, ['indication-wrapped'])[0]?.scope, 'full');
  });

  it('property: every test that asked about a run\'s variants (or holds no recording) is in the run, and only the run\'s questions decide it', () => {
    const names = [...VARIANTS.map((v) => v.name), ...PERSONAS.map((p) => p.name)];
    const allKeys = [...new Set(names.flatMap((n) => keysOf(expandRun(n))))];
    const keySet = fc.uniqueArray(fc.constantFrom(...allKeys), { maxLength: 6 });
    const test = fc.option(fc.record({ inWindow: keySet, outside: fc.uniqueArray(fc.constantFrom(...allKeys), { maxLength: 1 }) }), { nil: undefined });
    fc.assert(fc.property(fc.array(test, { minLength: 1, maxLength: 12 }), fc.subarray(names, { minLength: 1, maxLength: 5 }), (consults, runs) => {
      const clean = consults.map((c, i) => rec(`t${i}`, c));
      for (const t of targetRuns(runs, clean)) {
        const keys = new Set(keysOf(expandRun(t.name)));
        const outside = clean.some((r) => r.consults?.outside.some((k) => keys.has(k)));
        assert.equal(t.scope === 'full', outside, `${t.name}: whole suite exactly when asked outside a test`);
        if (t.scope === 'full') assert.deepEqual(t.titles, clean.map((r) => r.title));
        for (const r of clean) {
          const touches = r.consults === undefined || r.consults.inWindow.some((k) => keys.has(k));
          const touchesRecorded = r.consults !== undefined && r.consults.inWindow.some((k) => keys.has(k));
          if (touches && t.scope !== 'unreached') assert.ok(t.titles.includes(r.title), `${t.name} runs ${r.title}, which asks about it or holds no recording`);
          if (t.scope === 'targeted' && t.titles.includes(r.title)) assert.ok(touches, `${t.name} runs ${r.title} only because it asks about it (or holds no recording)`);
          if (touchesRecorded) assert.notEqual(t.scope, 'unreached');
        }
      }
    }), { numRuns: 300 });
  });
});

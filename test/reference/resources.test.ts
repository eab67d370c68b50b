/** Reference-data routes: health, cells, entities, entity users, holdings, extensions, holidays, indications. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assert422, assertDetail, startRef, type Ref } from './helpers.js';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

describe('reference-data routes', () => {
  let ref: Ref;
  let alice: string;
  before(async () => {
    ref = await startRef();
    alice = await ref.token('cc-alice');
  });
  after(() => ref.close());
  const get = (path: string, token = alice) => ref.api('GET', path, { token });

  it('every {base_url} route needs a token (401), unknown routes are 404 {detail:"Not Found"}', async () => {
    assertDetail(await ref.api('GET', '/health'), 401, 'Not authenticated');
    assertDetail(await ref.api('GET', '/health', { token: 'garbage' }), 401, 'Invalid or expired access token');
    assertDetail(await get('/nope'), 404, 'Not Found');
    assertDetail(await ref.call('POST', '/api/v1/oauth/token', { raw: 'grant_type=client_credentials', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 404, 'Not Found');
    assert.deepEqual((await get('/health')).body, { status: 'OK' });
  });

  it('the sandbox API key works as a bearer; production refuses it', async () => {
    const key = ref.ctx.secrets.apiKeys['alice@ftf.test'] ?? '';
    assert.equal((await get('/health', key)).status, 200);
    const prod = await startRef({ mode: 'production' });
    try {
      assert.equal((await prod.api('GET', '/health', { token: prod.ctx.secrets.apiKeys['alice@ftf.test'] ?? '' })).status, 401);
    } finally {
      await prod.close();
    }
  });

  it('cells: list and one, with documents and allowedObligors; unknown 404', async () => {
    const cells = (await get('/cell')).body;
    assert.ok(cells.length >= 2);
    for (const c of cells) {
      assert.equal(typeof c.code, 'string');
      assert.ok(c.documents.every((d: { name: unknown }) => typeof d.name === 'string'));
      assert.ok(Array.isArray(c.allowedObligors));
    }
    assert.equal((await get('/cell/CELL-ONE')).body.code, 'CELL-ONE');
    assertDetail(await get('/cell/CELL-NOPE'), 404, 'Cell not found');
  });

  it('entities: only allow-listed ones; 403 for others; users with Pending/Active status', async () => {
    const list = (await get('/entity')).body;
    assert.deepEqual(list.map((e: { code: string }) => e.code), ['ENT-ALPHA', 'ENT-BETA']);
    const alpha = (await get('/entity/ENT-ALPHA')).body;
    for (const f of ['code', 'name', 'status', 'type', 'currency']) assert.equal(typeof alpha[f], 'string', f);
    assert.equal(typeof alpha.onboarding, 'boolean');
    assert.ok(alpha.bankAccounts.every((b: { uid: string; lastDigits: string }) => typeof b.uid === 'string' && /^\d{4}$/.test(b.lastDigits)));
    assert.equal(alpha.users, undefined);
    assert.equal(typeof alpha.accountManager.email, 'string');
    assertDetail(await get('/entity/ENT-GAMMA'), 403, 'Not authorised for this entity');
    assertDetail(await get('/entity/ENT-NOPE'), 403, 'Not authorised for this entity');
    const users = (await get('/entity/ENT-ALPHA/user')).body;
    assert.ok(users.some((u: { status: string }) => u.status === 'Pending'));
    assert.ok(users.every((u: { user: string; permissions: unknown[]; status: string }) =>
      typeof u.user === 'string' && Array.isArray(u.permissions) && ['Pending', 'Active'].includes(u.status)));
    assertDetail(await get('/entity/ENT-GAMMA/user'), 403);
  });

  it('holdings: list, one, 404 for unknown or another entity\'s uid, extensions of an Extendable', async () => {
    const list = (await get('/holding/ENT-ALPHA')).body;
    assert.ok(list.length >= 5);
    const ext = list.find((h: { type: string }) => h.type === 'Extendable');
    assert.ok(ext);
    const one = (await get(`/holding/ENT-ALPHA/${ext.uid}`)).body;
    assert.deepEqual(one, ext);
    for (const f of ['cost', 'value', 'maturityValue']) assert.equal(typeof one[f], 'number');
    assert.match(one.issueDate, DATE);
    assert.match(one.cutoffDatetime, /[+-]\d{2}:\d{2}$/);
    const exts = (await get(`/holding/ENT-ALPHA/${ext.uid}/extension`)).body;
    assert.equal(exts.length, 2);
    for (const x of exts) {
      assert.match(x.date, DATE);
      assert.equal(typeof x.yield, 'number');
      assert.equal(typeof x.pricePerShare, 'number');
    }
    assertDetail(await get('/holding/ENT-ALPHA/does-not-exist'), 404, 'Holding not found');
    const beta = (await get('/holding/ENT-BETA')).body[0];
    assertDetail(await get(`/holding/ENT-ALPHA/${beta.uid}`), 404, 'Holding not found');
    assertDetail(await get('/holding/ENT-GAMMA'), 403, 'Not authorised for this entity');
    const statuses = new Set(list.map((h: { status: string }) => h.status));
    assert.ok(statuses.has('Issued') && statuses.has('Redeemed') && statuses.has('Cancelled'));
  });

  it('holidays, filtered by country', async () => {
    const all = (await get('/holiday')).body;
    assert.ok(all.length > 10);
    const gb = (await get('/holiday?country=GB')).body;
    assert.ok(gb.length > 0 && gb.every((h: { country: string; date: string }) => h.country === 'GB' && DATE.test(h.date)));
    assert422(await get('/holiday?country=%3Cscript%3E'), 'country');
  });

  it('indications: the three harness codes with minimum/maximum in millions and dates skipping weekends and holidays', async () => {
    const list = (await get('/indication')).body;
    const byCode = Object.fromEntries(list.map((i: { code: string }) => [i.code, i]));
    assert.deepEqual([byCode['FTF-FIX-1M'].minimum, byCode['FTF-FIX-1M'].maximum, byCode['FTF-FIX-1M'].enforceMaximum], [1, 50, true]);
    assert.deepEqual([byCode['FTF-FIX-FRAC'].minimum, byCode['FTF-FIX-FRAC'].maximum, byCode['FTF-FIX-FRAC'].enforceMaximum], [0.25, 5.5, false]);
    assert.deepEqual([byCode['FTF-EXT-6M'].type, byCode['FTF-EXT-6M'].minimum, byCode['FTF-EXT-6M'].maximum], ['Extendable', 2, 100]);
    const one = (await get('/indication/FTF-FIX-1M')).body;
    assert.deepEqual(one.subscriptionDates.slice(0, 5), ['2026-03-02', '2026-03-03', '2026-03-05', '2026-03-06', '2026-03-09']);
    assertDetail(await get('/indication/NOPE'), 404, 'Indication not found');
  });
});

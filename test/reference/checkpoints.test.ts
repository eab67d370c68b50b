/** Checkpoints (per user, CAS with 409) and webhooks (per user, never delivered). */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { assert422, assertDetail, startRef, type Ref } from './helpers.js';

describe('checkpoints', () => {
  let ref: Ref;
  let alice: string;
  let bob: string;
  before(async () => {
    ref = await startRef({ events: 50 });
    alice = await ref.token('cc-alice');
    bob = await ref.token('cc-bob');
  });
  after(() => ref.close());
  const cp = (method: string, name: string, token = alice, json?: unknown) => ref.api(method, `/event/checkpoint/${name}`, { token, json });

  it('PUT creates (201) at the head of the caller\'s stream; PUT again is 200 unchanged', async () => {
    const head = (await ref.api('GET', '/event?limit=1', { token: alice })).body.pageInfo.endCursor;
    const created = await cp('PUT', 'cycle');
    assert.equal(created.status, 201);
    assert.equal(created.body.name, 'cycle');
    assert.equal(created.body.cursor, head);
    assert.match(created.body.checkpointVersion, /^ec1\./);
    assert.ok(!Number.isNaN(Date.parse(created.body.updatedAt)));
    const again = await cp('PUT', 'cycle');
    assert.equal(again.status, 200);
    assert.deepEqual(again.body, created.body);
  });

  it('runs the cycle: GET, read events from the cursor, PATCH with the version read', async () => {
    await ref.call('POST', '/_sandbox/events', { json: { count: 7, entityCode: 'ENT-ALPHA' } });
    const got = (await cp('GET', 'cycle')).body.checkpoint;
    const page = (await ref.api('GET', `/event?start_cursor=${got.cursor}`, { token: alice })).body;
    assert.equal(page.events.length, 7);
    const patched = await cp('PATCH', 'cycle', alice, { expectedCheckpointVersion: got.checkpointVersion, newCursor: page.pageInfo.pageEndCursor });
    assert.equal(patched.status, 200);
    assert.equal(patched.body.checkpoint.cursor, page.pageInfo.pageEndCursor);
    assert.notEqual(patched.body.checkpoint.checkpointVersion, got.checkpointVersion);
    assert.equal(patched.body.checkpoint.uid, got.uid);
    const stale = await cp('PATCH', 'cycle', alice, { expectedCheckpointVersion: got.checkpointVersion, newCursor: got.cursor });
    assertDetail(stale, 409, 'Checkpoint version mismatch.');
    assert.deepEqual(stale.body.checkpoint, patched.body.checkpoint);
  });

  it('PATCH validates: 422 body, 400 invalid cursor, 404 unknown name', async () => {
    const got = (await cp('GET', 'cycle')).body.checkpoint;
    assert422(await cp('PATCH', 'cycle', alice, { newCursor: got.cursor }), 'expectedCheckpointVersion');
    assertDetail(await cp('PATCH', 'cycle', alice, { expectedCheckpointVersion: got.checkpointVersion, newCursor: 'ev1.bogus' }), 400, 'Invalid cursor.');
    assertDetail(await cp('PATCH', 'missing', alice, { expectedCheckpointVersion: 'ec1.x', newCursor: got.cursor }), 404, 'Checkpoint not found');
    assert.equal((await cp('GET', 'cycle')).body.checkpoint.checkpointVersion, got.checkpointVersion);
  });

  it('is scoped per user: bob neither sees nor changes alice\'s checkpoint', async () => {
    assertDetail(await cp('GET', 'cycle', bob), 404);
    const bobs = await cp('PUT', 'cycle', bob);
    assert.equal(bobs.status, 201);
    const alices = (await cp('GET', 'cycle')).body.checkpoint;
    assert.notEqual(bobs.body.uid, alices.uid);
    assertDetail(await cp('PATCH', 'cycle', bob, { expectedCheckpointVersion: alices.checkpointVersion, newCursor: alices.cursor }), 409);
    const list = (await ref.api('GET', '/event/checkpoint', { token: bob })).body.checkpoints;
    assert.deepEqual(list.map((c: { uid: string }) => c.uid), [bobs.body.uid]);
  });

  it('of 25 concurrent PATCHes with one version exactly one succeeds, the rest get 409', async () => {
    const got = (await cp('GET', 'cycle')).body.checkpoint;
    const results = await Promise.all(Array.from({ length: 25 }, () =>
      cp('PATCH', 'cycle', alice, { expectedCheckpointVersion: got.checkpointVersion, newCursor: got.cursor })));
    assert.equal(results.filter((r) => r.status === 200).length, 1);
    assert.equal(results.filter((r) => r.status === 409).length, 24);
  });

  it('DELETE answers {checkpoint:{uid,name}, deleted:true}, then 404; names are validated (422)', async () => {
    await cp('PUT', 'temp');
    const uid = (await cp('GET', 'temp')).body.checkpoint.uid;
    const del = await cp('DELETE', 'temp');
    assert.deepEqual(del.body, { checkpoint: { uid, name: 'temp' }, deleted: true });
    assertDetail(await cp('DELETE', 'temp'), 404, 'Checkpoint not found');
    assertDetail(await cp('GET', 'temp'), 404, 'Checkpoint not found');
    assert422(await cp('PUT', 'bad%20name'), 'name');
    assert422(await cp('PUT', 'x'.repeat(129)), 'name');
  });

  it('read-only clients may GET but not PUT/PATCH/DELETE (403)', async () => {
    const carol = await ref.token('cc-carol-readonly');
    assert.equal((await ref.api('GET', '/event/checkpoint', { token: carol })).status, 200);
    assertDetail(await cp('PUT', 'ro', carol), 403, 'Endpoint not enabled for this API user.');
    assertDetail(await cp('DELETE', 'ro', carol), 403, 'Endpoint not enabled for this API user.');
    assertDetail(await cp('PATCH', 'ro', carol, {}), 403, 'Endpoint not enabled for this API user.');
  });

  it('on an empty stream PUT uses the origin cursor, from which later events are read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ftf-ref-empty-'));
    cpSync('fixtures/reference-data', dir, { recursive: true });
    writeFileSync(join(dir, 'history.yaml'), 'history: []\n');
    const empty = await startRef({ dataDir: dir });
    try {
      const t = await empty.token('cc-alice');
      assert.equal((await empty.api('GET', '/event', { token: t })).body.pageInfo.endCursor, null);
      const created = await empty.api('PUT', '/event/checkpoint/start', { token: t });
      assert.equal(created.status, 201);
      assert.match(created.body.cursor, /^ev1\./);
      const none = (await empty.api('GET', `/event?start_cursor=${created.body.cursor}`, { token: t })).body;
      assert.equal(none.events.length, 0);
      await empty.call('POST', '/_sandbox/events', { json: { count: 2, entityCode: 'ENT-ALPHA' } });
      const two = (await empty.api('GET', `/event?start_cursor=${created.body.cursor}`, { token: t })).body;
      assert.equal(two.events.length, 2);
    } finally {
      await empty.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('webhooks', () => {
  let ref: Ref;
  before(async () => {
    ref = await startRef();
  });
  after(() => ref.close());

  it('registers and deregisters per user; DELETE returns {email, url}', async () => {
    const alice = await ref.token('cc-alice');
    const bob = await ref.token('cc-bob');
    const reg = await ref.api('POST', '/webhook', { token: alice, json: { url: 'https://hooks.example.test/ftf' } });
    assert.deepEqual(reg.body, { email: 'alice@ftf.test', url: 'https://hooks.example.test/ftf' });
    assert.deepEqual((await ref.api('DELETE', '/webhook', { token: bob })).body, { email: 'bob@ftf.test', url: null });
    assert.deepEqual((await ref.api('DELETE', '/webhook', { token: alice })).body, { email: 'alice@ftf.test', url: 'https://hooks.example.test/ftf' });
    assert.deepEqual((await ref.api('DELETE', '/webhook', { token: alice })).body, { email: 'alice@ftf.test', url: null });
    assert422(await ref.api('POST', '/webhook', { token: alice, json: { url: 'ftp://x' } }), 'url');
    assert422(await ref.api('POST', '/webhook', { token: alice, json: {} }), 'url');
  });
});

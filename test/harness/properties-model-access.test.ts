/**
 * The model's judgements of the operations besides subscribes, checkpoint PATCHes and event reads (access.ts and
 * the checkpoint lifecycle of state.ts), alone: every reading the spec allows is accepted, each deviation is
 * rejected naming its clause.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  expectEndpointRefused, expectEntityRefused, expectHolding, expectHoldingNotUnder, expectServedOrEntityRefused, expectUnknownEntity,
  FilterModel, judgeSubscriptionList, WebhookModel,
} from '../../src/harness/properties/model/access.js';
import { CheckpointModel, type Answer } from '../../src/harness/properties/model/state.js';
import type { EventRef } from '../../src/harness/properties/types.js';

const ans = (status: number, json: unknown): Answer => ({ status, json, text: JSON.stringify(json) });
const clause = (v: { clause: string } | undefined): string | undefined => v?.clause;

describe('permissions per credential kind', () => {
  it('read-only writes: 403 with the endpoint text (the entity text too when the body names an entity)', () => {
    assert.equal(expectEndpointRefused('PUT', ans(403, { detail: 'Endpoint not enabled for this API user.' })), undefined);
    assert.equal(clause(expectEndpointRefused('PUT', ans(403, { detail: 'Not authorised for this entity' }))), 'AUTH-ENDPOINT-403');
    assert.equal(expectEndpointRefused('POST /subscribe', ans(403, { detail: 'Not authorised for this entity' }), true), undefined);
    assert.equal(clause(expectEndpointRefused('DELETE /webhook', ans(200, { email: 'c@x', url: null }))), 'AUTH-ENDPOINT-403');
  });
  it('entities: forbidden is 403 with the text; unknown 404 or 403 with a detail; other users served or refused', () => {
    assert.equal(expectEntityRefused('GET', ans(403, { detail: 'Not authorised for this entity' })), undefined);
    assert.equal(clause(expectEntityRefused('GET', ans(404, { detail: 'Entity not found' }))), 'AUTH-ENTITY-403');
    assert.equal(expectUnknownEntity('GET', ans(404, { detail: 'x' })), undefined);
    assert.equal(expectUnknownEntity('GET', ans(403, { detail: 'x' })), undefined);
    assert.equal(clause(expectUnknownEntity('GET', ans(200, []))), 'AUTH-ENTITY-403', 'served for an entity on nobody\'s allow-list');
    assert.equal(clause(expectUnknownEntity('GET', ans(404, 'Not Found'))), 'ERR-NOT-FOUND', 'a 404 without {detail}');
    assert.equal(expectServedOrEntityRefused('GET', ans(403, { detail: 'Not authorised for this entity' }), () => undefined), undefined);
    assert.equal(clause(expectServedOrEntityRefused('GET', ans(403, { detail: 'Forbidden' }), () => undefined)), 'AUTH-ENTITY-403');
  });
  it('another user\'s 404 for an entity that exists leaves the allow-list and the read in doubt; other answers are the read\'s', () => {
    const notServed = (a: Answer) => (a.status === 200 ? undefined : { clause: 'EP-SUBSCRIPTION-LIST' as const, message: `answered ${a.status}` });
    const v404 = expectServedOrEntityRefused('GET /subscription', ans(404, { detail: 'Entity not found' }), notServed);
    assert.deepEqual([v404?.clause, v404?.inDoubtWith], ['AUTH-ENTITY-403', ['EP-SUBSCRIPTION-LIST']]);
    assert.match(v404?.message ?? '', /for an entity that exists: off the user's allow-list it is 403/);
    const v500 = expectServedOrEntityRefused('GET /subscription', ans(500, { detail: 'boom' }), notServed);
    assert.deepEqual([v500?.clause, v500?.inDoubtWith], ['EP-SUBSCRIPTION-LIST', undefined], 'a 500 is no refusal: the read broke');
    assert.equal(expectServedOrEntityRefused('GET /subscription', ans(200, []), notServed), undefined);
  });
});

describe('subscription lists and holdings per entity', () => {
  const own = [{ uid: 's1', entity: 'A' }, { uid: 's2', entity: 'B' }];
  it('lists every own subscription of the entity and none of another', () => {
    const ok = judgeSubscriptionList('A', ans(200, [{ uid: 's1', holdingUid: null }, { uid: 'x', holdingUid: 'h' }]), '', own, true);
    assert.ok('listed' in ok && ok.listed.length === 2);
    const wrapped = judgeSubscriptionList('A', ans(200, { items: [{ uid: 's1', holdingUid: null }] }), '/items', own, true);
    assert.ok('listed' in wrapped);
    const foreign = judgeSubscriptionList('A', ans(200, [{ uid: 's1', holdingUid: null }, { uid: 's2', holdingUid: null }]), '', own, true);
    assert.equal('violation' in foreign && foreign.violation.clause, 'EP-ENTITY-SCOPE');
    const missing = judgeSubscriptionList('A', ans(200, []), '', own, true);
    assert.equal('violation' in missing && missing.violation.clause, 'EP-SUBSCRIPTION-LIST');
    assert.ok('listed' in judgeSubscriptionList('A', ans(200, []), '', own, false));
    const bad = judgeSubscriptionList('A', ans(200, [{ uid: 's1' }]), '', own, false);
    assert.equal('violation' in bad && bad.violation.clause, 'EP-SUBSCRIPTION-LIST');
  });
  it('a holdingUid names an existing holding of that entity, not served under another', () => {
    assert.equal(expectHolding('A', 'h1', 's1', ans(200, { uid: 'h1', entityCode: 'A', subscriptionUid: 's1' })), undefined);
    assert.equal(clause(expectHolding('A', 'h1', 's1', ans(404, { detail: 'Holding not found' }))), 'ST-HOLDING-AFTER-SUBSCRIPTION');
    assert.equal(clause(expectHolding('A', 'h1', 's1', ans(200, { uid: 'h1', entityCode: 'A', subscriptionUid: 's9' }))), 'EP-HOLDING-GET');
    assert.equal(expectHoldingNotUnder('B', 'h1', 'A', ans(404, { detail: 'Holding not found' })), undefined);
    assert.equal(clause(expectHoldingNotUnder('B', 'h1', 'A', ans(200, { uid: 'h1', entityCode: 'A' }))), 'EP-ENTITY-SCOPE');
    // Nothing of the other entity served (200 null): the not-found rule broke, not the scope (issue 24).
    assert.equal(clause(expectHoldingNotUnder('B', 'h1', 'A', ans(200, null))), 'EP-HOLDING-GET');
  });
});

describe('webhooks per user', () => {
  it('DELETE names the user\'s URL or null; never another user\'s; one e-mail per user', () => {
    const w = new WebhookModel();
    // Unknown before the first DELETE of the run (an earlier run may have left a URL).
    assert.equal(w.expectDeregistered('primary', ans(200, { email: 'a@x', url: 'https://old' })), undefined);
    assert.equal(w.expectRegistered('primary', 'https://a', ans(202, { email: 'a@x', url: 'https://a' })), undefined);
    assert.equal(w.expectDeregistered('primary', ans(200, { email: 'a@x', url: 'https://a' })), undefined);
    assert.equal(w.expectDeregistered('primary', ans(200, { email: 'a@x', url: null })), undefined);
    assert.equal(w.expectDeregistered('primary', ans(404, { detail: 'No webhook' })), undefined);
    assert.equal(w.expectDeregistered('second', ans(200, { email: 'b@x', url: null })), undefined);
    assert.equal(w.expectRegistered('second', 'https://b', ans(200, {})), undefined);
    assert.equal(clause(w.expectDeregistered('primary', ans(200, { email: 'a@x', url: 'https://b' }))), 'EP-WEBHOOK');
    assert.equal(clause(w.expectDeregistered('second', ans(200, { email: 'a@x', url: null }))), 'RES-WEBHOOK-DELETE');
    assert.equal(clause(w.expectRegistered('primary', 'https://c', ans(400, { detail: 'no' }))), 'EP-WEBHOOK');
  });
  it('registered again after a DELETE: the next DELETE names the new URL or null, never the one deregistered before', () => {
    const w = new WebhookModel();
    assert.equal(w.expectDeregistered('primary', ans(404, { detail: 'No webhook' })), undefined);
    assert.equal(w.expectRegistered('primary', 'https://a', ans(200, {})), undefined);
    assert.equal(w.expectDeregistered('primary', ans(200, { email: 'a@x', url: 'https://a' })), undefined);
    assert.equal(w.expectRegistered('primary', 'https://b', ans(200, {})), undefined);
    const stale = w.expectDeregistered('primary', ans(200, { email: 'a@x', url: 'https://a' }));
    assert.equal(clause(stale), 'EP-WEBHOOK');
    assert.match(stale?.message ?? '', /deregistered before/);
    assert.equal(w.expectRegistered('primary', 'https://c', ans(200, {})), undefined);
    assert.equal(w.expectDeregistered('primary', ans(200, { email: 'a@x', url: null })), undefined);
  });
});

describe('event filters: honoured or ignored, the same way every time', () => {
  const ev = (uid: string, entityCode: string, eventType: string): EventRef => ({ uid, cursor: `ev1.${uid}`, entityCode, eventType });
  const known = [ev('1', 'A', 'ISSUED'), ev('2', 'B', 'ISSUED'), ev('3', 'A', 'CASH_MOVED')];
  it('accepts both readings, then keeps to the one seen', () => {
    const f = new FilterModel();
    assert.equal(f.judge({ entity: 'A' }, known, [known[0] as EventRef, known[2] as EventRef], 2, ['A', 'B']), undefined);
    assert.equal(clause(f.judge({ entity: 'B' }, known, known, 3, ['A', 'B'])), 'EP-ENTITY-SCOPE');
    const g = new FilterModel();
    assert.equal(g.judge({ type: 'ISSUED' }, known, known, null, ['A', 'B']), undefined);
    assert.equal(clause(g.judge({ type: 'ISSUED' }, known, [known[0] as EventRef], null, ['A', 'B'])), 'EP-EVENT-PAGING');
  });
  it('rejects a wrong subset, a wrong totalCount and an event off the allow-list', () => {
    const f = new FilterModel();
    assert.equal(clause(f.judge({ entity: 'A' }, known, [known[0] as EventRef], null, ['A', 'B'])), 'EP-EVENT-PAGING');
    assert.equal(clause(f.judge({ entity: 'A' }, known, [known[0] as EventRef, known[1] as EventRef], null, ['A', 'B'])), 'EP-ENTITY-SCOPE');
    assert.equal(clause(f.judge({ entity: 'A', type: 'ISSUED' }, known, [known[0] as EventRef], 3, ['A', 'B'])), 'EP-EVENT-TOTAL');
    assert.equal(clause(f.judge({ entity: 'G' }, known, [ev('9', 'G', 'ISSUED')], null, ['A', 'B'], true)), 'AUTH-EVENT-SCOPE');
    assert.equal(f.judge({ entity: 'G' }, known, [], null, ['A', 'B'], true), undefined);
  });
});

describe('checkpoint lifecycle: DELETE, 404 after it, PUT again', () => {
  const data = (uid: string, cursor: string, version: string) => ({ checkpoint: { uid, name: 'n', cursor, checkpointVersion: version, updatedAt: '2026-01-01T00:00:00Z' } });
  it('delete names the checkpoint; afterwards 404; PUT again is a creation (201) and old versions stay stale', () => {
    const created = CheckpointModel.expectCreated('n', ans(201, data('u1', 'ev1.a', 'ec1.1').checkpoint));
    assert.ok('model' in created);
    const cp = created.model;
    assert.equal(clause(cp.expectDelete(ans(200, { checkpoint: { uid: 'other', name: 'n' }, deleted: true }))), 'RES-CHECKPOINT-DELETE');
    assert.equal(cp.expectDelete(ans(200, { checkpoint: { uid: 'u1', name: 'n' }, deleted: true })), undefined);
    assert.ok(cp.deleted);
    assert.equal(cp.expectGone('GET', ans(404, { detail: 'Checkpoint not found' })), undefined);
    assert.equal(clause(cp.expectGone('PATCH', ans(200, data('u1', 'ev1.b', 'ec1.2')))), 'ERR-NOT-FOUND');
    assert.equal(clause(cp.expectDelete(ans(200, { checkpoint: { uid: 'u1', name: 'n' }, deleted: true }))), 'ERR-NOT-FOUND');
    assert.equal(clause(cp.expectRecreated(ans(200, data('u2', 'ev1.c', 'ec1.3').checkpoint))), 'EP-CHECKPOINT-CREATE');
    assert.equal(cp.expectRecreated(ans(201, data('u2', 'ev1.c', 'ec1.3').checkpoint)), undefined);
    assert.ok(!cp.deleted && cp.stale.includes('ec1.1'));
    assert.equal(cp.expectPutExisting(ans(200, data('u2', 'ev1.c', 'ec1.3'))), undefined);
    assert.equal(cp.expectPutExisting(ans(201, data('u2', 'ev1.d', 'ec1.4'))), undefined);
    assert.ok(cp.stale.includes('ec1.3'));
  });
  it('another user deletes only its own checkpoint of the name', () => {
    const cp = (CheckpointModel.expectCreated('n', ans(201, data('u1', 'ev1.a', 'ec1.1').checkpoint)) as { model: CheckpointModel }).model;
    assert.equal(cp.expectOtherUsersDelete(ans(404, { detail: 'Checkpoint not found' }), undefined), undefined);
    assert.equal(cp.expectOtherUsersDelete(ans(200, { checkpoint: { uid: 'b1', name: 'n' }, deleted: true }), 'b1'), undefined);
    assert.equal(clause(cp.expectOtherUsersDelete(ans(200, { checkpoint: { uid: 'u1', name: 'n' }, deleted: true }), undefined)), 'EP-CHECKPOINT-SCOPE');
  });
});

/**
 * Operation matching against schemas/operations.yaml: spec paths, `$paths` from a target map, the most
 * specific template, unmatched paths, statuses without an entry, and body shapes located by `fields`.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { schemaRegistry, fullId, UNMATCHED_OPERATION } from '../../src/harness/schemas/registry.js';
import { FtfError } from '../../src/shared/errors.js';
import { assertFailsAt, sample } from './schemas-helpers.js';

/** The reference server's choices (docs/architecture.md), as a target profile would give them. */
const REFERENCE_PATHS = {
  health: '/health', cells: '/cell', cell: '/cell/{code}', entities: '/entity', entity: '/entity/{code}',
  entity_users: '/entity/{code}/user', holdings: '/holding/{entity_code}', holding_extensions: '/holding/{entity_code}/{holding_uid}/extension',
  holidays: '/holiday', indications: '/indication', checkpoints: '/event/checkpoint', checkpoint_delete: '/event/checkpoint/{name}',
};

describe('spec paths', () => {
  const r = schemaRegistry();
  it('GET /event: 200 events-response, default failure shapes, 500 has no entry', () => {
    assert.equal(r.matchOperation('GET', '/event', 'api', 200)?.schemaId, fullId('events-response'));
    assert.equal(r.matchOperation('GET', '/event?start_cursor=ev1.5&limit=10', 'api', 200)?.operation, 'event.list');
    assert.equal(r.matchOperation('GET', '/event', 'api', 400)?.schemaId, fullId('error'));
    assert.equal(r.matchOperation('GET', '/event', 'api', 401)?.schemaId, fullId('error'));
    assert.equal(r.matchOperation('GET', '/event', 'api', 422)?.schemaId, fullId('validation-error'));
    const m500 = r.matchOperation('GET', '/event', 'api', 500);
    assert.equal(m500?.operation, 'event.list');
    assert.equal(m500?.schemaId, undefined);
    assert.deepEqual(m500?.knownStatuses, [200, 400, 401, 403, 404, 422]);
  });
  it('PUT checkpoint: 201 CheckpointData, 200 either checkpoint shape; params decoded', () => {
    const created = r.matchOperation('PUT', '/event/checkpoint/nightly%20recon', 'api', 201);
    assert.equal(created?.operation, 'checkpoint.put');
    assert.equal(created?.schemaId, fullId('checkpoint-data'));
    assert.deepEqual(created?.params, { name: 'nightly recon' });
    assert.equal(r.matchOperation('PUT', '/event/checkpoint/x', 'api', 200)?.schemaId, fullId('checkpoint-state'));
    assert.equal(r.matchOperation('PUT', '/event/checkpoint/x', 'api', 409)?.schemaId, undefined);
  });
  it('409 only where the spec names it (PATCH checkpoint)', () => {
    assert.equal(r.matchOperation('PATCH', '/event/checkpoint/x', 'api', 409)?.schemaId, fullId('checkpoint-conflict'));
    assert.equal(r.matchOperation('PATCH', '/event/checkpoint/x', 'api', 200)?.schemaId, fullId('checkpoint-state'));
    assert.equal(r.matchOperation('GET', '/event/checkpoint/x', 'api', 409)?.schemaId, undefined);
    assert.equal(r.matchOperation('GET', '/event/checkpoint/x', 'api', 200)?.schemaId, fullId('get-checkpoint-response'));
  });
  it('other spec operations', () => {
    assert.equal(r.matchOperation('GET', '/holding/ENT-ALPHA/h-1', 'api', 200)?.schemaId, fullId('holding'));
    assert.equal(r.matchOperation('GET', '/indication/FTF-1/', 'api', 200)?.schemaId, fullId('indication'));
    assert.equal(r.matchOperation('DELETE', '/webhook', 'api', 200)?.schemaId, fullId('delete-webhook-response'));
    for (const status of [200, 201, 202, 204]) assert.equal(r.matchOperation('POST', '/webhook', 'api', status)?.schemaId, fullId('unspecified'));
  });
  it('methods match exactly', () => {
    const m = r.matchOperation('POST', '/event', 'api', 404);
    assert.equal(m?.operation, UNMATCHED_OPERATION);
    assert.equal(m?.schemaId, fullId('error'));
  });
});

describe('token endpoint and unmatched paths', () => {
  const r = schemaRegistry();
  it('POST {auth_url}/oauth/token: 200 token-response, any 4xx a JSON object, 5xx nothing', () => {
    assert.equal(r.matchOperation('POST', '/oauth/token', 'auth', 200)?.schemaId, fullId('token-response'));
    assert.equal(r.matchOperation('POST', '/oauth/token', 'auth', 401)?.schemaId, fullId('json-object'));
    assert.equal(r.matchOperation('POST', '/oauth/token', 'auth', 429)?.schemaId, fullId('json-object'));
    assert.equal(r.matchOperation('POST', '/oauth/token', 'auth', 503)?.schemaId, undefined);
    assert.deepEqual(r.matchOperation('POST', '/oauth/token', 'auth', 503)?.statusKeys, ['200', '4XX']);
  });
  it('{base_url}/oauth/token and unknown routes: 404 with {detail}', () => {
    const m = r.matchOperation('POST', '/oauth/token', 'api', 404);
    assert.equal(m?.operation, UNMATCHED_OPERATION);
    assert.equal(m?.schemaId, fullId('error'));
    assert.equal(r.matchOperation('GET', '/nothing/here', 'auth', 404)?.schemaId, fullId('error'));
    const ok = r.matchOperation('GET', '/nothing/here', 'api', 200);
    assert.equal(ok?.schemaId, undefined);
    assert.ok(ok?.knownStatuses.includes(404));
  });
  it('not-shown operations are unmatched when the target gives no path', () => {
    assert.equal(r.matchOperation('GET', '/cell', 'api', 200)?.operation, UNMATCHED_OPERATION);
    assert.equal(r.matchOperation('GET', '/health', 'api', 200)?.schemaId, undefined);
  });
});

describe('$paths from the target profile', () => {
  const r = schemaRegistry({ paths: REFERENCE_PATHS });
  it('resolves every not-shown operation', () => {
    const cases: Array<[string, string, string, string]> = [
      ['GET', '/health', 'health', fullId('health-check')],
      ['GET', '/cell', 'cell.list', fullId('cell-list')],
      ['GET', '/cell/C-1', 'cell.get', fullId('cell')],
      ['GET', '/entity', 'entity.list', fullId('entity-list')],
      ['GET', '/entity/ENT-ALPHA', 'entity.get', fullId('entity')],
      ['GET', '/entity/ENT-ALPHA/user', 'entity.users', fullId('entity-user-list')],
      ['GET', '/holding/ENT-ALPHA', 'holding.list', fullId('holding-list')],
      ['GET', '/holding/ENT-ALPHA/h-1', 'holding.get', fullId('holding')],
      ['GET', '/holding/ENT-ALPHA/h-1/extension', 'holding.extensions', fullId('extension-list')],
      ['GET', '/holiday?country=US', 'holiday.list', fullId('holiday-list')],
      ['GET', '/indication', 'indication.list', fullId('indication-list')],
      ['DELETE', '/event/checkpoint/x', 'checkpoint.delete', fullId('delete-checkpoint-response')],
    ];
    for (const [method, path, op, schemaId] of cases) {
      const m = r.matchOperation(method, path, 'api', 200);
      assert.equal(m?.operation, op, `${method} ${path}`);
      assert.equal(m?.schemaId, schemaId, `${method} ${path}`);
    }
    assert.equal(r.operationIds().length, 23);
  });
  it('the checkpoint list sits under /checkpoints unless the target says otherwise', () => {
    const m = r.matchOperation('GET', '/event/checkpoint', 'api', 200);
    assert.equal(m?.operation, 'checkpoint.list');
    const list = [sample('checkpoint-data')];
    assert.equal(r.validate(m?.schemaId ?? '', { checkpoints: list }).valid, true);
    assertFailsAt(r, m?.schemaId ?? '', list, '', 'type');
    assertFailsAt(r, m?.schemaId ?? '', { checkpoints: [{ uid: 'x' }] }, '/checkpoints/0', 'required');
    const bare = schemaRegistry({ paths: REFERENCE_PATHS, fields: { checkpoints_list: '' } });
    assert.equal(bare.validate(bare.matchOperation('GET', '/event/checkpoint', 'api', 200)?.schemaId ?? '', list).valid, true);
  });
  it('a literal segment beats a parameter; ambiguous paths are refused', () => {
    const v = schemaRegistry({ paths: { cells: '/reference/cells', cell: '/reference/{code}' } });
    assert.equal(v.matchOperation('GET', '/reference/cells', 'api', 200)?.operation, 'cell.list');
    assert.equal(v.matchOperation('GET', '/reference/C-9', 'api', 200)?.operation, 'cell.get');
    assert.throws(() => schemaRegistry({ paths: { cell: '/x/{a}', entity: '/x/{b}' } }), (e: unknown) => e instanceof FtfError && e.code === 'FTF_E_OPERATION_AMBIGUOUS');
    assert.throws(() => schemaRegistry({ paths: { cells: 'https://elsewhere/cells' } }), (e: unknown) => e instanceof FtfError && e.code === 'FTF_E_TARGET_PATH_INVALID');
  });
  it('registries are memoised per map content', () => {
    assert.equal(schemaRegistry({ paths: { ...REFERENCE_PATHS } }), r);
    assert.notEqual(schemaRegistry({ paths: { health: '/status' } }), r);
  });
});

describe('body shapes located by target fields', () => {
  it('a vendor list wrapped in an object', () => {
    const r = schemaRegistry({ paths: REFERENCE_PATHS, fields: { cells_list: 'cells' } });
    const id = r.matchOperation('GET', '/cell', 'api', 200)?.schemaId ?? '';
    assert.equal(r.validate(id, { cells: [sample('cell')], total: 1 }).valid, true);
    assertFailsAt(r, id, { cells: [{ ...sample('cell'), code: 5 }] }, '/cells/0/code', 'type');
    assertFailsAt(r, id, [sample('cell')], '', 'type');
  });
  it('subscribe: 200 or 201 with the subscription uid at the configured pointer (default /uid)', () => {
    const r = schemaRegistry();
    for (const status of [200, 201]) {
      const id = r.matchOperation('POST', '/subscribe', 'api', status)?.schemaId ?? '';
      // records.subscribe "" (default): the answer is the Subscription record itself (schemas-records.test.ts).
      assert.equal(r.validate(id, { uid: 'sub-1', holdingUid: null, status: 'Pending' }).valid, true);
      assertFailsAt(r, id, { subscriptionUid: 'sub-1', holdingUid: null }, '', 'required', "'uid'");
      assertFailsAt(r, id, { uid: 7, holdingUid: null }, '/uid', 'type');
    }
    const v = schemaRegistry({ fields: { subscription_uid: '/subscription/id' }, records: { subscribe: null } });
    const id = v.matchOperation('POST', '/subscribe', 'api', 200)?.schemaId ?? '';
    assert.equal(v.validate(id, { subscription: { id: 'sub-1' } }).valid, true);
    assertFailsAt(v, id, { subscription: {} }, '/subscription', 'required', "'id'");
    assert.throws(() => schemaRegistry({ fields: { subscription_uid: '/a~2b' } }), (e: unknown) => e instanceof FtfError && e.code === 'FTF_E_TARGET_FIELD_INVALID');
  });
  it('GET /subscription defaults to a JSON array of subscriptions', () => {
    const r = schemaRegistry();
    const id = r.matchOperation('GET', '/subscription?entity_code=ENT-ALPHA', 'api', 200)?.schemaId ?? '';
    assert.equal(id, fullId('subscription-list'));
    assert.equal(r.validate(id, sample('subscription-list')).valid, true);
    assertFailsAt(r, id, [{ uid: 's' }], '/0', 'required', "'holdingUid'");
  });
});

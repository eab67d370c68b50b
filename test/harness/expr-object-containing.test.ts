import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evaluate, resolveDeep, toPlainJson } from '../../src/harness/expressions/index.js';

const scope = {
  target: { fields: { subscribe_indication_uid: 'indicationUid' } },
  uid: 'S-1',
  events: [
    { eventType: 'SUBSCRIBED', subscriptionUid: 'S-1' },
    { eventType: 'ISSUED', nested: { refs: ['x', 'S-1'] } },
    { eventType: 'SUBSCRIBED', subscriptionUid: 'S-10' },
  ],
};

describe('expressions: object()', () => {
  it('builds a map whose keys come from variables', () => {
    const body = resolveDeep("${object(target.fields.subscribe_indication_uid, 'I-1', 'amount', num(dec('0.25') * 1000000))}", scope);
    assert.deepEqual(toPlainJson(body), { indicationUid: 'I-1', amount: 250000 });
  });

  it('an empty call is an empty map; an odd number of arguments is refused', () => {
    assert.deepEqual(evaluate('object()', scope), {});
    assert.throws(() => evaluate("object('a')", scope), /pairs/);
  });
});

describe('expressions: containing()', () => {
  it('keeps the elements in which the value occurs at any depth, by equality (not substring)', () => {
    assert.equal(evaluate("len(containing(events, uid))", scope)?.toString(), '2');
    assert.equal(evaluate("len(containing(select(events, '/eventType', 'SUBSCRIBED'), uid))", scope)?.toString(), '1');
    assert.deepEqual(evaluate("containing(events, 'nope')", scope), []);
  });

  it('refuses a non-list', () => {
    assert.throws(() => evaluate('containing(uid, uid)', scope), /needs a list/);
  });
});

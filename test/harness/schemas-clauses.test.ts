/**
 * A schema failure blames the clause of the schema and field that failed (issue 24): `x-clause` on every
 * response schema's root and on the fields and common formats that state a clause of their own.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkSchema } from '../../src/harness/checks/schema.js';
import { schemaRegistry } from '../../src/harness/schemas/registry.js';
import { loadClauseCatalogue } from '../../src/harness/spec/clauses.js';
import { sample, sampleAs, schemaFile, schemaNames } from './schemas-helpers.js';

const registry = schemaRegistry();
const clausesOf = (name: string, value: unknown): string[] | undefined => {
  const r = registry.validate(name, value);
  assert.equal(r.valid, false, `${name} rejects the value`);
  return r.clauses;
};

describe('schema failures name the clause of what failed', () => {
  it('a Holding: a date with a time is RES-DATE, a lower-case status RES-HOLDING-STATUS, a missing field RES-HOLDING', () => {
    const holding = sample('holding');
    assert.deepEqual(clausesOf('holding', { ...holding, issueDate: '2026-03-02T00:00:00Z' }), ['RES-DATE']);
    assert.deepEqual(clausesOf('holding', { ...holding, status: 'issued' }), ['RES-HOLDING-STATUS']);
    assert.deepEqual(clausesOf('holding', { ...holding, type: 'fixed' }), ['RES-HOLDING-TYPE']);
    const { cellCode: _dropped, ...withoutCell } = holding;
    assert.deepEqual(clausesOf('holding', withoutCell), ['RES-HOLDING']);
    assert.deepEqual(clausesOf('holding-list', [{ ...holding, issueDate: '2026-03-02T00:00:00Z' }]), ['RES-DATE']);
  });

  it('an event read through the events response: the kind\'s own clause, decimal strings RES-DECIMAL', () => {
    const response = sampleAs<{ events: Array<Record<string, unknown>>; pageInfo: unknown }>('events-response');
    const adjusted = response.events.find((e) => e.eventType === 'ADJUSTED');
    assert.ok(adjusted, 'the sample holds an ADJUSTED event');
    const { previousMaturityDate: _gone, ...partial } = adjusted;
    assert.deepEqual(clausesOf('events-response', { ...response, events: [partial] }), ['RES-EVENT-ADJUSTED']);
    assert.deepEqual(clausesOf('events-response', { ...response, events: [{ ...adjusted, cost: 12.5 }] }), ['RES-DECIMAL']);
    assert.deepEqual(clausesOf('events-response', { ...response, events: [{ ...adjusted, eventType: 'SUBSCRIPTION_CREATED' }] }), ['RES-EVENT-TYPE']);
  });

  it('the schema check carries those clauses (the engine keeps them over the step\'s)', () => {
    const holding = { ...sample('holding'), issueDate: '2026-03-02T00:00:00Z' };
    const response = { method: 'GET', url: 'http://x/holding/E/1', status: 200, headers: {}, body: holding, text: JSON.stringify(holding) };
    const check = checkSchema({ response, registry, mode: 'holding', base: 'api', pathname: '/holding/E/1' });
    assert.equal(check?.passed, false);
    assert.deepEqual(check?.clauses, ['RES-DATE']);
    const notJson = checkSchema({ response: { ...response, body: '<html>', text: '<html>', json_error: 'Unexpected token' }, registry, mode: 'holding', base: 'api', pathname: '/holding/E/1' });
    assert.deepEqual(notJson?.clauses, ['RES-HOLDING']);
  });

  it('every x-clause is a catalogue id; every schema whose description states a clause names one', () => {
    const ids = loadClauseCatalogue().byId;
    for (const name of schemaNames()) {
      const text = JSON.stringify(schemaFile(name));
      for (const m of text.matchAll(/"x-clause":"([^"]+)"/g)) assert.ok(ids.has(m[1]!), `${name}: x-clause ${m[1]} is in clauses.yaml`);
      const described = /^(RES|EP|AUTH)-[A-Z_-]+/.exec(String(schemaFile(name).description ?? ''));
      if (described) assert.equal(typeof schemaFile(name)['x-clause'], 'string', `${name} names its clause (x-clause)`);
    }
  });
});

describe('checkpoint conflict', () => {
  it('a PATCH 409 without the current state breaks EP-CHECKPOINT-CONFLICT, not RES-CHECKPOINT; a state of the wrong shape RES-CHECKPOINT', () => {
  const r = schemaRegistry();
  const id = 'https://ftf-conformance.dev/schemas/api/checkpoint-conflict.schema.json';
  assert.deepEqual(r.validate(id, { detail: 'Checkpoint version mismatch' }).clauses, ['EP-CHECKPOINT-CONFLICT']);
  assert.deepEqual(r.validate(id, { checkpoint: { uid: 'c', name: 'n', cursor: 'ev1.1', checkpointVersion: 3 } }).clauses, ['RES-CHECKPOINT']);
  assert.equal(r.validate(id, sample('checkpoint-conflict')).valid, true);
});
});

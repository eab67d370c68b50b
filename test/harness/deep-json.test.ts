/**
 * A target that answers JSON nested 100,000 levels deep must fail the scenario readably (an FtfError naming
 * the exchange or the check), never with a RangeError from a recursive walk: through the real engine paths
 * (expect json subset, where, capture, the auto schema check), the recording transport with its redactor,
 * and the value helpers themselves.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { subsetMismatches } from '../../src/harness/checks/json-subset.js';
import { deepEqual, toPlainJson } from '../../src/harness/expressions/values.js';
import { jsonDeeperThan, MAX_JSON_DEPTH, parseBody } from '../../src/harness/http/body.js';
import { RecordingTransport } from '../../src/harness/http/recorder.js';
import { Redactor } from '../../src/harness/http/redactor.js';
import type { Exchange } from '../../src/harness/http/types.js';
import { createUndiciTransport } from '../../src/harness/http/undici-transport.js';
import { FtfError } from '../../src/shared/errors.js';
import { fakeSchemas, makeTarget, run, scenarioFromYaml, startStub, type Stub } from './engine-helpers.js';

const LEVELS = 100_000;
const deepArray = `${'['.repeat(LEVELS)}${']'.repeat(LEVELS)}`;
const deepObject = `${'{"a":'.repeat(LEVELS)}1${'}'.repeat(LEVELS)}`;

function nested(levels: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < levels; i++) v = { a: v };
  return v;
}

let stub: Stub;
before(async () => {
  stub = await startStub((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(req.url?.includes('array') ? deepArray : deepObject);
  });
});
after(() => stub.close());

const scenario = (steps: string): string => `
id: t.deep
title: deep json
covers: [T-ONE]
steps:
  - request: { method: GET, path: /object }
${steps}`;

function assertReadable(error: Error | undefined): void {
  assert.ok(error, 'the scenario passed against a 100,000-level body');
  assert.ok(error instanceof FtfError, `not an FtfError: ${error.name}: ${error.message.slice(0, 200)}`);
  assert.doesNotMatch(error.message, /Maximum call stack|RangeError/);
  assert.ok(error.message.length < 5_000, `message of ${error.message.length} chars`);
}

describe('JSON nested 100,000 levels through the engine', () => {
  it('is not parsed: the body is text with a json_error naming the limit', () => {
    assert.equal(jsonDeeperThan(deepObject), true);
    assert.equal(jsonDeeperThan('{"a":"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}', 8), false, 'brackets in strings do not count');
    assert.equal(jsonDeeperThan(`${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`), false, 'the limit itself parses');
    const parsed = parseBody(deepArray, 'application/json');
    assert.equal(parsed.json, undefined);
    assert.match(parsed.jsonError ?? '', /nested deeper than 512 levels/);
  });

  for (const [what, steps] of [
    ['expect json subset', '  - expect: { status: 200, json: { a: { a: 2 } } }'],
    ['expect where', '  - expect: { where: "last.body.a.a == 1" }'],
    ['capture', '  - capture: { x: /a/a/a }'],
    ['fail_if', '  - fail_if: "last.body != null"'],
  ] as const) {
    it(`${what}: fails readably`, async () => {
      const r = await run(scenarioFromYaml(scenario(steps)), makeTarget(stub.url));
      assertReadable(r.error);
    });
  }

  it('the auto schema check says why the body is not JSON', async () => {
    const schemas = fakeSchemas(() => ({ operation: 'x.get', schemaId: 'thing', knownStatuses: [200] }));
    const r = await run(scenarioFromYaml(scenario('')), makeTarget(stub.url), { schemas });
    assertReadable(r.error);
    assert.match(r.error?.message ?? '', /nested deeper than 512 levels/);
  });

  it('recording and redaction write the exchange (cut for the report) without a RangeError', async () => {
    const exchanges: Exchange[] = [];
    const inner = createUndiciTransport();
    const transport = new RecordingTransport(inner, new Redactor(), [{ onExchange: (x) => void exchanges.push(x) }]);
    try {
      const r = await run(scenarioFromYaml(scenario('  - expect: { json: { a: 1 } }').replace('/object', '/array')), makeTarget(stub.url), { transport });
      assertReadable(r.error);
    } finally {
      await inner.dispose?.();
    }
    assert.equal(exchanges.length, 1);
    const written = JSON.stringify(exchanges[0]);
    assert.match(written, /truncated/);
  });
});

describe('value helpers refuse deep values with a typed error', () => {
  const deep = nested(LEVELS);
  for (const [name, fn] of [
    ['toPlainJson', () => toPlainJson(deep)],
    ['deepEqual', () => deepEqual(deep, nested(LEVELS))],
    ['subsetMismatches', () => subsetMismatches(deep, nested(LEVELS))],
  ] as const) {
    it(name, () => {
      assert.throws(fn, (e: unknown) => e instanceof FtfError && e.code === 'FTF_E_VALUE_TOO_DEEP');
    });
  }
  it('shallow values still compare', () => {
    assert.equal(deepEqual(nested(50), nested(50)), true);
    assert.deepEqual(subsetMismatches(nested(50), nested(50)), []);
  });
});

/**
 * Registry mechanics: one compile per schema, lookups by name and $id, unknown names, failure text,
 * the operation map's own checks, throughput, and the README's error-code table.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { formatIssues, fullId, isDecimalString, parseOperationMap, schemaRegistry } from '../../src/harness/schemas/registry.js';
import { harnessAjv } from '../../src/harness/schemas/ajv.js';
import { API_SCHEMAS_DIR } from '../../src/harness/schemas/store.js';
import { join } from 'node:path';
import { FtfError } from '../../src/shared/errors.js';
import { sampleAs, schemaNames } from './schemas-helpers.js';

const isCode = (code: string) => (e: unknown) => e instanceof FtfError && e.code === code;

describe('the schema files', () => {
  it('each is a valid JSON Schema 2020-12 (the registry does not re-check them at run time: store.ts)', () => {
    const ajv = harnessAjv();
    for (const name of schemaNames()) {
      const schema = JSON.parse(readFileSync(join(API_SCHEMAS_DIR, `${name}.schema.json`), 'utf8')) as object;
      assert.equal(ajv.validateSchema(schema), true, `${name}: ${ajv.errorsText(ajv.errors)}`);
    }
    assert.equal(ajv.validateSchema({ type: 'object', properties: { a: { type: 7 } } }), false, 'the check can fail');
  });
});

describe('compile once, look up by name or $id', () => {
  it('returns the same compiled function on every call, across registries and lookup forms', () => {
    const a = schemaRegistry();
    const b = schemaRegistry({ paths: { health: '/health' } });
    for (const name of ['event', 'holding', 'events-response']) {
      const fn = a.validator(name);
      assert.equal(a.validator(name), fn);
      assert.equal(a.validator(fullId(name)), fn);
      assert.equal(b.validator(name), fn);
    }
    assert.equal(a.validator('common#/$defs/date'), b.validator('common#/$defs/date'));
  });
  it('derived schemas compile once per shape', () => {
    const one = schemaRegistry({ fields: { subscriptions_list: '/items' } });
    const two = schemaRegistry({ fields: { subscriptions_list: 'items', cells_list: '' } });
    const id1 = one.matchOperation('GET', '/subscription', 'api', 200)?.schemaId ?? '';
    const id2 = two.matchOperation('GET', '/subscription', 'api', 200)?.schemaId ?? '';
    assert.equal(id1, id2);
    assert.equal(one.validator(id1), two.validator(id2));
  });
  it('lists every schema file by $id and resolves fragments of common', () => {
    const r = schemaRegistry();
    assert.deepEqual([...r.schemaIds()].sort(), schemaNames().map(fullId).sort());
    assert.equal(r.validate('common#/$defs/decimalString', '1.50').valid, true);
    assert.equal(r.validate('common#/$defs/decimalString', 1.5).valid, false);
  });
  it('an unknown schema is a typed error', () => {
    const r = schemaRegistry();
    assert.throws(() => r.validate('no-such-thing', {}), isCode('FTF_E_SCHEMA_UNKNOWN'));
    assert.throws(() => r.validator('common#/$defs/nope'), isCode('FTF_E_SCHEMA_UNKNOWN'));
  });
});

describe('decimal format', () => {
  it('checks plain decimal notation through decimal.js', () => {
    for (const ok of ['0', '-0', '10', '-10.25', '0.000001', '123456789012345678901234567890.5']) assert.equal(isDecimalString(ok), true, ok);
    for (const bad of ['', '-', '1e3', '1E3', '.5', '5.', '01', '+1', ' 1', '1 ', 'NaN', 'Infinity', '0x10', '1_000']) assert.equal(isDecimalString(bad), false, bad);
  });
});

describe('failure text', () => {
  it('names the schema, shows paths and values, and caps the list', () => {
    const r = schemaRegistry();
    const body = sampleAs<{ events: Array<Record<string, unknown>>; pageInfo: Record<string, unknown> }>('events-response');
    body.events = body.events.map((e) => ({ ...e, cursor: 'bad' }));
    body.events[1] = { ...body.events[1], cost: 12.5 };
    const result = r.validate('events-response', body);
    assert.equal(result.valid, false);
    assert.equal(result.schemaId, fullId('events-response'));
    assert.ok(result.issues.some((i) => i.instancePath === '/events/1/cost' && i.message === 'must be a decimal string (got number 12.5)'));
    const text = formatIssues(result, 3);
    assert.match(text, /^does not match events-response \(11 issues\):/);
    assert.equal(text.split('\n').length, 5);
    assert.match(text, /… and 8 more$/);
    assert.equal(formatIssues(r.validate('error', { detail: 'x' })), 'matches error');
    assert.match(formatIssues(r.validate('error', 42)), /\(root\): must be object \(got number 42\)/);
  });
  it('one issue per object lists every missing property', () => {
    const result = schemaRegistry().validate('checkpoint-data', {});
    assert.equal(result.issues.length, 1);
    assert.equal(result.issues[0]?.message, "must have required properties 'uid', 'name', 'cursor', 'checkpointVersion', 'updatedAt'");
  });
});

describe('operation map checks', () => {
  const base = 'version: 1\noperations:\n';
  it('rejects unknown schemas, bad statuses, unknown $paths keys, bad methods and bases', () => {
    const bad = [
      `${base}  x: { method: GET, base: api, path: /x, responses: { 200: nope } }`,
      `${base}  x: { method: GET, base: api, path: /x, responses: { 2000: error } }`,
      `${base}  x: { method: GET, base: api, path: $paths.cellz, responses: { 200: cell } }`,
      `${base}  x: { method: FETCH, base: api, path: /x, responses: { 200: cell } }`,
      `${base}  x: { method: GET, base: web, path: /x, responses: { 200: cell } }`,
      `${base}  x: { method: GET, base: api, path: /x, responses: { 200: { at: { field: f, default: nope, schema: cell } } } }`,
      'version: 2\noperations: {}',
      'operations: [',
    ];
    for (const text of bad) assert.throws(() => parseOperationMap(text, 'inline.yaml'), isCode('FTF_E_OPERATION_MAP_INVALID'), text);
  });
  it('merges the base defaults under each operation (own entries win)', () => {
    const map = parseOperationMap(`version: 1\ndefaults: { api: { 404: error, 200: error } }\n${'operations:\n'}  x: { method: get, base: api, path: /x, responses: { 200: cell } }`, 'inline.yaml');
    assert.equal(map.operations[0]?.method, 'GET');
    assert.deepEqual(Object.keys(map.operations[0]?.responses ?? {}).sort(), ['200', '404']);
    assert.equal(map.operations[0]?.responses['200']?.schema, fullId('cell'));
  });
});

describe('throughput', () => {
  it('validates 20,000 events well under a millisecond each', () => {
    const r = schemaRegistry();
    const page = sampleAs<{ events: unknown[]; pageInfo: unknown }>('events-response');
    const events = Array.from({ length: 1000 }, (_, i) => page.events[i % page.events.length]);
    const body = { events, pageInfo: page.pageInfo };
    const start = performance.now();
    for (let i = 0; i < 20; i++) assert.equal(r.validate('events-response', body).valid, true);
    const perEventMs = (performance.now() - start) / 20_000;
    // generous bound (typically ~0.005 ms); recompiling per call would cost orders of magnitude more
    assert.ok(perEventMs < 0.5, `per event ${perEventMs.toFixed(4)} ms`);
  });
});

describe('documentation', () => {
  it('schemas/README.md lists every error code of the registry', () => {
    const readme = readFileSync(new URL('../../schemas/README.md', import.meta.url), 'utf8');
    const codes = readFileSync(new URL('../../src/harness/schemas/errors.ts', import.meta.url), 'utf8').match(/FTF_E_[A-Z_]+/g) ?? [];
    assert.ok(codes.length >= 5);
    for (const code of new Set(codes)) assert.ok(readme.includes(code), `README misses ${code}`);
  });
});

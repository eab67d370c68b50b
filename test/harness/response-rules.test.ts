/**
 * Response rules (src/harness/rules): which rule applies to which response, what each demands, the clause
 * ids its check carries; and, through the engine, that a rule fails a scenario that never asked for it,
 * with the rule's clauses (what the fault matrix counts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CheckedResponse } from '../../src/harness/checks/types.js';
import { CheckFailure } from '../../src/harness/engine/errors.js';
import { applicableRules, applyResponseRules } from '../../src/harness/rules/apply.js';
import { RESPONSE_RULES } from '../../src/harness/rules/table.js';
import { schemaRegistry } from '../../src/harness/schemas/registry.js';
import { loadClauseCatalogue } from '../../src/harness/spec/clauses.js';
import { json, makeTarget, run, scenarioFromYaml, startStub, type Stub } from './engine-helpers.js';

const registry = schemaRegistry();

function response(method: string, status: number, body: unknown): CheckedResponse {
  const text = body === undefined ? '' : JSON.stringify(body);
  return { method, url: `http://127.0.0.1:1/api/v1/x`, status, headers: { 'content-type': 'application/json' }, body: body ?? null, text };
}

function judge(method: string, pathname: string, status: number, body: unknown, opts: { headers?: Record<string, string>; base?: 'api' | 'auth' | 'control' } = {}) {
  return applyResponseRules({ response: response(method, status, body), requestHeaders: opts.headers ?? {}, base: opts.base ?? 'api', pathname, registry });
}

const failed = (checks: Array<{ check: string; passed: boolean }>): string[] => checks.filter((c) => !c.passed).map((c) => c.check).sort();

describe('response rules: the table', () => {
  it('every rule names known clause ids and the spec text it rests on', () => {
    const catalogue = loadClauseCatalogue();
    for (const rule of RESPONSE_RULES) {
      assert.ok(rule.clauses.length > 0, rule.id);
      for (const c of rule.clauses) assert.ok(catalogue.byId.has(c), `${rule.id}: unknown clause ${c}`);
      assert.match(rule.spec, /Errors/, rule.id);
    }
  });
});

describe('response rules: which apply', () => {
  it('422 anywhere under {base_url} is judged by the validation layout, with RES-VALIDATION-ERROR and ERR-VALIDATION-422', () => {
    const bad = judge('PUT', '/event/checkpoint/x', 422, { detail: 'name: too long' });
    assert.deepEqual(failed(bad.checks), ['rule:validation-layout']);
    assert.deepEqual(bad.checks[0]?.clauses, ['RES-VALIDATION-ERROR', 'ERR-VALIDATION-422']);
    assert.equal(bad.layoutJudged, true);
    const good = judge('PUT', '/event/checkpoint/x', 422, { detail: [{ loc: ['path', 'name'], msg: 'too long', type: 'string_too_long' }] });
    assert.deepEqual(failed(good.checks), []);
    assert.equal(good.checks.length, 1);
  });

  it('400/401/403/404 are judged by the {detail: string} layout (RES-ERROR-BODY); unknown routes too', () => {
    for (const status of [400, 401, 403, 404]) {
      const bad = judge('GET', '/event', status, { error: 'nope' });
      assert.ok(failed(bad.checks).includes('rule:detail-layout'), String(status));
      assert.deepEqual(bad.checks.find((c) => c.check === 'rule:detail-layout')?.clauses, ['RES-ERROR-BODY']);
    }
    assert.deepEqual(failed(judge('GET', '/no-such-route', 404, { detail: 'Not Found' }).checks), []);
    assert.deepEqual(failed(judge('GET', '/no-such-route', 404, { detail: ['Not Found'] }).checks), ['rule:detail-layout']);
  });

  it('a 403 says one of the two texts the spec fixes; 401 and 404 texts are not fixed', () => {
    const forbidden = judge('GET', '/subscription', 403, { detail: 'Forbidden' });
    assert.deepEqual(failed(forbidden.checks), ['rule:forbidden-detail']);
    assert.deepEqual(forbidden.checks.find((c) => c.check === 'rule:forbidden-detail')?.clauses, ['AUTH-ENTITY-403', 'AUTH-ENDPOINT-403']);
    assert.deepEqual(failed(judge('GET', '/subscription', 403, { detail: 'Not authorised for this entity' }).checks), []);
    assert.deepEqual(failed(judge('POST', '/webhook', 403, { detail: 'Endpoint not enabled for this API user.' }).checks), []);
    // a 403 without a detail string fails both the layout and the text
    assert.deepEqual(failed(judge('GET', '/subscription', 403, { message: 'x' }).checks), ['rule:detail-layout', 'rule:forbidden-detail']);
    assert.deepEqual(failed(judge('GET', '/event', 401, { detail: 'whatever the target says' }).checks), []);
    assert.deepEqual(failed(judge('GET', '/holding/A/u', 404, { detail: 'gone' }).checks), []);
  });

  it('a 400 of POST /subscribe sent without Idempotency-Key must say the fixed text; with a key no text is demanded', () => {
    const keyless = judge('POST', '/subscribe', 400, { detail: 'Bad request' });
    assert.deepEqual(failed(keyless.checks), ['rule:idempotency-key-detail']);
    assert.deepEqual(keyless.checks.find((c) => c.check === 'rule:idempotency-key-detail')?.clauses, ['EP-SUBSCRIBE-IDEMPOTENCY-KEY']);
    assert.deepEqual(failed(judge('POST', '/subscribe', 400, { detail: 'Idempotency-Key header is required.' }).checks), []);
    // with a key: a 400 for the amount or the date, text chosen by the condition, not by this rule
    assert.deepEqual(failed(judge('POST', '/subscribe', 400, { detail: 'Amount is above the maximum.' }, { headers: { 'idempotency-key': 'k' } }).checks), []);
    // another operation's 400 text is not fixed
    assert.deepEqual(failed(judge('GET', '/event', 400, { detail: 'Invalid cursor.' }).checks), []);
  });

  it('statuses the spec gives no layout for, success statuses, the token endpoint and the control API meet no rule', () => {
    const none = (method: string, path: string, status: number, base: 'api' | 'auth' | 'control' = 'api') =>
      applicableRules({ response: response(method, status, {}), requestHeaders: {}, base, pathname: path });
    assert.deepEqual(none('PATCH', '/event/checkpoint/x', 409), []); // 409 holds the current state (variant checkpoint-conflict-bare)
    assert.deepEqual(none('POST', '/subscribe', 200), []); // "200 or 400": never asserted by a rule
    assert.deepEqual(none('POST', '/webhook', 415), []);
    assert.deepEqual(none('GET', '/event', 500), []);
    assert.deepEqual(none('POST', '/oauth/token', 401, 'auth'), []); // the spec defines no OAuth error body
    assert.deepEqual(none('POST', '/clock/advance', 400, 'control'), []);
  });
});

describe('response rules: applied by the engine to every response', () => {
  let stub: Stub;
  before(async () => {
    stub = await startStub((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (req.method === 'PUT' && url.pathname === '/api/v1/event/checkpoint/too-long') return json(res, 422, { detail: 'name: too long' });
      if (req.method === 'GET' && url.pathname === '/api/v1/subscription') return json(res, 403, { detail: 'Forbidden' });
      return json(res, 404, { detail: 'Not Found' });
    });
  });
  after(() => stub.close());

  it('a scenario that only expects the status fails the rule, and the failure carries the rule\'s clauses', async () => {
    const scenario = scenarioFromYaml(`
id: t.rules
title: a 422 the scenario does not judge
covers: [T-ONE]
steps:
  - request: { method: PUT, path: /event/checkpoint/too-long, schema: none }
  - expect: { status: 422 }
`);
    const r = await run(scenario, makeTarget(stub.url), { schemas: registry });
    assert.ok(r.error instanceof CheckFailure, r.error?.message ?? 'no failure');
    const rule = r.checks.find((c) => c.check === 'rule:validation-layout');
    assert.equal(rule?.passed, false);
    assert.deepEqual(rule?.clauses, ['RES-VALIDATION-ERROR', 'ERR-VALIDATION-422']);
    // the auto schema check does not judge the same body a second time
    assert.equal(r.checks.filter((c) => c.check === 'schema').length, 0);
  });

  it('parallel requests are judged each (the failing copy is named)', async () => {
    const scenario = scenarioFromYaml(`
id: t.rules-parallel
title: 403 copies with an unfixed text
covers: [T-ONE]
steps:
  - parallel:
      count: 2
      request: { method: GET, path: /subscription, query: { entity_code: ENT-X } }
      expect_all: { status: 403 }
`);
    const r = await run(scenario, makeTarget(stub.url), { schemas: registry });
    assert.ok(r.error instanceof CheckFailure, r.error?.message ?? 'no failure');
    const rules = r.checks.filter((c) => c.check === 'rule:forbidden-detail');
    assert.equal(rules.length, 2);
    assert.ok(rules.every((c) => !c.passed && c.clauses?.includes('AUTH-ENTITY-403')));
    assert.match(rules[1]?.message ?? '', /^#1: /);
  });
});

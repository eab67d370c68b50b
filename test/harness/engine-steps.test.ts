import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { NotApplicable } from '../../src/harness/engine/errors.js';
import { fakeAuth, fakeSchemas, json, makeTarget, run, scenarioFromYaml, startStub, type Stub } from './engine-helpers.js';

let stub: Stub;
let checkpointVersion = 1;

before(async () => {
  stub = await startStub((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const route = `${req.method} ${url.pathname}`;
    if (route === 'GET /api/v1/things/t-1') return json(res, 200, { id: 't-1', amount: 0.1, tags: ['a', 'b'] });
    if (route === 'POST /api/v1/echo') return json(res, 200, { got: JSON.parse(req.body || 'null'), auth: req.headers.authorization ?? null, key: req.headers['idempotency-key'] ?? null, query: Object.fromEntries(url.searchParams) });
    if (route === 'POST /oauth/token') return json(res, 200, { form: Object.fromEntries(new URLSearchParams(req.body)), auth: req.headers.authorization });
    if (route === 'GET /api/v1/missing') return json(res, 404, { detail: 'Thing not found' });
    if (route === 'PATCH /api/v1/cp') {
      const body = JSON.parse(req.body) as { v: number };
      if (body.v === checkpointVersion) {
        checkpointVersion++;
        return json(res, 200, { v: checkpointVersion });
      }
      return json(res, 409, { detail: 'mismatch', v: checkpointVersion });
    }
    if (route === 'POST /_sandbox/clock/advance') return json(res, 200, { now: '2026-01-02T00:00:00Z', advanced: JSON.parse(req.body) });
    return json(res, 404, { detail: 'Not Found' });
  });
});
after(() => stub.close());

describe('engine steps', () => {
  it('json_if sends the json body only when its expression is true (a request shape the profile decides)', async () => {
    const scenario = scenarioFromYaml(`
id: t.json-if
title: json_if
covers: [T-ONE]
steps:
  - request: { method: POST, path: /echo, json: { a: 1 }, json_if: "target.webhook.delete_body", as: with_body }
  - request: { method: POST, path: /echo, json: { a: 1 }, json_if: "!target.webhook.delete_body", as: without_body }
  - expect: { of: with_body, json: { got: { a: 1 } } }
  - expect: { of: without_body, json: { got: null } }
`);
    const r = await run(scenario, { ...makeTarget(stub.url), webhook: { deleteBody: true } });
    assert.equal(r.error, undefined, r.error?.message);
  });

  it('request + expect + capture + set: interpolation, default credential, JSON body, Decimal amount', async () => {
    const scenario = scenarioFromYaml(`
id: t.request
title: request basics
covers: [T-ONE]
vars: { key: 'k-\${run_id}' }
steps:
  - request: { method: GET, path: /things/t-1, as: thing }
  - expect: { status: 200, json: { id: t-1, amount: 0.1 }, header: { content-type: application/json }, where: "thing.body.amount * 3 == 0.3" }
  - capture: { of: thing, first_tag: /tags/0 }
  - set: { amount: "\${num(dec('0.25') * 1000000)}", label: "tag-\${first_tag}" }
  - request:
      method: POST
      path: /echo
      query: { entity_code: '\${target.entities.allowed[0]}', skip: ~ }
      headers: { Idempotency-Key: '\${key}' }
      json: { amount: '\${amount}', label: '\${label}', exact: "\${dec('0.1') + dec('0.2')}" }
  - expect:
      json:
        got: { amount: 250000, label: tag-a, exact: '0.3' }
        auth: Bearer token-of-primary
        key: k-run-1
        query: { entity_code: ENT-A }
`);
    const r = await run(scenario, makeTarget(stub.url));
    assert.equal(r.error, undefined, r.error?.message);
    assert.deepEqual(r.titles, ['GET /things/t-1 → thing', 'expect last: status 200, json, headers content-type, where 1', 'capture first_tag from thing', 'set amount, label', 'POST /echo', 'expect last: json']);
    assert.ok(r.checks.length >= 5 && r.checks.every((c) => c.passed));
  });

  it('expect failures carry method, URL, expected and a body excerpt', async () => {
    const scenario = scenarioFromYaml(`
id: t.fail
title: failing expectation
covers: [T-ONE]
steps:
  - request: { method: GET, path: /missing }
  - expect: { status: 200, detail: [Thing absent, Gone] }
`);
    const r = await run(scenario, makeTarget(stub.url));
    assert.ok(r.error);
    assert.equal((r.error as { code?: string }).code, 'FTF_E_CHECK_FAILED');
    assert.match(r.error.message, /\[status\] GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/missing → 404: expected status 200, got 404; body: \{"detail":"Thing not found"\}/);
    assert.match(r.error.message, /\[detail\] .*expected detail "Thing absent" or "Gone", got "Thing not found"/);
  });

  it('should-severity failures are warnings, not errors', async () => {
    const scenario = scenarioFromYaml(`
id: t.should
title: should
covers: [T-ONE]
steps:
  - request: { method: GET, path: /missing }
  - expect: { status: 200, severity: should }
`);
    const r = await run(scenario, makeTarget(stub.url));
    assert.equal(r.error, undefined);
    assert.equal(r.outcome?.warnings.length, 1);
    assert.equal(r.outcome?.warnings[0]?.check, 'status');
  });

  it('token-style request: auth base, form body, {basic: cred}, no default bearer', async () => {
    const scenario = scenarioFromYaml(`
id: t.form
title: form
covers: [T-ONE]
steps:
  - request:
      method: POST
      base: auth
      path: /oauth/token
      auth: { basic: primary }
      form: { grant_type: client_credentials, client_id: '\${target.credentials.primary.client_id}' }
  - expect: { json: { form: { grant_type: client_credentials, client_id: cid }, auth: 'Basic cHJpbWFyeTpzZWNyZXQ=' } }
`);
    const r = await run(scenario, makeTarget(stub.url));
    assert.equal(r.error, undefined, r.error?.message);
    assert.equal(stub.requests.at(-1)?.headers['content-type'], 'application/x-www-form-urlencoded');
  });

  it('target.* exposes names, never secrets', async () => {
    const scenario = scenarioFromYaml(`
id: t.secret
title: no secrets
covers: [T-ONE]
steps:
  - set: { view: '\${target}' }
`);
    const r = await run(scenario, makeTarget(stub.url));
    assert.equal(r.error, undefined, r.error?.message);
    const text = JSON.stringify(r.outcome?.vars.view);
    assert.ok(text.includes('"primary"') && text.includes('ENT-A'));
    assert.ok(!text.includes('very-secret-value'));
  });

  it('use: runs a step group with parameters and restores them; the group defines variables', async () => {
    const scenario = scenarioFromYaml(
      `
id: t.use
title: use
covers: [T-ONE]
steps:
  - use: fetch
    with: { which: t-1 }
  - expect: { of: fetched, status: 200, json: { id: t-1 } }
`,
      { fetch: 'params: [which]\nsteps:\n  - request: { method: GET, path: "/things/${which}", as: fetched }\n' },
    );
    const r = await run(scenario, makeTarget(stub.url));
    assert.equal(r.error, undefined, r.error?.message);
    assert.deepEqual(r.titles.slice(0, 2), ['use fetch (which)', 'GET /things/${which} → fetched']);
    assert.equal(Object.hasOwn(r.outcome?.vars ?? {}, 'which'), false);
  });

  it('parallel: count copies, expect_all, expect_count and where over all results', async () => {
    checkpointVersion = 1;
    const scenario = scenarioFromYaml(`
id: t.parallel
title: race
covers: [T-ONE]
steps:
  - parallel:
      count: 8
      request: { method: PATCH, path: /cp, json: { v: 1, i: '\${i}' } }
      as: results
      expect_all: { status: [200, 409] }
      expect_count: [{ status: 200, equals: 1 }, { status: 409, equals: 7 }]
      where: "unique(pluck(select(results, '/status', 409), '/body/v')) == [2]"
`);
    const r = await run(scenario, makeTarget(stub.url));
    assert.equal(r.error, undefined, r.error?.message);
    assert.equal((r.outcome?.vars.results as unknown[]).length, 8);
  });

  it('parallel: a wrong count fails and lists the statuses', async () => {
    checkpointVersion = 1;
    const scenario = scenarioFromYaml(`
id: t.parallel-fail
title: race fails
covers: [T-ONE]
steps:
  - parallel:
      count: 3
      request: { method: PATCH, path: /cp, json: { v: 1 } }
      expect_count: { status: 200, equals: 2 }
`);
    const r = await run(scenario, makeTarget(stub.url));
    assert.match(r.error?.message ?? '', /expected exactly 2 of 3 results with status 200, got 1 \(statuses: (200|409), (200|409), (200|409)\)/);
  });

  it('clock: POSTs to the control URL and makes the auth client forget its tokens', async () => {
    const auth = fakeAuth();
    const scenario = scenarioFromYaml(`
id: t.clock
title: clock
covers: [T-CLOCK]
steps:
  - clock: { days: 1 }
  - fail_if: clock.advanced.days != 1
    message: clock not advanced
`);
    const r = await run(scenario, makeTarget(stub.url), { auth });
    assert.equal(r.error, undefined, r.error?.message);
    assert.equal(auth.forgotten, 1);
    assert.deepEqual(r.titles, ['advance clock 1 days', 'fail if clock.advanced.days != 1']);
  });

  it('a raw control request that moves the clock also makes the auth client forget its tokens; other control calls do not', async () => {
    const auth = fakeAuth();
    const scenario = scenarioFromYaml(`
id: t.raw-clock
title: raw clock
covers: [T-CLOCK]
steps:
  - request: { method: POST, base: control, path: /clock/advance, auth: none, schema: none, json: { seconds: 5 } }
  - expect: { status: 200 }
  - request: { method: GET, base: control, path: /clock, auth: none, schema: none }
`);
    const r = await run(scenario, makeTarget(stub.url), { auth });
    assert.equal(r.error, undefined, r.error?.message);
    assert.equal(auth.forgotten, 1, 'forgotten once: after the advance, not after the read');
  });

  it('fail_if fails with its message', async () => {
    const scenario = scenarioFromYaml(`
id: t.failif
title: fail_if
covers: [T-ONE]
vars: { n: 2 }
steps:
  - fail_if: n > 1
    message: n is \${n}
`);
    const r = await run(scenario, makeTarget(stub.url));
    assert.match(r.error?.message ?? '', /\[fail_if\] n is 2/);
  });

  it('skip_if ends the scenario as not applicable with its message, and lets it go on when false', async () => {
    const skipped = await run(scenarioFromYaml(`
id: t.skipif
title: skip_if
covers: [T-ONE]
vars: { n: 0 }
steps:
  - skip_if: n == 0
    message: the stream holds \${n} events
  - fail_if: n == 0
    message: must not be reached
`), makeTarget(stub.url));
    assert.ok(skipped.error instanceof NotApplicable, skipped.error?.message);
    assert.equal(skipped.error.code, 'FTF_E_NOT_APPLICABLE');
    assert.equal(skipped.error.message, 'not applicable: the stream holds 0 events');
    const ran = await run(scenarioFromYaml(`
id: t.skipif2
title: skip_if false
covers: [T-ONE]
vars: { n: 3 }
steps:
  - skip_if: n == 0
  - fail_if: n == 3
    message: reached
`), makeTarget(stub.url));
    assert.match(ran.error?.message ?? '', /\[fail_if\] reached/);
  });

  it('auto schema check: a status the operation map does not list fails with the body excerpt', async () => {
    const schemas = fakeSchemas((method, path, status) => ({ operation: 'thing.get', schemaId: status === 200 ? 'thing' : undefined, knownStatuses: [200] }));
    const scenario = scenarioFromYaml(`
id: t.auto
title: auto schema
covers: [T-ONE]
steps:
  - request: { method: GET, path: /missing }
`);
    const r = await run(scenario, makeTarget(stub.url), { schemas });
    assert.match(r.error?.message ?? '', /\[schema\] GET .*\/api\/v1\/missing → 404: status 404 is not an answer operation thing\.get may give \(listed: 200\); body: \{"detail":"Thing not found"\}/);
    const ok = scenarioFromYaml(`
id: t.auto2
title: auto schema on a listed status
covers: [T-ONE]
steps:
  - request: { method: GET, path: /things/t-1 }
`);
    const r2 = await run(ok, makeTarget(stub.url), { schemas });
    assert.match(r2.error?.message ?? '', /body does not match thing \(thing\.get\): \/ok must have ok/);
    const none = scenarioFromYaml(`
id: t.auto3
title: schema none
covers: [T-ONE]
steps:
  - request: { method: GET, path: /missing, schema: none }
  - expect: { status: 404 }
`);
    assert.equal((await run(none, makeTarget(stub.url), { schemas })).error, undefined);
  });

  it('expect with schema auto on another status than the expected one judges the status alone (issue 24)', async () => {
    const schemas = fakeSchemas((_method, _path, status) => ({ operation: 'thing.get', schemaId: status === 200 ? 'thing' : undefined, knownStatuses: [200] }));
    const scenario = scenarioFromYaml(`
id: t.auto4
title: a 200 where 404 was expected
covers: [T-ONE]
steps:
  - request: { method: GET, path: /things/t-1, schema: none }
  - expect: { status: 404, schema: auto }
`);
    const r = await run(scenario, makeTarget(stub.url), { schemas });
    // The 200 body is not judged against the 200 answer's schema (whose clause the schema would blame).
    assert.deepEqual(r.checks.filter((c) => !c.passed).map((c) => c.check), ['status']);
    assert.equal(r.checks.some((c) => c.check === 'schema'), false);
  });
});

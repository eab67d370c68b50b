/**
 * The `repeat` step: N sequential copies of a request judged like request steps (auto schema check, response
 * rules, expect, capture), reported as one step; its bounds (count at load, for_each at run time, time).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { HttpRequest } from '../../src/harness/http/types.js';
import { createUndiciTransport } from '../../src/harness/http/undici-transport.js';
import { REPO_ROOT } from '../../src/harness/repo-root.js';
import { MAX_REPEAT, MAX_REPEAT_KEPT } from '../../src/harness/scenario/types.js';
import { schemaRegistry } from '../../src/harness/schemas/registry.js';
import { isolationOf } from '../../src/harness/scenario/isolation.js';
import { fakeSchemas, json, makeTarget, run, scenarioFromYaml, startStub, type Stub } from './engine-helpers.js';

let stub: Stub;
let hits = 0;

before(async () => {
  stub = await startStub((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const [, , , kind, arg] = url.pathname.split('/');
    switch (kind) {
      case 'thing':
        hits++;
        return json(res, 200, { ok: true, id: arg, n: hits });
      case 'flaky':
        // Iteration 3 (the third request) answers 500 without the schema's `ok`.
        return Number(arg) === 2 ? json(res, 500, { detail: 'boom' }) : json(res, 200, { ok: true, id: arg });
      case 'noschema':
        return json(res, 200, Number(arg) === 1 ? { id: arg } : { ok: true, id: arg });
      case 'badlayout':
        return json(res, 404, { error: 'gone' });
      case 'hang':
        return;
      default:
        return json(res, 404, { detail: 'Not Found' });
    }
  });
});
after(() => stub.close());

const scenario = (step: string, vars = ''): string => `
id: t.repeat
title: repeat
covers: [T-ONE]
${vars}
steps:
${step}
`;

const notes = (): { texts: string[]; note: (name: string, text: string) => Promise<void> } => {
  const texts: string[] = [];
  return { texts, note: async (name, text) => void texts.push(`${name}: ${text}`) };
};

describe('engine: repeat', () => {
  it('sends times copies in order (the template sees i), checks every answer, and is one step with one summary', async () => {
    const before = stub.requests.length;
    const n = notes();
    const inner = createUndiciTransport();
    const labels: Array<string | undefined> = [];
    const transport = { send: (req: HttpRequest, label?: string) => (labels.push(label), inner.send(req)) };
    const r = await run(scenarioFromYaml(scenario(`
  - repeat:
      times: 5
      request: { method: GET, path: '/thing/\${i}' }
      expect: { status: 200, json: { id: '\${str(i)}' }, where: response.body.ok == true }
      capture: { last_id: /id }
  - expect: { json: { id: '4' } }
  - fail_if: last_id != '4'`)), makeTarget(stub.url), { note: n.note, transport }).finally(() => inner.dispose?.());
    assert.equal(r.error, undefined, r.error?.message);
    assert.deepEqual(stub.requests.slice(before).map((q) => q.url), ['/api/v1/thing/0', '/api/v1/thing/1', '/api/v1/thing/2', '/api/v1/thing/3', '/api/v1/thing/4']);
    // Each exchange is recorded under the step title and its iteration, so the failing one is found in the report.
    assert.deepEqual(labels, [1, 2, 3, 4, 5].map((k) => `repeat 5 × GET /thing/\${i} #${k}`));
    assert.deepEqual(r.titles, ["repeat 5 × GET /thing/${i}", 'expect last: json', "fail if last_id != '4'"]);
    // One result per check, not per iteration, each with the count.
    const own = r.checks.filter((c) => ['status', 'json', 'where'].includes(c.check) && /iteration/.test(c.message));
    assert.deepEqual(own.map((c) => [c.check, c.passed, /in 5 of 5 iteration\(s\)/.test(c.message)]), [['status', true, true], ['json', true, true], ['where', true, true]]);
    assert.equal(n.texts.length, 1);
    assert.match(n.texts[0] ?? '', /^repeat summary: repeat: 5 of 5 iteration\(s\) sent in \d+ ms \(per exchange min\/median\/max \d+\/\d+\/\d+ ms\); all passed$/);
  });

  it('for_each: one iteration per element (item and i), `as` keeps the responses', async () => {
    const r = await run(scenarioFromYaml(scenario(`
  - repeat:
      for_each: ids
      request: { method: GET, path: '/thing/\${item}-\${i}' }
      expect: { status: 200 }
      as: seen
  - fail_if: "pluck(seen, '/body/id') != ['a-0', 'b-1', 'c-2']"`, "vars: { ids: [a, b, c] }")), makeTarget(stub.url));
    assert.equal(r.error, undefined, r.error?.message);
    assert.equal((r.outcome?.vars.seen as unknown[]).length, 3);
  });

  it('a failing iteration stops the step and is named with its exchange; the schema check and the response rules judge every iteration', async () => {
    const before = stub.requests.length;
    const n = notes();
    const schemas = fakeSchemas((_m, path, status) => (path.startsWith('/flaky') || path.startsWith('/noschema') ? { operation: 'x.get', schemaId: status === 200 ? 'thing' : undefined, knownStatuses: [200] } : undefined));
    const r = await run(scenarioFromYaml(scenario(`
  - repeat:
      times: 5
      request: { method: GET, path: '/flaky/\${i}' }
      expect: { status: 200 }`)), makeTarget(stub.url), { note: n.note, schemas });
    assert.equal((r.error as { code?: string }).code, 'FTF_E_CHECK_FAILED');
    assert.match(r.error?.message ?? '', /\[status\] iteration 3 of 5 \(GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/flaky\/2 → 500; 2 passed before it\): .*expected status 200, got 500/);
    // The auto schema check judged the 500 too (no schema for that status), like for a request step.
    assert.match(r.error?.message ?? '', /\[schema\] iteration 3 of 5/);
    assert.equal(stub.requests.length - before, 3, 'stops at the failing iteration');
    assert.match(n.texts[0] ?? '', /3 of 5 iteration\(s\) sent .*; iteration 3 of 5 .* failed: \[/);
    // The passed iterations are on record once, with their count.
    assert.ok(r.checks.some((c) => c.check === 'status' && c.passed && /in 2 of 2 iteration\(s\)/.test(c.message)));

    // The schema check alone (no expect) fails the iteration whose body breaks the schema.
    const s = await run(scenarioFromYaml(scenario(`
  - repeat:
      times: 3
      request: { method: GET, path: '/noschema/\${i}' }`)), makeTarget(stub.url), { schemas });
    assert.equal((s.error as { code?: string }).code, 'FTF_E_CHECK_FAILED');
    assert.match(s.error?.message ?? '', /\[schema\] iteration 2 of 3/);
    // The response rules too: a 404 without the {detail} layout fails even though `expect` accepts the status.
    const rules = await run(scenarioFromYaml(scenario(`
  - repeat:
      times: 2
      request: { method: GET, path: '/badlayout/\${i}' }
      expect: { status: 404 }`)), makeTarget(stub.url), { schemas: schemaRegistry() });
    assert.equal((rules.error as { code?: string }).code, 'FTF_E_CHECK_FAILED');
    assert.match(rules.error?.message ?? '', /\[rule:detail-layout\] iteration 1 of 2/);
  });

  it('a should-expectation failing in every iteration is one warning with the count, and the step passes', async () => {
    const r = await run(scenarioFromYaml(scenario(`
  - repeat:
      times: 4
      request: { method: GET, path: '/thing/x' }
      expect: { status: 201, severity: should }`)), makeTarget(stub.url));
    assert.equal(r.error, undefined, r.error?.message);
    assert.equal(r.outcome?.warnings.length, 1);
    assert.match(r.outcome?.warnings[0]?.message ?? '', /^iteration 1 of 4: .*expected status 201, got 200.* \(4 of 4 iteration\(s\) had it\)$/);
  });

  it('for_each over something that is not a list fails readably; a list over the bound is refused', async () => {
    const notList = await run(scenarioFromYaml(scenario(`
  - repeat:
      for_each: things
      request: { method: GET, path: '/thing/\${item}' }`, 'vars: { things: { a: 1 } }')), makeTarget(stub.url));
    assert.equal((notList.error as { code?: string }).code, 'FTF_E_STEP_FAILED');
    assert.match(notList.error?.message ?? '', /for_each `things` gave object, not a list/);
    const tooMany = await run(scenarioFromYaml(scenario(`
  - repeat:
      for_each: things
      request: { method: GET, path: '/thing/\${item}' }`, `vars: { things: ${JSON.stringify(Array.from({ length: MAX_REPEAT + 1 }, (_, i) => i))} }`)), makeTarget(stub.url));
    assert.equal((tooMany.error as { code?: string }).code, 'FTF_E_BOUND_EXCEEDED', tooMany.error?.message);
    assert.match(tooMany.error?.message ?? '', new RegExp(`gave ${MAX_REPEAT + 1} elements; at most ${MAX_REPEAT} iterations per repeat step`));
    const keptTooMany = await run(scenarioFromYaml(scenario(`
  - repeat:
      for_each: things
      request: { method: GET, path: '/thing/\${item}' }
      as: all`, `vars: { things: ${JSON.stringify(Array.from({ length: MAX_REPEAT_KEPT + 1 }, (_, i) => i))} }`)), makeTarget(stub.url));
    assert.equal((keptTooMany.error as { code?: string }).code, 'FTF_E_BOUND_EXCEEDED', keptTooMany.error?.message);
    assert.match(keptTooMany.error?.message ?? '', new RegExp(`keeps its responses \\(as: all\\) for at most ${MAX_REPEAT_KEPT} iterations; this one has ${MAX_REPEAT_KEPT + 1}`));
  });

  it('refuses at load, naming file:line, a count over the maximum and `as` over the kept bound', () => {
    assert.throws(() => scenarioFromYaml(scenario(`
  - repeat:
      times: ${MAX_REPEAT + 1}
      request: { method: GET, path: /thing/x }`)), (e: Error) => {
      assert.match(e.message, /scenario\.yaml:\d+:\d+/);
      assert.match(e.message, new RegExp(`'steps\\.0\\.repeat\\.times' must be <= ${MAX_REPEAT}`));
      return true;
    });
    assert.throws(() => scenarioFromYaml(scenario(`
  - repeat:
      times: ${MAX_REPEAT_KEPT + 1}
      request: { method: GET, path: /thing/x }
      as: all`)), /keeps its responses \(as: all\) for at most 100 iterations; times is 101 \(.*scenario\.yaml:\d+:\d+\)/);
    const schema = JSON.parse(readFileSync(`${REPO_ROOT}/schemas/scenario.schema.json`, 'utf8')) as { $defs: { repeatStep: { properties: { repeat: { properties: { times: { maximum: number } } } } } } };
    assert.equal(schema.$defs.repeatStep.properties.repeat.properties.times.maximum, MAX_REPEAT);
  });

  /** Three iterations of a request that never answers, with the given step and scenario bounds (R = 2000 ms). */
  const hanging = (deadlineMs: number, scenarioMs: number) =>
    run(scenarioFromYaml(scenario(`
  - repeat:
      times: 3
      request: { method: GET, path: /hang/x }
      deadline_ms: ${deadlineMs}`)), makeTarget(stub.url, { requestMs: 2000, scenarioMs }));

  it('deadline_ms bounds the step: an iteration running into it fails naming the step and the iteration', async () => {
    const r = await hanging(200, 10000);
    assert.equal((r.error as { code?: string }).code, 'FTF_E_BOUND_EXCEEDED', r.error?.message);
    assert.match(r.error?.message ?? '', /step "repeat 3 × GET \/hang\/x": its bound \(deadline_ms 200 ms\) ran out in iteration 1 of 3: GET .*\/hang\/x failed/);
  });

  it('a deadline_ms past the scenario bound is cut to it, and the iteration it stops in is named', async () => {
    const r = await hanging(600000, 1000);
    assert.equal((r.error as { code?: string }).code, 'FTF_E_BOUND_EXCEEDED', r.error?.message);
    assert.match(r.error?.message ?? '', /iteration 1 of 3/);
    assert.match(r.error?.message ?? '', /deadline_ms 600000 ms, cut to the \d+ ms the scenario had left|the scenario bound \(timeouts\.scenario_ms 1000 ms\) ran out/);
  });

  it("a repeated request counts for the scenario's isolation like a written one (a clock request makes it exclusive)", () => {
    const s = scenarioFromYaml(scenario(`
  - repeat:
      times: 2
      request: { method: POST, base: control, path: /clock/advance, json: { minutes: 1 } }`));
    assert.deepEqual(isolationOf(s).reasons, ['moves the sandbox clock']);
  });
});

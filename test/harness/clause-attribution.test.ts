/**
 * `clause:` on steps (issue 24): the loader refuses a checking step without it in a scenario that covers
 * several clauses (file:line:col), a `use:` step whose group has unlabelled checks included; the engine stamps
 * each check with its step's clause (a group's own label first, then the `use:` step's, then covers), and the
 * automatic schema check with the clause of the step that sent the request, never an inherited one.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { describeProblem, loadScenarioSuite } from '../../src/harness/scenario/load.js';
import type { Scenario } from '../../src/harness/scenario/types.js';
import { loadClauseCatalogue } from '../../src/harness/spec/clauses.js';
import { REPO_ROOT } from '../../src/harness/repo-root.js';
import { fakeSchemas, json, makeTarget, run, startStub, type Stub } from './engine-helpers.js';

const clauses = loadClauseCatalogue().byId;
const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function load(yaml: string, groups: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'ftf-attribution-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'fam'));
  writeFileSync(join(dir, 'fam', 'scenario.yaml'), yaml);
  mkdirSync(join(dir, '_steps'));
  for (const [name, text] of Object.entries(groups)) writeFileSync(join(dir, '_steps', `${name}.yaml`), text);
  return { suite: loadScenarioSuite(dir, { clauses }), file: join(dir, 'fam', 'scenario.yaml') };
}

const GROUP_UNLABELLED = `name: probe\nparams: []\nsteps:\n  - request: { method: GET, path: /probe }\n  - expect: { status: 200 }\n`;
const GROUP_LABELLED = `name: probe\nparams: []\nsteps:\n  - request: { method: GET, path: /probe }\n  - clause: EP-INDICATION-GET\n    expect: { status: 200 }\n`;

describe('the loader refuses an unattributed check in a multi-clause scenario', () => {
  it('names the step at file:line:col', () => {
    const { suite, file } = load(`id: fam.two\ntitle: two clauses\ncovers: [ERR-AMOUNT-MIN, EP-SUBSCRIBE-BODY]\nsteps:\n  - request: { method: GET, path: /x }\n  - expect: { status: 400 }\n  - fail_if: last.status == 500\n`);
    assert.equal(suite.scenarios.length, 0);
    const text = suite.problems.map(describeProblem).join('\n');
    assert.match(text, new RegExp(`this expect step judges one of 2 covered clauses \\(ERR-AMOUNT-MIN, EP-SUBSCRIBE-BODY\\) without saying which: add clause: <id> \\(${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:6:5\\)`));
    assert.match(text, /this fail_if step judges one of 2 covered clauses[^\n]*:7:5\)/);
  });

  it('a use: step whose group has unlabelled checks needs clause:, one whose group labels them does not', () => {
    const yaml = `id: fam.two\ntitle: two clauses\ncovers: [ERR-AMOUNT-MIN, EP-SUBSCRIBE-BODY]\nsteps:\n  - use: probe\n`;
    assert.match(load(yaml, { probe: GROUP_UNLABELLED }).suite.problems.map(describeProblem).join('\n'), /this use step judges one of 2 covered clauses[^\n]*:5:5\)/);
    assert.equal(load(yaml, { probe: GROUP_LABELLED }).suite.problems.length, 0);
    assert.equal(load(yaml.replace('  - use: probe', '  - use: probe\n    clause: ERR-AMOUNT-MIN'), { probe: GROUP_UNLABELLED }).suite.problems.length, 0);
  });

  it('one covered clause needs no label; a label outside covers is allowed (a precondition\'s own clause)', () => {
    assert.equal(load(`id: fam.one\ntitle: one\ncovers: [ERR-AMOUNT-MIN]\nsteps:\n  - request: { method: GET, path: /x }\n  - expect: { status: 400 }\n`).suite.problems.length, 0);
    assert.equal(load(`id: fam.two\ntitle: two\ncovers: [ERR-AMOUNT-MIN, EP-SUBSCRIBE-BODY]\nsteps:\n  - request: { method: GET, path: /x }\n  - clause: EP-INDICATION-GET\n    expect: { status: 200 }\n`).suite.problems.length, 0);
  });

  it('every scenario of the suite loads: each multi-clause scenario labels every checking step (no exception list)', () => {
    const suite = loadScenarioSuite(join(REPO_ROOT, 'specs'), { clauses });
    assert.deepEqual(suite.problems.map(describeProblem), []);
    assert.ok(suite.scenarios.some((s) => s.covers.length > 1), 'the suite has multi-clause scenarios');
  });
});

describe('the engine stamps each check with its step\'s clause', () => {
  let stub: Stub;
  before(async () => {
    stub = await startStub((req, res) => json(res, req.url?.includes('bad') ? 500 : 200, { ok: 1 }));
  });
  after(() => stub.close());

  const scenario = (yaml: string, groups: Record<string, string> = {}): Scenario => {
    const { suite } = load(yaml, groups);
    assert.deepEqual(suite.problems.map(describeProblem), []);
    return suite.scenarios[0]!;
  };

  it('own label, then the use: step\'s label, then covers; the automatic schema check takes its request step\'s own label only', async () => {
    const s = scenario(
      `id: fam.two\ntitle: two\ncovers: [ERR-AMOUNT-MIN, EP-SUBSCRIBE-BODY]\nsteps:\n`
        + `  - use: probe\n    clause: ERR-AMOUNT-MIN\n`
        + `  - clause: EP-SUBSCRIBE-BODY\n    request: { method: GET, path: /y }\n`
        + `  - clause: EP-SUBSCRIBE-BODY\n    expect: { status: 200 }\n`,
      { probe: `name: probe\nparams: []\nsteps:\n  - request: { method: GET, path: /probe }\n  - expect: { status: 200 }\n  - clause: EP-INDICATION-GET\n    expect: { status: 200 }\n` },
    );
    const target = makeTarget(stub.url);
    const r = await run(s, target, { schemas: fakeSchemas(() => ({ operation: 'probe', schemaId: 'x', knownStatuses: [200] })) });
    assert.equal(r.error, undefined);
    const seen = r.checks.map((c) => `${c.check}@${c.step}:${(c.clauses ?? []).join('+')}`);
    assert.deepEqual(seen, [
      'schema@GET /probe:ERR-AMOUNT-MIN+EP-SUBSCRIBE-BODY',
      'status@expect last: status 200:ERR-AMOUNT-MIN',
      'status@expect last: status 200:EP-INDICATION-GET',
      'schema@GET /y:EP-SUBSCRIBE-BODY',
      'status@expect last: status 200:EP-SUBSCRIBE-BODY',
    ]);
    assert.ok(r.checks.every((c) => c.at && c.at.line > 0), 'each check knows its YAML position');
  });

  it('an expect_count entry with its own clause: judges that clause; the others judge the step\'s', async () => {
    const s = scenario(
      `id: fam.two\ntitle: two\ncovers: [EP-EVENT-PAGING, EP-EVENT-TOTAL]\nsteps:\n`
        + `  - clause: EP-EVENT-PAGING\n    parallel:\n      count: 2\n      request: { method: GET, path: /p, schema: none }\n`
        + `      expect_count:\n        - { status: 200, equals: 2 }\n        - { status: 200, equals: 1, clause: EP-EVENT-TOTAL }\n`,
    );
    const r = await run(s, makeTarget(stub.url));
    const counts = r.checks.filter((c) => c.check === 'count');
    assert.deepEqual(counts.map((c) => `${c.passed}:${(c.clauses ?? []).join('+')}`), ['true:EP-EVENT-PAGING', 'false:EP-EVENT-TOTAL']);
  });
});

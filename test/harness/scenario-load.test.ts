import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { FtfError } from '../../src/shared/errors.js';
import { loadClauseCatalogue } from '../../src/harness/spec/clauses.js';
import { describeProblem, loadScenarioSuite, loadScenarios } from '../../src/harness/scenario/load.js';
import { TEST_CLAUSES } from './engine-helpers.js';

const FIXTURES = join(import.meta.dirname, '../fixtures/scenarios');
const clauses = new Map([
  ...TEST_CLAUSES,
  ['T-TWO', { id: 'T-TWO', ref: '', says: '', level: 'should' as const, needs: ['clock' as const] }],
]);

describe('scenario loader: good files', () => {
  const suite = loadScenarioSuite(join(FIXTURES, 'good'), { clauses });

  it('loads every scenario, skips _steps, reports no problems', () => {
    assert.deepEqual(suite.problems.map(describeProblem), []);
    assert.deepEqual(suite.scenarios.map((s) => s.id), ['alpha.first', 'alpha.second']);
  });

  it('family defaults to the folder; needs are united with the clauses; level follows the clauses', () => {
    const [first, second] = suite.scenarios;
    assert.equal(first?.family, 'alpha');
    assert.equal(second?.family, 'custom');
    assert.deepEqual(second?.needs, ['clock']);
    assert.equal(second?.level, 'should');
    assert.equal(first?.level, 'must');
  });

  it('steps carry their YAML position and use: steps their resolved group', () => {
    const first = suite.scenarios[0];
    assert.deepEqual(first?.steps.map((s) => [s.kind, s.location.line, s.location.column]), [
      ['use', 8, 5],
      ['expect', 10, 5],
      ['capture', 13, 5],
      ['set', 14, 5],
    ]);
    assert.equal(first?.steps[0]?.group?.name, 'get-thing');
    assert.deepEqual(first?.steps[0]?.group?.required, ['thing_id']);
    assert.match(first?.steps[0]?.location.file ?? '', /alpha[/\\]first\.yaml$/);
  });
});

describe('scenario loader: broken files', () => {
  const suite = loadScenarioSuite(join(FIXTURES, 'broken'), { clauses });
  const problem = (name: string): FtfError => {
    const p = suite.problems.find((x) => x.file.endsWith(name));
    assert.ok(p, `expected a problem for ${name}; got ${suite.problems.map((x) => x.file).join(', ')}`);
    const e = p.errors[0];
    assert.ok(e instanceof FtfError);
    assert.equal(e.code, 'FTF_E_SCENARIO_INVALID');
    assert.ok(e.location?.file?.endsWith(name));
    return e;
  };
  const at = (e: FtfError): string => `${e.location?.line}:${e.location?.column}`;

  it('a broken file never hides the good one next to it', () => {
    assert.deepEqual(suite.scenarios.map((s) => s.id), ['broken.dup']);
    assert.equal(suite.problems.length, 10);
  });

  it('YAML syntax errors have a line and column', () => {
    const e = problem('syntax.yaml');
    assert.match(e.message, /YAML syntax error/);
    assert.ok((e.location?.line ?? 0) >= 5);
  });

  it('unknown clause id points at the list item', () => {
    const e = problem('unknown-clause.yaml');
    assert.match(e.message, /unknown clause id 'NOPE-42'/);
    assert.equal(at(e), '5:5');
  });

  it('duplicate ids name both files', () => {
    const e = problem('dup-b.yaml');
    assert.match(e.message, /duplicate scenario id 'broken\.dup' \(also in .*dup-a\.yaml\)/);
    assert.equal(at(e), '1:5');
  });

  it('unknown fields point at the key and list what is allowed', () => {
    const e = problem('unknown-field.yaml');
    assert.match(e.message, /unknown field 'querry' in 'steps\.0\.request'/);
    assert.equal(at(e), '8:7');
    assert.match(e.hint ?? '', /query/);
  });

  it('a variable read before it is defined is caught statically', () => {
    const e = problem('unknown-variable.yaml');
    assert.match(e.message, /unknown variable 'later'/);
    assert.equal(at(e), '7:13');
  });

  it('bad expressions, unknown functions, unknown groups, clock without needs, two kinds in one step', () => {
    assert.match(problem('bad-expression.yaml').message, /unexpected '==' in expression `r\.status == == 200` at position 13/);
    assert.match(problem('unknown-function.yaml').message, /unknown function 'process\(\)'/);
    assert.equal(at(problem('unknown-group.yaml')), '5:10');
    assert.match(problem('clock-without-need.yaml').message, /needs: \[clock\]/);
    const two = problem('two-kinds.yaml');
    assert.match(two.message, /exactly one step kind key/);
    assert.equal(suite.problems.find((p) => p.file.endsWith('two-kinds.yaml'))?.errors.length, 1);
  });

  it('describe() gives file:line:col and the hint in one line', () => {
    assert.match(problem('unknown-clause.yaml').describe(), /^FTF_E_SCENARIO_INVALID: .*unknown-clause\.yaml:5:5\) — /);
  });

  it('loadScenarios throws the first problem', () => {
    assert.throws(() => loadScenarios(join(FIXTURES, 'broken'), { clauses }), (e: FtfError) => e.code === 'FTF_E_SCENARIO_INVALID');
  });
});

describe('scenario loader: the real specs', () => {
  it('the smoke scenarios load against the real clause catalogue', () => {
    const real = loadClauseCatalogue().byId;
    assert.ok(real.has('AUTH-TOKEN-ROOT'));
    const suite = loadScenarioSuite(join(import.meta.dirname, '../../specs'), { clauses: real });
    assert.deepEqual(suite.problems.map(describeProblem), []);
    assert.ok(suite.scenarios.some((s) => s.id === 'checkpoints.race' && s.needs.includes('mutation')));
  });

  it('one family folder still finds the shared step groups in specs/_steps and keeps its family name', () => {
    const suite = loadScenarioSuite(join(import.meta.dirname, '../../specs/token'), { clauses: loadClauseCatalogue().byId });
    assert.deepEqual(suite.problems.map(describeProblem), []);
    assert.ok(suite.scenarios.length > 0);
    assert.ok(suite.scenarios.every((s) => s.family === 'token'));
  });

  it('FTF_SPEC_DIR that does not exist is a typed error', () => {
    assert.throws(() => loadClauseCatalogue('/nonexistent/spec'), (e: FtfError) => e.code === 'FTF_E_SPEC_MISSING' && /FTF_SPEC_DIR/.test(e.hint ?? ''));
  });
});

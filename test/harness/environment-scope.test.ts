/**
 * The rule of src/harness/scenario/environment.ts: which scenarios the embedded reference's `production`
 * project runs (those whose run can differ by environment), over the real clause catalogue and scenario
 * catalogue, and the project that applies it (playwright.config.ts, listed by Playwright itself).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { PROPERTY_TESTS } from '../../src/harness/properties/catalogue.js';
import { REPO_ROOT } from '../../src/harness/repo-root.js';
import { PRODUCTION_MUTATION_SKIP_REASON } from '../../src/harness/target/guard.js';
import { namesEnvironment, PRODUCTION_GREP, PRODUCTION_TAG, productionReasons, projectScopeReason, SANDBOX_ONLY_REASON } from '../../src/harness/scenario/environment.js';
import { loadScenarioSuite } from '../../src/harness/scenario/load.js';
import { extraTestTags, scenarioTestTags } from '../../src/harness/scenario/selection.js';
import { loadClauseCatalogue } from '../../src/harness/spec/clauses.js';

const suite = loadScenarioSuite(join(REPO_ROOT, 'specs'));
// A clock-less form is no test of its own (it runs inside its clock scenario's test).
const tests = suite.scenarios.filter((s) => s.formOf === undefined);
const inProduction = (id: string): boolean => productionReasons(tests.find((s) => s.id === id)!).length > 0;

describe('environment scope: the rule', () => {
  it('the clauses naming an environment are exactly AUTH-API-KEY (its wording: sandbox keys, production OAuth)', () => {
    assert.deepEqual(loadClauseCatalogue().clauses.filter(namesEnvironment).map((c) => c.id), ['AUTH-API-KEY']);
    assert.equal(namesEnvironment({ says: 'Pages hold at most limit events.', needs: [] }), false);
    assert.equal(namesEnvironment({ says: 'x', needs: ['production'] }), true);
  });

  it('each reason on its own; none = sandbox only', () => {
    assert.deepEqual(productionReasons({ needs: [], tags: [] }), []);
    assert.deepEqual(productionReasons({ needs: ['clock', 'consent', 'readonly-user'], tags: ['auth'] }), []);
    assert.deepEqual(productionReasons({ needs: [], tags: [], environmentClauses: ['AUTH-API-KEY'] }), ['covers AUTH-API-KEY, which names an environment']);
    assert.deepEqual(productionReasons({ needs: ['production', 'api-key-probe'], tags: [] }), ['needs production']);
    assert.deepEqual(productionReasons({ needs: ['mutation'], tags: [] }), ['needs mutation: the production guard decides it there']);
    assert.deepEqual(productionReasons({ needs: ['clock'], tags: [], clocklessForm: 'x.form' }), ['its clock-less form x.form runs there (no control API)']);
    assert.deepEqual(productionReasons({ needs: [], tags: ['@production'] }), ['tagged production']);
  });

  it('over the catalogue: both halves of AUTH-API-KEY, every mutating scenario and every clock scenario with a form; read-only ones stay in sandbox', () => {
    for (const id of ['token.api-key', 'token.api-key-production', 'events.kinds', 'token.expiry']) assert.ok(inProduction(id), id);
    for (const s of tests.filter((x) => x.needs.includes('mutation') || x.clocklessForm !== undefined)) assert.ok(inProduction(s.id), s.id);
    const sandboxOnly = tests.filter((s) => !inProduction(s.id));
    assert.ok(sandboxOnly.length > 0 && sandboxOnly.some((s) => s.id === 'resources.health'));
    for (const s of sandboxOnly) {
      assert.deepEqual(s.environmentClauses, [], s.id);
      assert.ok(!s.needs.some((n) => n === 'mutation' || n === 'sandbox' || n === 'production'), s.id);
    }
  });

  it('the test tag follows the rule (scenarios and property tests)', () => {
    for (const s of tests) assert.equal(scenarioTestTags(s).includes(PRODUCTION_TAG), inProduction(s.id), s.id);
    const tagged = PROPERTY_TESTS.filter((p) => extraTestTags(p).includes(PRODUCTION_TAG)).map((p) => p.id);
    assert.deepEqual(tagged, PROPERTY_TESTS.filter((p) => p.needs?.includes('mutation')).map((p) => p.id));
  });

  it('the project grep matches the tag, not a longer tag or a title word', () => {
    assert.ok(PRODUCTION_GREP.test('production specs/conformance.spec.ts token.api-key: x @token @production'));
    assert.ok(PRODUCTION_GREP.test('sandbox f t @production @exclusive'));
    assert.ok(!PRODUCTION_GREP.test('production f token.api-key-production: production refuses @token @production-like'));
    assert.equal(projectScopeReason({ scope: PRODUCTION_TAG }), SANDBOX_ONLY_REASON);
    assert.equal(projectScopeReason({ mode: 'production' }), undefined);
    assert.equal(projectScopeReason(undefined), undefined);
  });
});

describe('environment scope: the production project', () => {
  it('Playwright lists in project production exactly the tests the rule picks, in sandbox every test', () => {
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('FTF_')) env[k] = v;
    const r = spawnSync(process.execPath, [join(REPO_ROOT, 'node_modules/@playwright/test/cli.js'), 'test', '--list', '--reporter=list'], { cwd: REPO_ROOT, env, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    // "  [production] › scenario-tests.ts:85:3 › token.api-key: title" (where conformance.spec.ts and production.spec.ts
    // declare them; property tests: properties/<file>.spec.ts)
    const lines = (project: string): string[] => r.stdout.split('\n').filter((l) => l.includes(`[${project}] › `));
    const yamlIn = (project: string): string[] => lines(project).flatMap((l) => /scenario-tests\.ts:\d+:\d+ › ([a-z0-9.-]+): /.exec(l)?.[1] ?? []).sort();
    const properties = (project: string): number => lines(project).filter((l) => l.includes('properties/')).length;
    assert.deepEqual(yamlIn('sandbox'), tests.map((s) => s.id).sort());
    assert.deepEqual(yamlIn('production'), tests.filter((s) => inProduction(s.id)).map((s) => s.id).sort());
    assert.equal(properties('sandbox'), PROPERTY_TESTS.length);
    assert.equal(properties('production'), PROPERTY_TESTS.filter((p) => extraTestTags(p).includes(PRODUCTION_TAG)).length);
  });

  it('the production guard\'s skips are declared (Playwright reports them without a worker); sandbox declares none', () => {
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('FTF_')) env[k] = v;
    const r = spawnSync(process.execPath, [join(REPO_ROOT, 'node_modules/@playwright/test/cli.js'), 'test', '--list', '--reporter=json'], { cwd: REPO_ROOT, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    assert.equal(r.status, 0, r.stderr);
    type Listed = { projectName: string; expectedStatus: string; annotations: Array<{ type: string; description?: string }> };
    type Suite = { specs?: Array<{ tests: Listed[] }>; suites?: Suite[] };
    const listed: Listed[] = [];
    const walk = (s: Suite): void => {
      for (const spec of s.specs ?? []) listed.push(...spec.tests);
      for (const child of s.suites ?? []) walk(child);
    };
    for (const s of (JSON.parse(r.stdout) as { suites: Suite[] }).suites) walk(s);
    const declared = (project: string): Map<string, string | undefined> => new Map(listed.filter((t) => t.projectName === project && t.expectedStatus === 'skipped').map((t) => [t.annotations.find((a) => a.type === 'scenario')?.description ?? '?', t.annotations.find((a) => a.type === 'skip')?.description]));
    assert.equal(declared('sandbox').size, 0);
    const mutating = tests.filter((s) => inProduction(s.id) && s.needs.includes('mutation')).map((s) => s.id).sort();
    assert.ok(mutating.length > 0);
    assert.deepEqual([...declared('production').keys()].sort(), mutating);
    for (const reason of declared('production').values()) assert.equal(reason, PRODUCTION_MUTATION_SKIP_REASON);
  });
});

/**
 * The test set of `npm run mutation:code` (src/mutation-code/conformance-tests.ts): its environments and one test of
 * each kind run for real against a fresh reference (no Stryker: the unmutated code), so the set's dry run cannot
 * fail on an environment nobody tried.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeVariantProfile } from '../../src/selftest/variant-profile.js';
import { REPO_ROOT } from '../../src/harness/repo-root.js';
import { describe, it } from 'node:test';
import { testSet, verdictOfRecord } from '../../src/mutation-code/conformance-tests.js';
import type { OutcomeRecord } from '../../src/harness/report/records/outcome.js';
import { PERSONAS } from '../../src/reference/variants.js';

describe('mutation:code test set', () => {
  it('holds every environment, the variant personas among them, and a persona test passes against its variants', async () => {
    const set = testSet();
    const tests = await set.load();
    try {
      const environments = new Set(tests.map((t) => t.id.slice(0, t.id.indexOf(':'))));
      for (const name of ['sandbox', 'production', 'no-control', 'property', ...PERSONAS.map((p) => `persona-${p.name}`)]) assert.ok(environments.has(name), `${name} tests`);
      // paged-and-shaped pages the subscription list by page number: this scenario's list walk reaches http/paging.ts.
      const paged = tests.find((t) => t.id === 'persona-paged-and-shaped:permissions.entity-scope-subscriptions');
      assert.ok(paged, 'persona-paged-and-shaped:permissions.entity-scope-subscriptions');
      assert.deepEqual(await paged.run(), { status: 'passed' });
    } finally {
      await set.dispose?.();
    }
  });

  it('loads no module Stryker mutates when the runner plugin imports it (a static mutant there would never be on)', () => {
    // What scripts/stryker-runner.mjs imports at init, in a process that logs every module it resolves.
    const hook = `export async function resolve(s, c, n) { const r = await n(s, c); if (r.url.startsWith('file:')) process.stderr.write('LOADED ' + r.url + '\\n'); return r; }`;
    const script = `import { register } from 'node:module'; register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hook)}));`
      + ` await import('./src/mutation-code/runner.ts'); await import('./src/mutation-code/conformance-tests.ts');`;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO_ROOT, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /LOADED .*src\/mutation-code\/conformance-tests\.ts/, 'the hook saw the test set load');
    const mutated = r.stderr.split('\n').filter((l) => /src\/reference\/(domain|routes|auth|http)\//.test(l));
    assert.deepEqual(mutated, []);
  });

  it('reads the personas\' profiles from FTF_MUTATION_PERSONA_DIR when mutation:code wrote them (not generated under a mutant)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ftf-personas-'));
    const saved = process.env.FTF_MUTATION_PERSONA_DIR;
    process.env.FTF_MUTATION_PERSONA_DIR = dir;
    try {
      // Nothing written there yet: the set does not fall back to generating them.
      const empty = testSet();
      await assert.rejects(empty.load(), /variant-all-alternate\.yaml/);
      await empty.dispose?.();
      for (const p of PERSONAS) writeVariantProfile(dir, p.name, p.variants);
      const set = testSet({ only: /^persona-paged-and-shaped:permissions\.entity-scope-subscriptions$/ });
      try {
        const [test] = await set.load();
        assert.deepEqual(await test!.run(), { status: 'passed' });
      } finally {
        await set.dispose?.();
      }
    } finally {
      if (saved === undefined) delete process.env.FTF_MUTATION_PERSONA_DIR;
      else process.env.FTF_MUTATION_PERSONA_DIR = saved;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names a scenario\'s test with a digest of its YAML, so Stryker takes a sharpened scenario for a new test', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ftf-stamp-'));
    const saved = process.env.FTF_SPECS_DIR;
    process.env.FTF_SPECS_DIR = join(dir, 'specs');
    try {
      cpSync(join(REPO_ROOT, 'specs'), join(dir, 'specs'), { recursive: true });
      const nameOf = async (): Promise<string> => {
        const set = testSet({ personas: false, only: /^sandbox:token\.bearer-401$/ });
        try {
          return (await set.load())[0]!.name;
        } finally {
          await set.dispose?.();
        }
      };
      const first = await nameOf();
      assert.match(first, /^sandbox: token\.bearer-401 \[[0-9a-f]{8}\]: /);
      assert.equal(await nameOf(), first, 'the same YAML, the same name');
      const file = join(dir, 'specs', 'token', 'bearer-401.yaml');
      writeFileSync(file, `${readFileSync(file, 'utf8')}\n# sharpened\n`);
      assert.notEqual(await nameOf(), first, 'another YAML, another name');
    } finally {
      if (saved === undefined) delete process.env.FTF_SPECS_DIR;
      else process.env.FTF_SPECS_DIR = saved;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('leaves the personas out on request', async () => {
    const set = testSet({ personas: false });
    try {
      assert.equal((await set.load()).filter((t) => t.id.startsWith('persona-')).length, 0);
    } finally {
      await set.dispose?.();
    }
  });

  describe('a scenario\'s verdict from its outcome record', () => {
    const record = (over: Partial<OutcomeRecord>): OutcomeRecord => ({ status: 'passed', clauses: [], checks: [], exchanges: [], warnings: [], ...over });
    it('passes a clean pass, skips a skip, kills a failure or an error', () => {
      assert.deepEqual(verdictOfRecord(record({})), { status: 'passed' });
      assert.deepEqual(verdictOfRecord(record({ status: 'not-applicable', reason: 'no api key' })), { status: 'skipped', reason: 'no api key' });
      const failed = verdictOfRecord(record({ status: 'failed', code: 'FTF_E_CHECK_FAILED', clauses: ['AUTH-BEARER'] }), 'expected 401');
      assert.equal(failed.status, 'failed');
      assert.match(failed.status === 'failed' ? failed.message : '', /^failed FTF_E_CHECK_FAILED \(clauses AUTH-BEARER\): expected 401/);
      assert.equal(verdictOfRecord(record({ status: 'errored', code: 'FTF_E_TARGET_TIMEOUT' })).status, 'failed');
    });
    it('kills a pass with a should clause\'s warning: the harness saw the deviation', () => {
      const v = verdictOfRecord(record({ warnings: [{ check: 'status', message: 'expected a status below 500\ngot 500', clauses: ['ERR-NO-SERVER-ERROR'] }] }));
      assert.deepEqual(v, { status: 'failed', message: 'warning (should) [status] (clauses ERR-NO-SERVER-ERROR): expected a status below 500\ngot 500' });
    });
  });
});

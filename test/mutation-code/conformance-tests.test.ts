/**
 * The test set of `npm run mutation:code` (src/mutation-code/conformance-tests.ts): its environments and one test of
 * each kind run for real against a fresh reference (no Stryker: the unmutated code), so the set's dry run cannot
 * fail on an environment nobody tried.
 */
import { strict as assert } from 'node:assert';
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

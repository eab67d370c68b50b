/**
 * scripts/mutation-code-incremental.mjs: when the test set grew, the static mutants an earlier run did not detect are
 * dropped from Stryker's incremental file (Stryker would reuse their survival: they have no per-test coverage), only
 * within the run's folders, and nothing else is touched.
 */
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
// @ts-expect-error a plain ESM script of the repository, without types
import { dropStaleStaticResults } from '../../scripts/mutation-code-incremental.mjs';

type Mutant = { id: string; static?: boolean; status: string };
const incremental = (): { testFiles: Record<string, { tests: Array<{ id: string; name: string }> }>; files: Record<string, { mutants: Mutant[] }> } => ({
  testFiles: { '': { tests: [{ id: '0', name: 'sandbox: a' }, { id: '1', name: 'sandbox: b' }] } },
  files: {
    'src/reference/http/paging.ts': { mutants: [
      { id: '1', static: true, status: 'Survived' },
      { id: '2', static: true, status: 'NoCoverage' },
      { id: '3', static: true, status: 'Killed' },
      { id: '4', status: 'Survived' },
    ] },
    'src/reference/auth/bearer.ts': { mutants: [{ id: '5', static: true, status: 'Survived' }] },
  },
});

describe('static mutants retested when the test set grew', () => {
  it('drops the undetected static results of the run\'s folders when a test was added', () => {
    const inc = incremental();
    const r = dropStaleStaticResults(inc, ['sandbox: a', 'sandbox: b', 'persona-x: a'], ['http']);
    assert.deepEqual(r, { added: ['persona-x: a'], dropped: 2 });
    assert.deepEqual(inc.files['src/reference/http/paging.ts']!.mutants.map((m) => m.id), ['3', '4']);
    assert.deepEqual(inc.files['src/reference/auth/bearer.ts']!.mutants.map((m) => m.id), ['5'], 'another folder keeps its results');
  });

  it('keeps everything when no test was added (a test removed changes nothing here)', () => {
    const inc = incremental();
    assert.deepEqual(dropStaleStaticResults(inc, ['sandbox: a'], ['http', 'auth']), { added: [], dropped: 0 });
    assert.deepEqual(inc, incremental());
  });
});

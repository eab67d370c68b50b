/**
 * The exclusive phase is a Playwright teardown project, which Playwright runs in full whatever the command
 * line selects; shared-phases.ts folds the runner's --grep / --grep-invert / file filters into its grep.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cliSelection, sharedTargetProjects } from '../../src/harness/shared-phases.js';

const ENTRY = '/repo/specs/conformance.spec.ts';
const title = (s: string): string => `${s} @family @exclusive`;
const argv = (...a: string[]): string[] => ['node', '/x/cli.js', 'test', ...a];

test('cliSelection reads --grep (both spellings), --grep-invert, --shard and file filters, skipping option values', () => {
  const sel = cliSelection(argv('--grep', 'a', '-g', 'b', '--grep-invert=c', '--workers', '2', '--reporter=line', 'specs/x.spec.ts:12', '--output', 'out'));
  assert.deepEqual(sel, { grep: ['a', 'b'], grepInvert: ['c'], files: ['specs/x.spec.ts:12'], shard: false });
  assert.equal(cliSelection(argv('--shard', '1/2')).shard, true);
});

test('the exclusive project matches its tag AND every --grep; an unrelated file filter empties it; --shard gives one plain project', () => {
  const [shared, exclusive] = sharedTargetProjects(argv('--grep', 'token\\.expiry:'), ENTRY);
  assert.equal(shared?.teardown, 'exclusive');
  assert.ok(shared?.grepInvert?.test(title('token.expiry: x')));
  assert.ok(exclusive?.grep?.test(title('token.expiry: x')));
  assert.equal(exclusive?.grep?.test(title('lifecycle.late-funding: x')), false);
  assert.equal(exclusive?.grep?.test('token.expiry: x @family'), false, 'untagged titles never run alone');
  assert.equal(exclusive?.workers, 1);

  const all = sharedTargetProjects(argv(), ENTRY)[1]!;
  assert.ok(all.grep?.test(title('anything')));
  assert.equal(sharedTargetProjects(argv('specs/properties'), ENTRY)[1]?.grep?.test(title('anything')), false);
  assert.ok(sharedTargetProjects(argv('specs/conformance.spec.ts'), ENTRY)[1]?.grep?.test(title('anything')));
  const inverted = sharedTargetProjects(argv('--grep-invert', '@webhooks'), ENTRY)[1]!;
  assert.ok(inverted.grepInvert?.test('webhooks.x @webhooks @exclusive'));
  assert.deepEqual(sharedTargetProjects(argv('--shard', '2/3'), ENTRY), [{}]);
});

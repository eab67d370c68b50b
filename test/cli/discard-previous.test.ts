/**
 * An earlier run's reports are out of the way the moment `run` starts (renamed, never readable under their
 * names again) and deleted in the background; a discard folder left by a killed run goes with the next run.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { discardPrevious } from '../../src/cli/discard-previous.js';

const dir = mkdtempSync(join(tmpdir(), 'ftf-discard-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('old reports are gone from their paths at once and deleted by the time the promise ends', async () => {
  const root = join(dir, 'reports');
  mkdirSync(join(root, 'har'), { recursive: true });
  for (let i = 0; i < 50; i++) writeFileSync(join(root, 'har', `${i}.har`), '{}');
  writeFileSync(join(root, 'results.json'), '{}');
  writeFileSync(join(root, 'keep.txt'), 'not this run’s to delete');
  const done = discardPrevious(root, [join(root, 'har'), join(root, 'results.json'), join(root, 'missing.json')]);
  assert.equal(existsSync(join(root, 'har')), false);
  assert.equal(existsSync(join(root, 'results.json')), false);
  await done;
  assert.deepEqual(readdirSync(root), ['keep.txt'], 'the discard folder is deleted too; other files stay');
});

test('a discard folder left by a killed run is deleted by the next run, even with nothing new to discard', async () => {
  const root = join(dir, 'killed');
  mkdirSync(join(root, '.discarded-1234-abcdef', '0-har'), { recursive: true });
  writeFileSync(join(root, '.discarded-1234-abcdef', '0-har', 'x.har'), '{}');
  await discardPrevious(root, [join(root, 'results.json')]);
  assert.deepEqual(readdirSync(root), []);
});

/** bench/run-all.ts runs the benchmarks it is given: `startup` alone is startup alone, with or without --baseline. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseBenchArgs } from '../../bench/lib/args.js';

const KNOWN = ['validation', 'overhead', 'startup', 'walk'];

test('the names given are the benchmarks run, the first one included', () => {
  assert.deepEqual(parseBenchArgs(['startup'], KNOWN), { quick: false, names: ['startup'] });
  assert.deepEqual(parseBenchArgs(['validation', 'walk'], KNOWN).names, ['validation', 'walk']);
  assert.deepEqual(parseBenchArgs(['--quick', 'startup'], KNOWN), { quick: true, names: ['startup'] });
  assert.deepEqual(parseBenchArgs(['startup', '--baseline', '../old', 'walk'], KNOWN), { quick: false, baseline: '../old', names: ['startup', 'walk'] });
  assert.deepEqual(parseBenchArgs([], KNOWN), { quick: false, names: [] });
});

test('an unknown name or a --baseline without its folder is refused', () => {
  assert.throws(() => parseBenchArgs(['startp'], KNOWN), /unknown benchmark startp/);
  assert.throws(() => parseBenchArgs(['--baseline'], KNOWN), /--baseline needs a folder/);
  assert.throws(() => parseBenchArgs(['--baseline', '--quick'], KNOWN), /--baseline needs a folder/);
});

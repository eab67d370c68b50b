/**
 * The workers' heap ceiling (src/harness/worker-heap.ts): added to NODE_OPTIONS once, never over a ceiling the
 * user set. That the workers of a real run get it: test/cli/prestart.test.ts reads a worker's environment.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { WORKER_OLD_SPACE_MIB, workerNodeOptions } from '../../src/harness/worker-heap.js';

const CEILING = `--max-old-space-size=${WORKER_OLD_SPACE_MIB}`;

describe('workerNodeOptions', () => {
  test('adds the ceiling to no options and beside the user\'s other options', () => {
    assert.equal(workerNodeOptions(undefined), CEILING);
    assert.equal(workerNodeOptions('  '), CEILING);
    assert.equal(workerNodeOptions('--enable-source-maps'), `--enable-source-maps ${CEILING}`);
  });

  test('idempotent: the config is loaded by the runner and again by every worker', () => {
    assert.equal(workerNodeOptions(workerNodeOptions('--trace-warnings')), `--trace-warnings ${CEILING}`);
  });

  test('a ceiling the user set wins, in any of the spellings Node accepts', () => {
    for (const own of ['--max-old-space-size=4096', '--max_old_space_size=4096', '--trace-warnings --max-old-space-size=300']) {
      assert.equal(workerNodeOptions(own), own);
    }
    // A flag that only shares the prefix is not a ceiling.
    assert.equal(workerNodeOptions('--max-old-space-size-x=1'), `--max-old-space-size-x=1 ${CEILING}`);
  });

  test('Node takes the options as the heap limit (the value V8 sizes its growth by)', () => {
    const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(require("node:v8").getHeapStatistics().heap_size_limit))'], {
      env: { ...process.env, NODE_OPTIONS: workerNodeOptions(undefined) },
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    const limitMiB = Number(r.stdout) / 2 ** 20;
    // The limit is the old generation plus the young generation's reserve: above the ceiling, far below Node's default.
    assert.ok(limitMiB >= WORKER_OLD_SPACE_MIB && limitMiB < WORKER_OLD_SPACE_MIB + 256, `heap_size_limit ${limitMiB.toFixed(0)} MiB`);
  });
});

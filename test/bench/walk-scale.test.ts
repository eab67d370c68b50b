/**
 * The walk-scale benchmark's arithmetic (bench/walk-scale.ts): the sizes it walks and the ratios it prints, from two
 * walk results (no walk is run here: the benchmark itself is `npx tsx bench/run-all.ts walk-scale`).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { scaleFigures, walkSizes } from '../../bench/walk-scale.js';
import type { RealWalkResult } from '../../bench/real-walk.js';

const walk = (events: number, wallMs: number, peakMiB: number, reportBytes: number, exitCode: number | null = 0): RealWalkResult => ({
  events, wallMs, exitCode, processes: [{ pid: 1, command: 'worker', peakMiB }, { pid: 2, command: 'runner', peakMiB: peakMiB / 2 }], reportBytes: { har: reportBytes }, totalReportBytes: reportBytes,
});

test('sizes: 1M and 10M by default, 100k and 1M with --quick, or the two given; a bad pair is refused, naming the variable', () => {
  assert.deepEqual(walkSizes(false, undefined), [1_000_000, 10_000_000]);
  assert.deepEqual(walkSizes(true, ''), [100_000, 1_000_000]);
  assert.deepEqual(walkSizes(false, '1000, 5000'), [1000, 5000]);
  for (const bad of ['1000', '5000,1000', 'a,b', '0,10', '1.5,10']) assert.throws(() => walkSizes(false, bad), /FTF_BENCH_WALK_SCALE/);
});

test('figures: time per event and peak RSS of the large walk against the small one, and against the bounds', () => {
  const [time, rss, rssBound, reports] = scaleFigures(walk(1_000_000, 40_000, 250, 5e6), walk(10_000_000, 440_000, 260, 6e6));
  assert.equal(time?.ratio?.toFixed(2), '1.10');
  assert.match(time?.figure ?? '', /10M walk/);
  assert.equal(time?.against, 'the 1M walk');
  assert.equal(rss?.ratio?.toFixed(2), '1.04');
  assert.equal(rssBound?.ratio?.toFixed(3), (260 / 300).toFixed(3));
  assert.equal(reports?.ratio?.toFixed(2), '0.30');
});

test('a walk that did not exit 0 says so in every figure', () => {
  for (const f of scaleFigures(walk(1000, 100, 100, 1e5), walk(10_000, 1000, 100, 1e5, 1))) assert.match(f.detail, /exited 1: not a valid figure/);
});

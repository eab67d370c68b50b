/**
 * Walk scale (issue 28, item 4): the real-path walk (bench/real-walk.ts: bench/scenarios/traverse.yaml through
 * `ftf-conformance run`, every reporter, the reference server in its own process) at N events and at 10 x N events,
 * in the same run. Flat scale means the larger walk's time per event and its peak RSS are those of the smaller
 * one, and its reports stay within the bound:
 *   - time per event, large / small (goal <= 1.25: linear, with the fixed start-up spread over more events),
 *   - peak RSS of any process, large / small (goal <= 1.1: the same memory) and large / 300 MiB,
 *   - report bytes of the large walk / 20 MB.
 * Default N = 1M (the 10M walk takes minutes); --quick: 100k and 1M; FTF_BENCH_WALK_SCALE="small,large" sets both.
 *
 *   npx tsx bench/run-all.ts walk-scale [--quick]
 */
import { printRealWalk, realWalk, REPORT_GOAL_MB, RSS_GOAL_MIB, type RealWalkResult } from './real-walk.js';
import type { Benchmark, Figure } from './lib/summary.js';

/** The two sizes: FTF_BENCH_WALK_SCALE="small,large", else 1M and 10M (100k and 1M with --quick). */
export function walkSizes(quick: boolean, spec = process.env.FTF_BENCH_WALK_SCALE): [number, number] {
  if (spec !== undefined && spec.trim() !== '') {
    const parts = spec.split(',').map((s) => Number(s.trim()));
    const [small, large] = parts;
    if (parts.length !== 2 || !Number.isInteger(small) || !Number.isInteger(large) || (small as number) < 1 || (large as number) <= (small as number)) {
      throw new Error(`FTF_BENCH_WALK_SCALE must be "small,large" with 0 < small < large (event counts), got ${JSON.stringify(spec)}`);
    }
    return [small as number, large as number];
  }
  return quick ? [100_000, 1_000_000] : [1_000_000, 10_000_000];
}

const peakOf = (r: RealWalkResult): number => Math.max(...r.processes.map((p) => p.peakMiB));

/** The figures of a pair of walks (pure: tested without walking). */
export function scaleFigures(small: RealWalkResult, large: RealWalkResult): Figure[] {
  const perEvent = (r: RealWalkResult): number => r.wallMs / r.events;
  const ok = (r: RealWalkResult): string => (r.exitCode === 0 ? '' : ` (the ${r.events}-event walk exited ${r.exitCode}: not a valid figure)`);
  const both = `${ok(small)}${ok(large)}`;
  const name = (n: number): string => (n % 1_000_000 === 0 ? `${n / 1_000_000}M` : n % 1000 === 0 ? `${n / 1000}k` : String(n));
  const [s, l] = [name(small.events), name(large.events)];
  return [
    {
      benchmark: 'walk-scale', figure: `time per event, ${l} walk`, ratio: perEvent(large) / perEvent(small), against: `the ${s} walk`, goal: '<= 1.25',
      detail: `${(large.wallMs / 1000).toFixed(1)} s for ${l} vs ${(small.wallMs / 1000).toFixed(1)} s for ${s}${both}`,
    },
    { benchmark: 'walk-scale', figure: `peak RSS of any process, ${l} walk`, ratio: peakOf(large) / peakOf(small), against: `the ${s} walk`, goal: '<= 1.1', detail: `${peakOf(large).toFixed(0)} MiB vs ${peakOf(small).toFixed(0)} MiB${both}` },
    { benchmark: 'walk-scale', figure: `peak RSS of any process, ${l} walk`, ratio: peakOf(large) / RSS_GOAL_MIB, against: `the bound ${RSS_GOAL_MIB} MiB`, goal: '<= 1', detail: `${peakOf(large).toFixed(0)} MiB${both}` },
    { benchmark: 'walk-scale', figure: `report bytes, ${l} walk`, ratio: large.totalReportBytes / 1e6 / REPORT_GOAL_MB, against: `the bound ${REPORT_GOAL_MB} MB`, goal: '<= 1', detail: `${(large.totalReportBytes / 1e6).toFixed(2)} MB (${s}: ${(small.totalReportBytes / 1e6).toFixed(2)} MB)${both}` },
  ];
}

export const walkScaleBenchmark: Benchmark = {
  name: 'walk-scale',
  async run({ quick }) {
    const [small, large] = walkSizes(quick);
    const a = await realWalk(small);
    printRealWalk(a);
    const b = await realWalk(large);
    printRealWalk(b);
    return scaleFigures(a, b);
  },
};

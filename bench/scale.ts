/**
 * Scale: the engine traversal of bench/engine-overhead.ts at 100k and at 1M events. Goals: wall time per
 * event at 1M within 1.2x of the 100k run; peak RSS of the harness process (its own process: the server
 * runs in another) under 400 MB.
 *
 *   npx tsx bench/scale.ts [small=100000] [large=1000000]
 */
import { median, startServerChild, traverse, type Traversal } from './lib/children.js';
import type { Benchmark } from './lib/summary.js';

export interface ScaleResult {
  small: { events: number; runs: Traversal[] };
  large: { events: number; runs: Traversal[] };
  perEventRatio: number;
  peakRssMiB: number;
}

async function engineRuns(events: number, runs: number): Promise<{ events: number; runs: Traversal[] }> {
  const server = await startServerChild(events);
  try {
    const counted = await traverse('bare', server.info); // warm-up, and the exact event count
    const out: Traversal[] = [];
    for (let i = 0; i < runs; i++) out.push(await traverse('engine', server.info));
    return { events: counted.events, runs: out };
  } finally {
    await server.close();
  }
}

export async function scale(small = 100_000, large = 1_000_000): Promise<ScaleResult> {
  const s = await engineRuns(small, 3);
  const l = await engineRuns(large, 1);
  const perEvent = (r: { events: number; runs: Traversal[] }): number => median(r.runs.map((t) => t.wallMs)) / r.events;
  return { small: s, large: l, perEventRatio: perEvent(l) / perEvent(s), peakRssMiB: Math.max(...l.runs.map((t) => t.maxRssMiB)) };
}

export function printScale(r: ScaleResult): void {
  const us = (x: { events: number; runs: Traversal[] }): string => ((median(x.runs.map((t) => t.wallMs)) / x.events) * 1000).toFixed(2);
  console.log(`scale: engine traversal, ${r.small.events} vs ${r.large.events} events`);
  console.log(`  ${r.small.events}: wall ms median ${median(r.small.runs.map((t) => t.wallMs)).toFixed(0)}, ${us(r.small)} µs/event, peak RSS ${Math.max(...r.small.runs.map((t) => t.maxRssMiB)).toFixed(0)} MiB`);
  console.log(`  ${r.large.events}: wall ms ${median(r.large.runs.map((t) => t.wallMs)).toFixed(0)}, ${us(r.large)} µs/event, peak RSS ${r.peakRssMiB.toFixed(0)} MiB`);
  console.log(`ratio per-event 1M/100k ${r.perEventRatio.toFixed(2)} (goal <= 1.2) ${r.perEventRatio <= 1.2 ? 'OK' : 'ABOVE GOAL'}; peak RSS ${r.peakRssMiB.toFixed(0)} MiB (goal < 400) ${r.peakRssMiB < 400 ? 'OK' : 'ABOVE GOAL'}`);
}


/** Quick: 50k vs 500k events (the goals are stated for 100k vs 1M). */
export const scaleBenchmark: Benchmark = {
  name: 'scale',
  run: async ({ quick }) => {
    const r = quick ? await scale(50_000, 500_000) : await scale();
    printScale(r);
    return [
      { benchmark: 'scale', figure: `wall per event, ${r.large.events} vs ${r.small.events} events`, ratio: r.perEventRatio, against: `the ${r.small.events}-event run`, goal: '<= 1.2', detail: `engine traversal, medians` },
      { benchmark: 'scale', figure: `harness peak RSS at ${r.large.events} events`, ratio: r.peakRssMiB / (400_000_000 / 2 ** 20), against: 'the 400 MB goal', goal: '< 1', detail: `${r.peakRssMiB.toFixed(0)} MiB` },
    ];
  },
};

if (import.meta.url === `file://${process.argv[1]}`) {
  printScale(await scale(Number(process.argv[2] ?? 100_000), Number(process.argv[3] ?? 1_000_000)));
}

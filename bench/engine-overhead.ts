/**
 * Engine overhead: page the whole stream of 100k events (limit 1000) through the YAML paginate step of
 * bench/scenarios/traverse.yaml (every event schema-checked, recorder and auth client on the path) versus a
 * bare undici loop doing the same GETs and JSON.parse. Server and harness run in separate processes; each
 * traversal runs in a fresh harness process; after one warm-up of each, rounds alternate which side goes
 * first. The harness CPU ratio is printed too: it does not depend on the server or on other load. Goal: wall
 * ratio <= 1.5.
 *
 *   npx tsx bench/engine-overhead.ts [events=100000] [rounds=3]
 */
import { median, startServerChild, traverse, type Traversal } from './lib/children.js';
import type { Benchmark } from './lib/summary.js';

export interface OverheadResult {
  events: number;
  pages: number;
  bare: Traversal[];
  engine: Traversal[];
  wallRatio: number;
  cpuRatio: number;
}

export async function engineOverhead(events = 100_000, rounds = 3): Promise<OverheadResult> {
  const server = await startServerChild(events);
  try {
    // Warm the server (JIT, caches) before measuring either side; then alternate which side goes first.
    await traverse('bare', server.info);
    await traverse('engine', server.info);
    const bare: Traversal[] = [];
    const engine: Traversal[] = [];
    for (let i = 0; i < rounds; i++) {
      for (const mode of i % 2 ? (['engine', 'bare'] as const) : (['bare', 'engine'] as const)) {
        (mode === 'bare' ? bare : engine).push(await traverse(mode, server.info));
      }
    }
    const pages = bare[0]?.pages ?? 0;
    for (const e of engine) if (e.pages !== pages) throw new Error(`the engine read ${e.pages} pages, the bare loop ${pages}`);
    return {
      events: bare[0]?.events ?? 0,
      pages,
      bare,
      engine,
      wallRatio: median(engine.map((t) => t.wallMs)) / median(bare.map((t) => t.wallMs)),
      cpuRatio: median(engine.map((t) => t.cpuMs)) / median(bare.map((t) => t.cpuMs)),
    };
  } finally {
    await server.close();
  }
}

export function printOverhead(r: OverheadResult): void {
  const row = (name: string, ts: Traversal[]): string =>
    `${name.padEnd(7)} wall ms ${ts.map((t) => t.wallMs.toFixed(0)).join(' / ')} (median ${median(ts.map((t) => t.wallMs)).toFixed(0)}), harness CPU ms median ${median(ts.map((t) => t.cpuMs)).toFixed(0)}, set-up ms ${median(ts.map((t) => t.setupMs)).toFixed(0)}, peak RSS MiB ${Math.max(...ts.map((t) => t.maxRssMiB)).toFixed(0)}`;
  console.log(`engine overhead: ${r.events} events, ${r.pages} pages of 1000`);
  console.log(row('bare', r.bare));
  console.log(row('engine', r.engine));
  console.log(`ratio engine/bare wall ${r.wallRatio.toFixed(2)} (goal <= 1.5) ${r.wallRatio <= 1.5 ? 'OK' : 'ABOVE GOAL'}; harness CPU ratio ${r.cpuRatio.toFixed(2)}`);
}


export const overheadBenchmark: Benchmark = {
  name: 'overhead',
  run: async ({ quick }) => {
    const r = await engineOverhead(100_000, quick ? 1 : 3);
    printOverhead(r);
    const med = (ts: Traversal[], k: 'wallMs' | 'cpuMs'): string => `${median(ts.map((t) => t[k])).toFixed(0)} ms`;
    const of = `(medians of ${r.engine.length})`;
    return [
      { benchmark: 'engine overhead', figure: `${r.events} events, limit 1000, wall`, ratio: r.wallRatio, against: 'bare undici loop, wall', goal: '<= 1.5', detail: `${med(r.engine, 'wallMs')} vs ${med(r.bare, 'wallMs')} ${of}` },
      { benchmark: 'engine overhead', figure: `${r.events} events, limit 1000, harness CPU`, ratio: r.cpuRatio, against: 'bare undici loop, CPU', detail: `${med(r.engine, 'cpuMs')} vs ${med(r.bare, 'cpuMs')} ${of}` },
    ];
  },
};

if (import.meta.url === `file://${process.argv[1]}`) {
  printOverhead(await engineOverhead(Number(process.argv[2] ?? 100_000), Number(process.argv[3] ?? 3)));
}

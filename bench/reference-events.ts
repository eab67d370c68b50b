/**
 * Benchmark of the reference server's event stream: median latency of GET /event?limit=1000 at a random
 * cursor with 10k and 1M events in the stream, their ratio (goal <= 1.3), and the process RSS with 1M
 * events. Server and client share this process (undici over loopback), so RSS slightly overstates the
 * server. Bounded: a fixed number of requests per size (well under 2 minutes).
 *
 *   npm run bench:reference        (tsx bench/reference-events.ts)
 */
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { request } from 'undici';
import { buildReferenceApp } from '../src/reference/app.js';
import { mulberry32 } from '../src/reference/data/prng.js';

const WARMUP = 30;
const SAMPLES = 200;
const PAGE = 1000;

interface Row {
  events: number;
  medianMs: number;
  p95Ms: number;
  rssMiB: number;
  buildMs: number;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};
const p95 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)] ?? 0;

async function measure(events: number): Promise<Row> {
  const t0 = performance.now();
  const { app, ctx, domain } = await buildReferenceApp({ events, seed: 1 });
  const buildMs = performance.now() - t0;
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  const key = ctx.secrets.apiKeys['alice@ftf.test'] ?? '';
  const rng = mulberry32(42);
  // alice sees 2 of 3 entities: start far enough from the head that a page is always full.
  const maxStart = Math.max(1, domain.store.head - 2 * PAGE);
  const once = async (): Promise<number> => {
    const cursor = domain.codec.encode(1 + (rng.next() % maxStart));
    const started = performance.now();
    const res = await request(`http://127.0.0.1:${port}/api/v1/event?limit=${PAGE}&start_cursor=${cursor}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const body = (await res.body.json()) as { events: unknown[] };
    const ms = performance.now() - started;
    if (res.statusCode !== 200 || body.events.length !== PAGE) throw new Error(`unexpected page: ${res.statusCode} ${body.events.length}`);
    return ms;
  };
  for (let i = 0; i < WARMUP; i++) await once();
  const samples: number[] = [];
  for (let i = 0; i < SAMPLES; i++) samples.push(await once());
  global.gc?.();
  const rssMiB = process.memoryUsage().rss / 2 ** 20;
  await app.close();
  return { events, medianMs: median(samples), p95Ms: p95(samples), rssMiB, buildMs };
}

const small = await measure(10_000);
const large = await measure(1_000_000);
const ratio = large.medianMs / small.medianMs;
const fmt = (n: number, d = 2): string => n.toFixed(d).padStart(9);
console.log('reference server, GET /event?limit=1000 at a random cursor');
console.log('   events |  median ms |    p95 ms |  build ms |  RSS MiB');
for (const r of [small, large]) {
  console.log(`${String(r.events).padStart(9)} | ${fmt(r.medianMs)}  | ${fmt(r.p95Ms)} | ${fmt(r.buildMs, 0)} | ${fmt(r.rssMiB, 0)}`);
}
console.log(`ratio 1M/10k median: ${ratio.toFixed(2)} (goal <= 1.3) ${ratio <= 1.3 ? 'OK' : 'ABOVE GOAL'}`);
console.log(`RSS with 1M events: ${large.rssMiB.toFixed(0)} MiB`);

/**
 * Validation throughput: events per second validated by the compiled schemas (the registry the engine
 * uses), per 1000-event page (events-response) and per single event (event), against the baseline of
 * JSON.parse of the same pages measured in the same run. Pages come from the reference server in-process.
 *
 *   npx tsx bench/validation.ts [seconds-per-measure=2]
 */
import { performance } from 'node:perf_hooks';
import { schemaRegistry } from '../src/harness/schemas/registry.js';
import { buildReferenceApp } from '../src/reference/app.js';
import type { Benchmark } from './lib/summary.js';

export interface ValidationResult {
  events: number;
  parsePerSec: number;
  pagePerSec: number;
  eventPerSec: number;
}

async function pages(count: number): Promise<string[]> {
  const { app, ctx, domain } = await buildReferenceApp({ seed: 1 });
  domain.appendSynthetic(count, ['ENT-ALPHA', 'ENT-BETA']);
  const key = ctx.secrets.apiKeys['alice@ftf.test'] ?? '';
  const out: string[] = [];
  let cursor = '';
  for (;;) {
    const res = await app.inject({ method: 'GET', url: `/api/v1/event?limit=1000${cursor ? `&start_cursor=${cursor}` : ''}`, headers: { authorization: `Bearer ${key}` } });
    out.push(res.body);
    const page = JSON.parse(res.body) as { pageInfo: { hasNextPage: boolean; pageEndCursor: string } };
    if (!page.pageInfo.hasNextPage) break;
    cursor = encodeURIComponent(page.pageInfo.pageEndCursor);
  }
  await app.close();
  return out;
}

/** Runs `fn` over the inputs repeatedly for about `seconds`; returns the rate in units per second. */
function rate<T>(inputs: T[], unitsOf: (x: T) => number, fn: (x: T) => void, seconds: number): number {
  let units = 0;
  const start = performance.now();
  while (performance.now() - start < seconds * 1000) {
    for (const x of inputs) {
      fn(x);
      units += unitsOf(x);
    }
  }
  return units / ((performance.now() - start) / 1000);
}

export async function validationThroughput(seconds = 2): Promise<ValidationResult> {
  const texts = await pages(20_000);
  const parsed = texts.map((t) => JSON.parse(t) as { events: unknown[] });
  const events = parsed.flatMap((p) => p.events);
  const registry = schemaRegistry();
  for (const p of parsed) if (!registry.validate('events-response', p).valid) throw new Error('a reference page is not schema-valid');
  const count = (p: { events: unknown[] }): number => p.events.length;
  const indexed = texts.map((text, i) => ({ text, events: parsed[i]?.events.length ?? 0 }));
  const parsePerSec = rate(indexed, (x) => x.events, (x) => JSON.parse(x.text), seconds);
  const pagePerSec = rate(parsed, count, (p) => registry.validate('events-response', p), seconds);
  const eventPerSec = rate(events, () => 1, (e) => registry.validate('event', e), seconds);
  return { events: events.length, parsePerSec, pagePerSec, eventPerSec };
}

export function printValidation(r: ValidationResult): void {
  const k = (n: number): string => `${(n / 1000).toFixed(0)}k`;
  console.log(`validation throughput over ${r.events} reference events`);
  console.log(`  JSON.parse (baseline)              ${k(r.parsePerSec)} events/s`);
  console.log(`  events-response per 1000-event page ${k(r.pagePerSec)} events/s (ratio to JSON.parse ${(r.pagePerSec / r.parsePerSec).toFixed(2)})`);
  console.log(`  event, one by one                  ${k(r.eventPerSec)} events/s (ratio to JSON.parse ${(r.eventPerSec / r.parsePerSec).toFixed(2)})`);
}


export const validationBenchmark: Benchmark = {
  name: 'validation',
  run: async ({ quick }) => {
    const r = await validationThroughput(quick ? 1 : 2);
    printValidation(r);
    const k = (n: number): string => `${(n / 1000).toFixed(0)}k events/s`;
    return [
      { benchmark: 'validation', figure: 'events-response, 1000-event pages (throughput)', ratio: r.pagePerSec / r.parsePerSec, against: 'JSON.parse of the same pages', detail: `${k(r.pagePerSec)} vs ${k(r.parsePerSec)}` },
      { benchmark: 'validation', figure: 'event, one at a time (throughput)', ratio: r.eventPerSec / r.parsePerSec, against: 'JSON.parse of the same pages', detail: `${k(r.eventPerSec)} vs ${k(r.parsePerSec)}` },
    ];
  },
};

if (import.meta.url === `file://${process.argv[1]}`) {
  printValidation(await validationThroughput(Number(process.argv[2] ?? 2)));
}

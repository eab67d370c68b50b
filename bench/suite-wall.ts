/**
 * Suite wall time: the full catalogue (`playwright test`, 2 workers) against the embedded reference, cold
 * (a new Playwright process each time: workers, server start and schema compilation included), median of
 * 3. Per-worker utilisation from Playwright's JSON report: busy time of each parallel slot (sum of its test
 * durations) / the run's wall time. Goal: median under 30 s on a 2-core machine.
 *
 *   npx tsx bench/suite-wall.ts [runs=3]
 */
import { rmSync } from 'node:fs';
import { flattenTests, runCatalogue } from '../src/selftest/catalogue-run.js';
import { median } from './lib/children.js';
import type { Benchmark } from './lib/summary.js';

export interface SuiteRun {
  wallMs: number;
  tests: number;
  passed: number;
  failed: number;
  skipped: number;
  /** parallelIndex -> busy ms / wall ms */
  utilisation: Record<string, number>;
}

export async function suiteWall(runs = 3): Promise<{ runs: SuiteRun[]; medianMs: number }> {
  const out: SuiteRun[] = [];
  for (let i = 0; i < runs; i++) {
    const r = await runCatalogue({ timeoutMs: 600_000, env: { FTF_TARGET: undefined, FTF_WORKERS: '2' } });
    rmSync(r.dir, { recursive: true, force: true });
    if (!r.results) throw new Error(`run ${i + 1}: no results.json (exit ${r.exitCode})\n${r.stderr.slice(-2000)}`);
    const tests = flattenTests(r.results);
    const busy = new Map<number, number>();
    // parallelIndex -1: a test declared skipped, reported by the runner without a worker (no slot to count).
    for (const t of tests) for (const res of t.results) if (res.parallelIndex >= 0) busy.set(res.parallelIndex, (busy.get(res.parallelIndex) ?? 0) + res.duration);
    const wall = r.results.stats.duration;
    out.push({
      wallMs: r.wallMs,
      tests: tests.length,
      passed: tests.filter((t) => t.status === 'expected' || t.status === 'flaky').length,
      failed: tests.filter((t) => t.status === 'unexpected').length,
      skipped: tests.filter((t) => t.status === 'skipped').length,
      utilisation: Object.fromEntries([...busy].sort((a, b) => a[0] - b[0]).map(([w, ms]) => [`worker ${w}`, ms / wall])),
    });
  }
  return { runs: out, medianMs: median(out.map((r) => r.wallMs)) };
}

export function printSuiteWall(r: { runs: SuiteRun[]; medianMs: number }): void {
  console.log('suite wall time: full catalogue, embedded reference, cold, 2 workers');
  r.runs.forEach((x, i) => {
    const util = Object.entries(x.utilisation).map(([w, u]) => `${w} ${(u * 100).toFixed(0)}%`).join(', ');
    console.log(`  run ${i + 1}: ${(x.wallMs / 1000).toFixed(1)} s, ${x.tests} tests (${x.passed} passed, ${x.failed} failed, ${x.skipped} skipped), utilisation ${util}`);
  });
  const ratio = r.medianMs / 30_000;
  console.log(`median ${(r.medianMs / 1000).toFixed(1)} s; ratio to the 30 s goal ${ratio.toFixed(2)} ${ratio < 1 ? 'OK' : 'ABOVE GOAL'}`);
}


export const suiteBenchmark: Benchmark = {
  name: 'suite',
  run: async ({ quick }) => {
    const r = await suiteWall(quick ? 1 : 3);
    printSuiteWall(r);
    return [{ benchmark: 'suite wall', figure: 'full catalogue, embedded reference, cold, 2 workers', ratio: r.medianMs / 30_000, against: 'the 30 s goal', goal: '< 1', detail: `median ${(r.medianMs / 1000).toFixed(1)} s of ${r.runs.length}` }];
  },
};

if (import.meta.url === `file://${process.argv[1]}`) {
  printSuiteWall(await suiteWall(Number(process.argv[2] ?? 3)));
}

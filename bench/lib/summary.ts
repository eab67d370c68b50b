/**
 * The one summary table of `npm run bench` (bench/run-all.ts): every benchmark returns its figures as rows,
 * each a ratio against the baseline it names (measured in the same run), or skipped with the reason (a
 * skipped figure is never printed as a number).
 */
export interface Figure {
  benchmark: string;
  /** What is compared, e.g. "w2 whole process, Step CI". */
  figure: string;
  /** The ratio; absent when skipped. */
  ratio?: number;
  /** The baseline the ratio is against, e.g. "bare undici script". */
  against: string;
  /** e.g. "<= 1.5" (optional). */
  goal?: string;
  /** The measured values behind the ratio, e.g. "812 ms vs 95 ms (medians of 3)". */
  detail: string;
  /** Why there is no figure, e.g. "not installed (npm run bench:setup)". */
  skipped?: string;
}

export interface BenchOptions {
  /** Reduced repetitions (`--quick`): the figures are noisier, the run much shorter. */
  quick: boolean;
  /** Another checkout (with its node_modules) to pair with where a figure is "before vs after" (`--baseline DIR`). */
  baseline?: string;
}

/** One entry of run-all's list: prints its own detail lines while it runs and returns its figures. */
export interface Benchmark {
  name: string;
  run(opts: BenchOptions): Promise<Figure[]>;
}

const cell = (s: string, width: number): string => s.padEnd(width);

export function printSummary(rows: Figure[], load: { start: number[]; end: number[] }): void {
  const fmt = (l: number[]): string => l.map((x) => x.toFixed(1)).join(' ');
  const table = rows.map((r) => [r.benchmark, r.figure, r.skipped === undefined && r.ratio !== undefined ? `${r.ratio.toFixed(2)}x` : `skipped: ${r.skipped ?? 'no figure'}`, r.against, r.goal ?? '', r.detail]);
  const head = ['benchmark', 'figure', 'ratio', 'against', 'goal', 'measured'];
  const widths = head.map((h, i) => Math.max(h.length, ...table.map((t) => (t[i] ?? '').length)));
  console.log(`\n=== summary (load average 1/5/15 min: ${fmt(load.start)} at start, ${fmt(load.end)} at end)`);
  for (const line of [head, ...table]) console.log(line.map((c, i) => cell(c, i === line.length - 1 ? 0 : (widths[i] ?? 0))).join(' | ').trimEnd());
}

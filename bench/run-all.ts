/**
 * `npm run bench`: every benchmark of docs/performance.md, one after the other, each printing its detail
 * lines, then one summary table of every figure as a ratio against the baseline it names (measured in the
 * same run), with the load average at start and end. Select some by name; `--quick` reduces repetitions:
 *   npx tsx bench/run-all.ts [--quick] [--baseline DIR] [validation] [overhead] [scale] [suite] [real-path] [walk] [startup] [walk-scale] [per-request] [redaction] [report-tokens]
 * `--baseline DIR` (a checkout of the code to compare with, with its node_modules): the full suite is timed paired
 * with it (startup); without it that figure is printed as skipped.
 * `walk-scale` (the 1M- and 10M-event walks) runs only when named. A new benchmark exports a `Benchmark`
 * (bench/lib/summary.ts) and is added to BENCHMARKS below.
 */
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { overheadBenchmark } from './engine-overhead.js';
import { perRequestBenchmark } from './per-request.js';
import { realPathBenchmark } from './real-path.js';
import { redactionBenchmark } from './redaction.js';
import { reportTokensBenchmark } from './report-tokens.js';
import { walkBenchmark } from './real-walk.js';
import { walkScaleBenchmark } from './walk-scale.js';
import { scaleBenchmark } from './scale.js';
import { startupBenchmark } from './startup.js';
import { suiteBenchmark } from './suite-wall.js';
import { parseBenchArgs } from './lib/args.js';
import { printSummary, type Benchmark, type Figure } from './lib/summary.js';
import { validationBenchmark } from './validation.js';

const BENCHMARKS: Benchmark[] = [validationBenchmark, overheadBenchmark, scaleBenchmark, suiteBenchmark, realPathBenchmark, startupBenchmark, walkBenchmark, perRequestBenchmark, redactionBenchmark, reportTokensBenchmark];

// Run only when named: the 10M-event walk alone takes minutes.
const ON_REQUEST: Benchmark[] = [walkScaleBenchmark];

const { quick, baseline, names } = parseBenchArgs(process.argv.slice(2), [...BENCHMARKS, ...ON_REQUEST].map((b) => b.name));
const chosen = names.length ? [...BENCHMARKS, ...ON_REQUEST].filter((b) => names.includes(b.name)) : BENCHMARKS;

const start = loadavg();
console.log(`node ${process.version}, ${cpus().length} CPUs, load average ${start.map((l) => l.toFixed(1)).join(' ')}${quick ? ', --quick (reduced repetitions)' : ''}${baseline ? `, baseline ${resolve(baseline)}` : ''}`);
const rows: Figure[] = [];
for (const b of chosen) {
  console.log(`\n--- ${b.name}`);
  rows.push(...(await b.run({ quick, ...(baseline ? { baseline: resolve(baseline) } : {}) })));
}
printSummary(rows, { start, end: loadavg() });

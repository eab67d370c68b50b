/**
 * Real-path walk: the schema-checked walk of bench/scenarios/traverse.yaml (limit 1000, every event checked
 * against event.schema.json) through the CLI (`node bin/ftf-conformance.mjs run`), i.e. the Playwright
 * runner, a worker with the fixture's transport (FTF_TRANSPORT) and the recorder, and every reporter (list, Playwright HTML,
 * results.json, outcomes, Allure results, the HAR sink, then junit, verdicts and the Allure HTML). The
 * reference server runs in its own process (bench/lib/server-child.ts) with N synthetic events; the CLI gets
 * a temporary target profile (the reference profile with the server's URLs; secrets only in the
 * environment) and a temporary reports folder. Measures:
 *   - peak RSS (VmHWM) of every process of the CLI's tree, polled from /proc every 100 ms (a process that
 *     grows in its last 100 ms can be under-read; the server child is not part of the tree),
 *   - bytes written under the reports folder, by kind (HAR, Allure results, Playwright HTML, results.json...),
 *   - wall time from spawn to exit.
 * Goals (issue 15): every process at or under 300 MiB, at most 20 MB of reports, at 1M events.
 *
 *   npx tsx bench/real-walk.ts [--events N]   (default 1000000; 100000 for a quick run)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { startServerChild, type ServerInfo } from './lib/children.js';
import type { Benchmark } from './lib/summary.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SCENARIOS = join(ROOT, 'bench', 'scenarios');
export const RSS_GOAL_MIB = 300;
export const REPORT_GOAL_MB = 20;

export interface ProcessPeak {
  pid: number;
  /** argv[0..2] shortened, enough to tell the runner, the Playwright process, a worker and the Allure CLI apart. */
  command: string;
  peakMiB: number;
}

export interface RealWalkResult {
  events: number;
  wallMs: number;
  exitCode: number | null;
  processes: ProcessPeak[];
  reportBytes: Record<string, number>;
  totalReportBytes: number;
}

/** The reference profile pointed at the server child's URLs (no `embedded`: the CLI runs against it as an external target). */
function writeProfile(dir: string, info: ServerInfo, scenarioMs: number, maxPages: number): string {
  const source = readFileSync(join(ROOT, 'fixtures', 'targets', 'reference.yaml'), 'utf8');
  const text = source
    .replace(/^base_url: .*$/m, `base_url: ${info.env.FTF_BASE_URL}`)
    .replace(/^auth_url: .*$/m, `auth_url: ${info.env.FTF_AUTH_URL}`)
    .replace(/^control_url: .*$/m, `control_url: ${info.env.FTF_CONTROL_URL}`)
    .replace(/^embedded:\n(?: .*\n)+/m, '')
    .replace(/^ {2}scenario_ms: .*$/m, `  scenario_ms: ${scenarioMs}`)
    .replace(/^ {2}max_pages: .*$/m, `  max_pages: ${maxPages}`);
  const file = join(dir, 'walk-target.yaml');
  writeFileSync(file, text);
  return file;
}

function children(): Map<number, number[]> {
  const kids = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      kids.set(ppid, [...(kids.get(ppid) ?? []), Number(name)]);
    } catch {
      // gone between readdir and read
    }
  }
  return kids;
}

function tree(root: number): number[] {
  const kids = children();
  const out: number[] = [];
  const todo = [root];
  while (todo.length) {
    const pid = todo.pop() as number;
    out.push(pid);
    todo.push(...(kids.get(pid) ?? []));
  }
  return out;
}

function sample(pid: number, peaks: Map<number, ProcessPeak>): void {
  try {
    const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    if (!hwm) return;
    const peakMiB = Number(hwm[1]) / 1024;
    const known = peaks.get(pid);
    if (known) {
      known.peakMiB = Math.max(known.peakMiB, peakMiB);
      return;
    }
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    const command = argv.slice(0, 4).map((a) => (a.startsWith(ROOT) ? relative(ROOT, a) : a)).join(' ').slice(0, 120);
    peaks.set(pid, { pid, command, peakMiB });
  } catch {
    // the process ended between listing and reading
  }
}

/** Bytes under dir by kind: the first path segment (har, allure-results, playwright-html...) or the file name. */
export function reportSizes(dir: string): Record<string, number> {
  const sizes: Record<string, number> = {};
  for (const f of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const st = statSync(join(dir, f));
    if (!st.isFile()) continue;
    const kind = f.split(sep)[0] ?? f;
    sizes[kind] = (sizes[kind] ?? 0) + st.size;
  }
  return sizes;
}

export async function realWalk(events = 1_000_000): Promise<RealWalkResult> {
  const work = mkdtempSync(join(tmpdir(), 'ftf-real-walk-'));
  const reports = join(work, 'reports');
  const server = await startServerChild(events);
  console.error(`real-walk: reference server up with ${events} synthetic events`);
  try {
    // The profile's bounds grow with the stream (2 ms per event, at least the profile's 60 s; its pages of 1000 and
    // a few more, at least the profile's 10000): the walk's length is the measured thing, not a limit to hit.
    const profile = writeProfile(work, server.info, Math.max(60_000, events * 2), Math.max(10_000, Math.ceil(events / 1000) + 10));
    const t0 = performance.now();
    const cli = spawn(process.execPath, [join(ROOT, 'bin', 'ftf-conformance.mjs'), 'run', '--target', profile, '--grep', '^bench\\.traverse:', '--workers', '1'], {
      cwd: ROOT,
      env: { ...process.env, ...server.info.env, FTF_SPECS_DIR: SCENARIOS, FTF_REPORTS_DIR: reports },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    cli.stdout.on('data', (d: Buffer) => (output += d.toString()));
    cli.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const peaks = new Map<number, ProcessPeak>();
    const timer = setInterval(() => {
      if (cli.pid !== undefined) for (const pid of tree(cli.pid)) sample(pid, peaks);
    }, 100);
    const exitCode = await new Promise<number | null>((resolve) => cli.once('exit', resolve));
    clearInterval(timer);
    const wallMs = performance.now() - t0;
    console.error(`real-walk: the CLI exited ${exitCode} after ${(wallMs / 1000).toFixed(1)} s`);
    if (exitCode !== 0) console.error(`ftf-conformance run exited ${exitCode}:\n${output.slice(-4000)}`);
    const reportBytes = reportSizes(reports);
    return {
      events,
      wallMs,
      exitCode,
      processes: [...peaks.values()].sort((a, b) => a.pid - b.pid),
      reportBytes,
      totalReportBytes: Object.values(reportBytes).reduce((a, b) => a + b, 0),
    };
  } finally {
    // A server that does not stop in time is not part of the measurement: the bench goes on without it.
    await Promise.race([server.close(), new Promise<void>((resolve) => setTimeout(resolve, 10_000).unref())]);
    if (!process.env.FTF_BENCH_KEEP) rmSync(work, { recursive: true, force: true });
    else console.log(`kept ${work}`);
  }
}

export function printRealWalk(r: RealWalkResult): void {
  const peak = Math.max(...r.processes.map((p) => p.peakMiB));
  const mb = r.totalReportBytes / 1e6;
  console.log(`real-path walk: ${r.events} synthetic events through \`ftf-conformance run\` (every reporter), exit ${r.exitCode}, wall ${(r.wallMs / 1000).toFixed(1)} s`);
  for (const p of r.processes) console.log(`  pid ${p.pid} peak RSS ${p.peakMiB.toFixed(0).padStart(5)} MiB  ${p.command}`);
  const kinds = Object.entries(r.reportBytes).sort((a, b) => b[1] - a[1]);
  console.log(`  reports ${mb.toFixed(2)} MB: ${kinds.map(([k, b]) => `${k} ${(b / 1e6).toFixed(2)}`).join(', ')}`);
  console.log(`peak RSS of any process ${peak.toFixed(0)} MiB (goal <= ${RSS_GOAL_MIB}) ${peak <= RSS_GOAL_MIB ? 'OK' : 'ABOVE GOAL'}; reports ${mb.toFixed(2)} MB (goal <= ${REPORT_GOAL_MB}) ${mb <= REPORT_GOAL_MB ? 'OK' : 'ABOVE GOAL'}`);
}

/** run-all's entry: peak RSS and report size as ratios of the issue's bounds (FTF_BENCH_WALK_EVENTS, default 1M; --quick 100k). */
export const walkBenchmark: Benchmark = {
  name: 'walk',
  async run({ quick }) {
    const events = Number(process.env.FTF_BENCH_WALK_EVENTS ?? (quick ? 100_000 : 1_000_000));
    const r = await realWalk(events);
    printRealWalk(r);
    const peak = Math.max(...r.processes.map((p) => p.peakMiB));
    const mb = r.totalReportBytes / 1e6;
    const what = `${events} events through the CLI, exit ${r.exitCode}`;
    return [
      { benchmark: 'walk', figure: 'peak RSS of any process', ratio: peak / RSS_GOAL_MIB, against: `the bound ${RSS_GOAL_MIB} MiB`, goal: '<= 1', detail: `${peak.toFixed(0)} MiB; ${what}` },
      { benchmark: 'walk', figure: 'report bytes', ratio: mb / REPORT_GOAL_MB, against: `the bound ${REPORT_GOAL_MB} MB`, goal: '<= 1', detail: `${mb.toFixed(2)} MB; ${what}` },
    ];
  },
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const i = process.argv.indexOf('--events');
  printRealWalk(await realWalk(i > 0 ? Number(process.argv[i + 1]) : 1_000_000));
}

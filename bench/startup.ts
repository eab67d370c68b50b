/**
 * Start-up on the real path, as whole processes (Node start included), against ONE reference server started
 * once in its own process (bench/lib/server-child.ts) and named by an external target profile
 * (fixtures/targets/reference.yaml + FTF_BASE_URL/FTF_AUTH_URL and the generated secrets in the environment):
 *   bare  `node bench/lib/bare-one.mjs`: one token request + one GET /indication/{primary} with undici;
 *   tool  `node bin/ftf-conformance.mjs run --target <profile> --grep <one scenario> --workers 1`, every reporter
 *         on, reports into a temp folder; the same two requests (scenario amounts.indication-get);
 *   floor `playwright test` of one empty test (bench/lib/playwright-floor): Playwright's runner alone, no harness
 *         code, the floor under any run through it (printed beside, as a ratio to bare and to the tool).
 * Alternating which goes first, medians of `rounds` (>= 5); prints tool / bare. Goal: <= 3. With `--baseline DIR`
 * the same run of the baseline checkout's CLI (another clone with its node_modules, e.g. main) takes part in every
 * round too (before/after in one run, against the same server and bare script). `--cold` runs this checkout's
 * CLI with FTF_CACHE_DIR=off: nothing kept between runs (the scenario catalogue parsed, the profile checked at
 * every run, as on a fresh CI machine; Playwright's own transpile cache stays as it is).
 *
 * With `--suite BASELINE_DIR` it also times the full `npm run conformance` (`node bin/ftf-conformance.mjs run`,
 * embedded reference, default workers) paired: each round runs the baseline checkout (another clone with its
 * node_modules, e.g. main) and this one, alternating which goes first; prints the median of each and the ratio.
 *
 *   npx tsx bench/startup.ts [--rounds N] [--grep RE] [--baseline DIR] [--cold] [--suite BASELINE_DIR [--suite-rounds N]]
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '../src/harness/repo-root.js';
import { specDir } from '../src/harness/spec/clauses.js';
import { median, startServerChild } from './lib/children.js';
import { playwrightCli } from '../src/cli/playwright.js';
import type { Benchmark, Figure } from './lib/summary.js';

export interface ProcessTime {
  wallMs: number;
  /** CPU (user + system) of the process and every descendant it waited for (Linux /proc; NaN elsewhere). */
  cpuMs: number;
  exitCode: number | null;
}

/** CPU time of this process's waited-for children so far (cutime + cstime of /proc/self/stat, in ms). */
function childrenCpuMs(): number {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').replace(/^.*\) /, '').split(' ');
    // After the command name: state is field 3, cutime/cstime are fields 16 and 17 (1-based), in clock ticks (100 Hz).
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return Number.NaN;
  }
}

const medianOf = (xs: ProcessTime[], k: 'wallMs' | 'cpuMs'): number => median(xs.map((x) => x[k]));
const load = (): string => loadavg().map((l) => l.toFixed(1)).join(' ');

/**
 * Every FTF_* variable of this process is dropped: each side gets exactly the environment it is given, plus
 * this checkout's spec folder (a baseline clone elsewhere would not find ../shared/spec beside it).
 */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('FTF_') && k !== 'CI') env[k] = v;
  return { ...env, FTF_SPEC_DIR: specDir(), ...extra };
}

/** One whole process, spawn to exit; its output is kept and shown only when it fails. */
export function timeProcess(args: string[], env: NodeJS.ProcessEnv, cwd = REPO_ROOT): Promise<ProcessTime & { output: string }> {
  return new Promise((done, fail) => {
    const started = performance.now();
    const cpuBefore = childrenCpuMs();
    const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('error', fail);
    child.once('close', (exitCode) => done({ wallMs: performance.now() - started, cpuMs: childrenCpuMs() - cpuBefore, exitCode, output }));
  });
}

function expectExit(label: string, r: ProcessTime & { output: string }, codes: number[]): ProcessTime {
  if (r.exitCode === null || !codes.includes(r.exitCode)) throw new Error(`${label} exited ${r.exitCode}:\n${r.output.slice(-3000)}`);
  return { wallMs: r.wallMs, cpuMs: r.cpuMs, exitCode: r.exitCode };
}

/**
 * `run` leaves the Allure HTML to a background child (src/cli/pipeline.ts): not part of the timed process,
 * but the next measurement must not share the CPU with it. Waits (untimed) until its log says it ended.
 */
async function backgroundReportDone(reports: string, boundMs = 300_000): Promise<void> {
  const log = join(reports, 'allure-report.log');
  const until = Date.now() + boundMs;
  while (existsSync(log) && readFileSync(log, 'utf8').trim() === '' && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
}

export interface StartupResult {
  bare: ProcessTime[];
  tool: ProcessTime[];
  /** Playwright alone: one empty test, one worker, no reporter (bench/lib/playwright-floor). */
  floor: ProcessTime[];
  /** The baseline checkout's CLI (--baseline), when given. */
  baseline?: ProcessTime[];
  /** tool / bare, medians of wall time; cpuRatio the same of CPU time (less sensitive to other load). */
  ratio: number;
  cpuRatio: number;
  loadBefore: string;
  loadAfter: string;
  /** This checkout ran with FTF_CACHE_DIR=off (--cold). */
  cold: boolean;
}

export async function startup(rounds = 5, grep = '^amounts\\.indication-get:', baselineDir?: string, cold = false): Promise<StartupResult> {
  const loadBefore = load();
  const server = await startServerChild(0);
  const reports = mkdtempSync(join(tmpdir(), 'ftf-startup-'));
  try {
    const env = cleanEnv({ ...server.info.env, FTF_REPORTS_DIR: reports });
    const bareRun = async (): Promise<ProcessTime> => expectExit('bare script', await timeProcess([join(REPO_ROOT, 'bench/lib/bare-one.mjs')], env), [0]);
    const profile = join(REPO_ROOT, 'fixtures/targets/reference.yaml');
    const cliRun = async (root: string, cliEnv = env): Promise<ProcessTime> => {
      rmSync(join(reports, 'allure-report.log'), { force: true });
      const r = expectExit(`ftf-conformance run (${root})`, await timeProcess([join(root, 'bin/ftf-conformance.mjs'), 'run', '--target', profile, '--grep', grep, '--workers', '1'], cliEnv, root), [0]);
      await backgroundReportDone(reports);
      return r;
    };
    const toolRun = (): Promise<ProcessTime> => cliRun(REPO_ROOT, cold ? { ...env, FTF_CACHE_DIR: 'off' } : env);
    const floorDir = join(REPO_ROOT, 'bench/lib/playwright-floor');
    const floorRun = async (): Promise<ProcessTime> => expectExit('Playwright floor', await timeProcess([playwrightCli(), 'test', '-c', join(floorDir, 'playwright.config.mjs')], env, floorDir), [0]);
    // One warm-up of each (file cache), not counted.
    await bareRun();
    await toolRun();
    await floorRun();
    const bare: ProcessTime[] = [];
    const tool: ProcessTime[] = [];
    const floor: ProcessTime[] = [];
    const baseline: ProcessTime[] = [];
    const sides: Array<() => Promise<void>> = [async () => void bare.push(await bareRun()), async () => void tool.push(await toolRun()), async () => void floor.push(await floorRun())];
    if (baselineDir) sides.push(async () => void baseline.push(await cliRun(baselineDir)));
    for (let i = 0; i < rounds; i++) {
      // Rotate which side goes first.
      for (let k = 0; k < sides.length; k++) await sides[(i + k) % sides.length]!();
    }
    return { bare, tool, floor, cold, ...(baselineDir ? { baseline } : {}), ratio: medianOf(tool, 'wallMs') / medianOf(bare, 'wallMs'), cpuRatio: medianOf(tool, 'cpuMs') / medianOf(bare, 'cpuMs'), loadBefore, loadAfter: load() };
  } finally {
    await server.close();
    rmSync(reports, { recursive: true, force: true });
  }
}

export function printStartup(r: StartupResult): void {
  const ms = (xs: ProcessTime[], k: 'wallMs' | 'cpuMs'): string => `median ${medianOf(xs, k).toFixed(0)} ms (${xs.map((x) => x[k].toFixed(0)).join(' / ')})`;
  console.log('start-up, one scenario (one token request + one GET) as a whole process, external reference server');
  console.log(`  bare undici script: wall ${ms(r.bare, 'wallMs')}; CPU ${ms(r.bare, 'cpuMs')}`);
  console.log(`  ftf-conformance run --grep (1 worker, every reporter${r.cold ? ', FTF_CACHE_DIR=off' : ''}): wall ${ms(r.tool, 'wallMs')}; CPU ${ms(r.tool, 'cpuMs')}`);
  console.log(`  Playwright alone (one empty test, 1 worker, no reporter): wall ${ms(r.floor, 'wallMs')}; ${(medianOf(r.floor, 'wallMs') / medianOf(r.bare, 'wallMs')).toFixed(2)}x the bare script, the floor of any run through Playwright's runner; the tool is ${(medianOf(r.tool, 'wallMs') / medianOf(r.floor, 'wallMs')).toFixed(2)}x it`);
  if (r.baseline) console.log(`  baseline checkout's run: wall ${ms(r.baseline, 'wallMs')}; CPU ${ms(r.baseline, 'cpuMs')}; ratio to bare ${(medianOf(r.baseline, 'wallMs') / medianOf(r.bare, 'wallMs')).toFixed(2)} wall, ${(medianOf(r.baseline, 'cpuMs') / medianOf(r.bare, 'cpuMs')).toFixed(2)} CPU`);
  console.log(`  ratio ${r.ratio.toFixed(2)} wall ${r.ratio <= 3 ? 'OK' : 'ABOVE GOAL'} (goal <= 3), ${r.cpuRatio.toFixed(2)} CPU; load average ${r.loadBefore} before, ${r.loadAfter} after`);
}

/** run-all's entry: the one-scenario run against the bare script, whole processes (3 rounds; --quick 1). */
export const startupBenchmark: Benchmark = {
  name: 'startup',
  async run({ quick, baseline }) {
    const r = await startup(quick ? 1 : 3);
    printStartup(r);
    const ms = (xs: ProcessTime[], k: 'wallMs' | 'cpuMs'): string => `${medianOf(xs, k).toFixed(0)} ms`;
    const figures: Figure[] = [
      { benchmark: 'startup', figure: 'one-scenario run, whole process, wall', ratio: r.ratio, against: 'bare undici script', goal: '<= 3', detail: `${ms(r.tool, 'wallMs')} vs ${ms(r.bare, 'wallMs')}` },
      { benchmark: 'startup', figure: 'one-scenario run, whole process, CPU', ratio: r.cpuRatio, against: 'bare undici script', goal: '<= 3', detail: `${ms(r.tool, 'cpuMs')} vs ${ms(r.bare, 'cpuMs')}` },
      { benchmark: 'startup', figure: 'Playwright alone: one empty test, whole process, wall (the floor under the figure above)', ratio: medianOf(r.floor, 'wallMs') / medianOf(r.bare, 'wallMs'), against: 'bare undici script', detail: `${ms(r.floor, 'wallMs')} vs ${ms(r.bare, 'wallMs')}` },
    ];
    const suite = { benchmark: 'startup', figure: 'full npm run conformance (embedded reference), paired', against: 'the --baseline checkout', goal: '<= 0.5' };
    if (!baseline) return [...figures, { ...suite, detail: '', skipped: 'needs --baseline DIR (a checkout of the code to compare with, with its node_modules)' }];
    const pair = await suitePair(baseline, quick ? 1 : 3);
    printSuitePair(pair, baseline);
    const s = (xs: ProcessTime[]): string => `${(medianOf(xs, 'wallMs') / 1000).toFixed(1)} s`;
    return [...figures, { ...suite, ratio: pair.ratio, detail: `${s(pair.current)} vs ${s(pair.baseline)} (medians of ${pair.current.length})` }];
  },
};

export interface SuitePair {
  baseline: ProcessTime[];
  current: ProcessTime[];
  ratio: number;
  loadBefore: string;
  loadAfter: string;
}

/** `npm run conformance` in the baseline checkout and in this one, alternating; reports into temp folders. */
export async function suitePair(baselineDir: string, rounds = 3): Promise<SuitePair> {
  const loadBefore = load();
  const baseline: ProcessTime[] = [];
  const current: ProcessTime[] = [];
  const one = async (dir: string): Promise<ProcessTime> => {
    const reports = mkdtempSync(join(tmpdir(), 'ftf-suite-'));
    try {
      // 0 conformant; 1 is a non-conformant verdict (e.g. a flaky scenario on a busy machine): timed all the same.
      const r = expectExit(`npm run conformance in ${dir}`, await timeProcess([join(dir, 'bin/ftf-conformance.mjs'), 'run'], cleanEnv({ FTF_REPORTS_DIR: reports }), dir), [0, 1]);
      // Untimed: the background Allure build must neither share the next round's CPU nor lose its folder mid-write.
      await backgroundReportDone(reports);
      return r;
    } finally {
      rmSync(reports, { recursive: true, force: true });
    }
  };
  for (let i = 0; i < rounds; i++) {
    if (i % 2 === 0) {
      baseline.push(await one(baselineDir));
      current.push(await one(REPO_ROOT));
    } else {
      current.push(await one(REPO_ROOT));
      baseline.push(await one(baselineDir));
    }
  }
  return { baseline, current, ratio: medianOf(current, 'wallMs') / medianOf(baseline, 'wallMs'), loadBefore, loadAfter: load() };
}

export function printSuitePair(r: SuitePair, baselineDir: string): void {
  const s = (xs: ProcessTime[], k: 'wallMs' | 'cpuMs'): string => `median ${(medianOf(xs, k) / 1000).toFixed(1)} s (${xs.map((x) => (x[k] / 1000).toFixed(1)).join(' / ')})`;
  console.log(`npm run conformance (full suite, embedded reference), paired with ${baselineDir}`);
  console.log(`  baseline: wall ${s(r.baseline, 'wallMs')}; CPU ${s(r.baseline, 'cpuMs')}`);
  console.log(`  this checkout: wall ${s(r.current, 'wallMs')}; CPU ${s(r.current, 'cpuMs')}`);
  console.log(`  ratio ${r.ratio.toFixed(2)} ${r.ratio <= 0.5 ? 'OK' : 'ABOVE GOAL'} (goal <= 0.5); load average ${r.loadBefore} before, ${r.loadAfter} after`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values: v } = parseArgs({ options: { rounds: { type: 'string' }, grep: { type: 'string' }, baseline: { type: 'string' }, cold: { type: 'boolean' }, suite: { type: 'string' }, 'suite-rounds': { type: 'string' } } });
  printStartup(await startup(Number(v.rounds ?? 5), v.grep, v.baseline ? resolve(v.baseline) : undefined, v.cold ?? false));
  if (v.suite) printSuitePair(await suitePair(resolve(v.suite), Number(v['suite-rounds'] ?? 3)), resolve(v.suite));
}

/**
 * Per-request cost on the real path (issue 15, item 4): GETs of one holding, each schema-checked, run by the
 * CLI (`run --workers 1`: the Playwright runner with every reporter, the fixture's transport, recorder,
 * attachments and HAR) against the reference server in its own process, beside a bare undici loop doing the
 * same GETs (`undici.request` + `JSON.parse`) in the same run.
 *
 * A generated scenario folder (FTF_SPECS_DIR, a temp dir) holds three scenarios with the GETs written out:
 * a warm-up (1 GET: the worker's first test pays its start), 1 GET and 200 GETs; and the same 1 and 200 GETs
 * as ONE `repeat` step (how a load-like check is written since the step exists). Both figures are printed. The in-tool time of each is
 * the test's duration from Playwright's JSON report; the marginal cost of a GET is (d200 - d1) / 199, so the
 * token request, fixtures and test start cancel out. The bare side is timed the same way (1 and 200 GETs after
 * its token). Medians of `rounds`, rounds alternating which side goes first. The transport inside the fixture
 * is the default (undici) unless FTF_TRANSPORT is set (it is passed on, e.g. `FTF_TRANSPORT=playwright`).
 * Goal: marginal in-tool cost per GET at most 2x the bare one.
 *
 * With `--baseline DIR` the baseline checkout's CLI (another clone with its node_modules, e.g. main) runs the
 * same scenario folder against the same server in every round (order rotating with this checkout and the bare
 * loop): a paired before/after in one run. FTF_TRANSPORT is passed to both.
 *
 *   npx tsx bench/per-request.ts [gets=200] [rounds=3] [--baseline DIR]
 *   FTF_BENCH_CPU_PROF=<dir>: every process of the tool's runs writes a V8 CPU profile there (bench/lib/cpu-prof.mjs).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { flattenTests, type PlaywrightJson } from '../src/selftest/catalogue-run.js';
import { transportKind } from '../src/harness/http/transport-choice.js';
import { REPO_ROOT } from '../src/harness/repo-root.js';
import { loadTargetProfile, REFERENCE_PROFILE } from '../src/harness/target/load.js';
import type { ResolvedTarget } from '../src/harness/target/types.js';
import { bareGet, bareToken } from './lib/bare.js';
import { median, startServerChild } from './lib/children.js';
import type { Benchmark } from './lib/summary.js';

const ID = 'bench.per-request';
const GOAL = 2;

export interface PerRequestRound {
  /** Test durations (ms) from results.json: 1 GET and `gets` GETs. */
  tool1: number;
  toolN: number;
  /** Wall time of the whole CLI process (ms). */
  toolProcessMs: number;
  /** The same GETs as one `repeat` step: 1 and `gets` iterations (absent on a baseline without the step kind). */
  repeat1?: number;
  repeatN?: number;
  bare1: number;
  bareN: number;
  /** The baseline checkout's run (--baseline), when given. */
  baseline?: ToolDurations;
}

type ToolDurations = Pick<PerRequestRound, 'tool1' | 'toolN' | 'toolProcessMs' | 'repeat1' | 'repeatN'>;

export interface PerRequestResult {
  gets: number;
  transport: string;
  rounds: PerRequestRound[];
  /** Marginal ms per GET (medians over the rounds). */
  toolPerGetMs: number;
  barePerGetMs: number;
  ratio: number;
  /** The same as one `repeat` step (marginal ms per iteration) and its ratio to the bare loop. */
  repeatPerGetMs: number;
  repeatRatio: number;
  /** The baseline checkout's marginal ms per GET and its ratio to the bare loop (--baseline). */
  baseline?: { dir: string; toolPerGetMs: number; ratio: number };
  load: number[];
  loadAfter: number[];
}

function scenario(id: string, title: string, path: string, gets: number): string {
  const step = `  - request: { method: GET, path: ${path}, schema: holding }\n`;
  return `id: ${ID}.${id}\ntitle: ${title}\ncovers: [EP-HOLDING-GET]\ntags: [bench]\nsteps:\n${step.repeat(gets)}`;
}

/** The same GETs as ONE `repeat` step (how a load-like check is written): the schema check is automatic (`holding`). */
function repeatScenario(id: string, title: string, path: string, gets: number): string {
  return `id: ${ID}.${id}\ntitle: ${title}\ncovers: [EP-HOLDING-GET]\ntags: [bench]\nsteps:\n  - repeat: { times: ${gets}, request: { method: GET, path: ${path} }, expect: { status: 200 } }\n`;
}

/** The scenario folder: warm-up, 1 GET and `gets` GETs of the holding at `path`, written out and as one repeat step. */
function writeScenarios(dir: string, path: string, gets: number): void {
  mkdirSync(join(dir, 'bench'), { recursive: true });
  writeFileSync(join(dir, 'bench', 'a-warm.yaml'), scenario('a-warm', 'warm-up, one GET of one holding', path, 1));
  writeFileSync(join(dir, 'bench', 'b-one.yaml'), scenario('b-one', 'one GET of one holding', path, 1));
  writeFileSync(join(dir, 'bench', 'c-many.yaml'), scenario('c-many', `${gets} GETs of one holding`, path, gets));
  writeFileSync(join(dir, 'bench', 'd-repeat-one.yaml'), repeatScenario('d-repeat-one', 'one GET of one holding, as a repeat step', path, 1));
  writeFileSync(join(dir, 'bench', 'e-repeat-many.yaml'), repeatScenario('e-repeat-many', `${gets} GETs of one holding, as one repeat step`, path, gets));
}

async function holdingPath(target: ResolvedTarget, token: string): Promise<string> {
  const entity = target.entities.allowed[0] ?? 'ENT-ALPHA';
  const list = (await bareGet(`${target.baseUrl}${(target.paths.holdings ?? '/holding/{entity_code}').replace('{entity_code}', encodeURIComponent(entity))}`, token)) as Array<{ uid: string }>;
  const uid = list[0]?.uid;
  if (!uid) throw new Error(`no holding listed for ${entity}`);
  return `/holding/${entity}/${uid}`;
}

async function bareRun(target: ResolvedTarget, url: string, n: number): Promise<number> {
  const token = await bareToken(target);
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await bareGet(url, token);
  return performance.now() - t0;
}

/** One `run` of the CLI over the generated folder; the test durations from its results.json. */
async function toolRun(env: Record<string, string>, dir: string, root = REPO_ROOT): Promise<ToolDurations> {
  const out = mkdtempSync(join(tmpdir(), 'ftf-per-request-run-'));
  try {
    const args = [join(root, 'bin', 'ftf-conformance.mjs'), 'run', '--target', REFERENCE_PROFILE, '--workers', '1', '--grep', `^${ID.replace('.', '\\.')}\\.`, '--no-report', '--', '--output', join(out, 'test-results')];
    const prof = process.env.FTF_BENCH_CPU_PROF;
    const childEnv: NodeJS.ProcessEnv = {
      ...process.env,
      ...env,
      FTF_SPECS_DIR: dir,
      FTF_REPORTS_DIR: join(out, 'reports'),
      FORCE_COLOR: '0',
      // Node 20 refuses --cpu-prof in NODE_OPTIONS: a preloaded script profiles each process (bench/lib/cpu-prof.mjs).
      ...(prof ? { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${pathToFileURL(join(REPO_ROOT, 'bench', 'lib', 'cpu-prof.mjs')).href}`.trim() } : {}),
    };
    const t0 = performance.now();
    const child = spawn(process.execPath, args, { cwd: root, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (output += d.toString('utf8')));
    const code = await new Promise<number | null>((res) => child.on('close', res));
    const toolProcessMs = performance.now() - t0;
    let report: PlaywrightJson;
    try {
      report = JSON.parse(readFileSync(join(out, 'reports', 'results.json'), 'utf8')) as PlaywrightJson;
    } catch {
      throw new Error(`the run wrote no results.json (exit ${code})\n${output.slice(-3000)}`);
    }
    const tests = flattenTests(report);
    const duration = (id: string): number => {
      const t = tests.find((x) => x.title.startsWith(`${ID}.${id}:`));
      if (!t || t.resultStatus !== 'passed') throw new Error(`${ID}.${id}: ${t ? `${t.resultStatus}: ${t.messages.join('\n')}` : 'not run'} (exit ${code})\n${output.slice(-3000)}`);
      return t.duration;
    };
    // A baseline checkout from before the repeat step lists those two as invalid files: its figure is then the written steps' only.
    const passed = (id: string): number | undefined => tests.find((x) => x.title.startsWith(`${ID}.${id}:`) && x.resultStatus === 'passed')?.duration;
    const repeat1 = passed('d-repeat-one');
    const repeatN = passed('e-repeat-many');
    return { tool1: duration('b-one'), toolN: duration('c-many'), toolProcessMs, ...(repeat1 !== undefined && repeatN !== undefined ? { repeat1, repeatN } : {}) };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

export async function perRequest(gets = 200, rounds = 3, baselineDir?: string): Promise<PerRequestResult> {
  const server = await startServerChild(0);
  const dir = mkdtempSync(join(tmpdir(), 'ftf-per-request-'));
  try {
    const target = loadTargetProfile(REFERENCE_PROFILE, { env: { ...process.env, ...server.info.env } });
    const path = await holdingPath(target, await bareToken(target));
    writeScenarios(dir, path, gets);
    const url = `${target.baseUrl}${path}`;
    await bareRun(target, url, gets); // warm the server and this process
    const load = loadavg();
    const out: PerRequestRound[] = [];
    for (let i = 0; i < rounds; i++) {
      let bare = { bare1: 0, bareN: 0 };
      let tool: ToolDurations = { tool1: 0, toolN: 0, toolProcessMs: 0 };
      let baseline: PerRequestRound['baseline'];
      const sides: Array<() => Promise<void>> = [
        async () => void (tool = await toolRun(server.info.env, dir)),
        async () => void (bare = { bare1: await bareRun(target, url, 1), bareN: await bareRun(target, url, gets) }),
        ...(baselineDir ? [async () => void (baseline = await toolRun(server.info.env, dir, baselineDir))] : []),
      ];
      // Rotate which side goes first.
      for (let k = 0; k < sides.length; k++) await (sides[(i + k) % sides.length] as () => Promise<void>)();
      out.push({ ...tool, ...bare, ...(baseline ? { baseline } : {}) });
    }
    const perGet = (r: Pick<PerRequestRound, 'tool1' | 'toolN'>): number => (r.toolN - r.tool1) / (gets - 1);
    const toolPerGetMs = median(out.map(perGet));
    const barePerGetMs = median(out.map((r) => (r.bareN - r.bare1) / (gets - 1)));
    const repeatPerGetMs = median(out.map((r) => ((r.repeatN as number) - (r.repeat1 as number)) / (gets - 1)));
    const basePerGetMs = baselineDir ? median(out.map((r) => perGet(r.baseline as PerRequestRound))) : undefined;
    return {
      gets,
      transport: transportKind(),
      rounds: out,
      toolPerGetMs,
      barePerGetMs,
      ratio: toolPerGetMs / barePerGetMs,
      repeatPerGetMs,
      repeatRatio: repeatPerGetMs / barePerGetMs,
      ...(baselineDir && basePerGetMs !== undefined ? { baseline: { dir: baselineDir, toolPerGetMs: basePerGetMs, ratio: basePerGetMs / barePerGetMs } } : {}),
      load,
      loadAfter: loadavg(),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await server.close();
  }
}

/** run-all's entry: the marginal in-tool cost of one schema-checked GET against the bare loop (FTF_TRANSPORT picks the transport; --quick 1 round). */
export const perRequestBenchmark: Benchmark = {
  name: 'per-request',
  async run({ quick }) {
    const r = await perRequest(200, quick ? 1 : 3);
    printPerRequest(r);
    return [
      { benchmark: 'per-request', figure: `one schema-checked GET in-tool, ${r.gets} written request steps (${r.transport} transport)`, ratio: r.ratio, against: 'bare undici loop', goal: '<= 2', detail: `${r.toolPerGetMs.toFixed(2)} ms vs ${r.barePerGetMs.toFixed(2)} ms per GET (marginal)` },
      { benchmark: 'per-request', figure: `one schema-checked GET in-tool, one repeat step of ${r.gets} (${r.transport} transport)`, ratio: r.repeatRatio, against: 'bare undici loop', goal: '<= 2', detail: `${r.repeatPerGetMs.toFixed(2)} ms vs ${r.barePerGetMs.toFixed(2)} ms per GET (marginal)` },
    ];
  },
};

export function printPerRequest(r: PerRequestResult): void {
  console.log(`per-request cost: ${r.gets} GETs of one holding (schema-checked) vs 1, CLI run --workers 1, transport ${r.transport}; load average at start ${r.load.map((l) => l.toFixed(1)).join(' ')}`);
  r.rounds.forEach((x, i) => {
    const base = x.baseline ? `; baseline tool test ${x.baseline.tool1.toFixed(0)} ms / ${x.baseline.toolN.toFixed(0)} ms` : '';
    console.log(`  round ${i + 1}: tool test ${x.tool1.toFixed(0)} ms (1 GET) / ${x.toolN.toFixed(0)} ms (${r.gets}), as one repeat step ${x.repeat1?.toFixed(0)} / ${x.repeatN?.toFixed(0)} ms, CLI process ${x.toolProcessMs.toFixed(0)} ms; bare ${x.bare1.toFixed(1)} ms / ${x.bareN.toFixed(1)} ms${base}`);
  });
  console.log(`marginal per GET, written steps: tool ${r.toolPerGetMs.toFixed(2)} ms, bare ${r.barePerGetMs.toFixed(2)} ms (medians); ratio ${r.ratio.toFixed(2)} (goal <= ${GOAL}) ${r.ratio <= GOAL ? 'OK' : 'ABOVE GOAL'}`);
  console.log(`marginal per GET, one repeat step: tool ${r.repeatPerGetMs.toFixed(2)} ms; ratio ${r.repeatRatio.toFixed(2)} (goal <= ${GOAL}) ${r.repeatRatio <= GOAL ? 'OK' : 'ABOVE GOAL'}`);
  if (r.baseline) console.log(`baseline checkout ${r.baseline.dir}: tool ${r.baseline.toolPerGetMs.toFixed(2)} ms per GET, ratio ${r.baseline.ratio.toFixed(2)}; this checkout / baseline ${(r.toolPerGetMs / r.baseline.toolPerGetMs).toFixed(2)}`);
  console.log(`load average at end ${r.loadAfter.map((l) => l.toFixed(1)).join(' ')}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values, positionals } = parseArgs({ options: { baseline: { type: 'string' } }, allowPositionals: true });
  printPerRequest(await perRequest(Number(positionals[0] ?? 200), Number(positionals[1] ?? 3), values.baseline ? resolve(values.baseline) : undefined));
}

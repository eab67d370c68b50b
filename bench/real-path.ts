/**
 * Real path: the same workflows through our CLI (`ftf-conformance run`, Playwright with every reporter), our
 * engine path (bench/lib/traverse-child.ts: runScenario in one process, no Playwright, no reports), a bare
 * undici script (bench/lib/bare-gets.mjs, the baseline) and, when `npm run bench:setup` installed them, Step CI
 * and Newman (bench/peers/), all against ONE reference server in its own process (bench/lib/server-child.ts):
 *   w1  one client_credentials token request + one GET of a holding (status and schema checked);
 *   w2  the token + 200 GETs of that holding, each checked for status 200 and against the Holding schema.
 * The workflow files are generated from bench/peers/workflows/ (bench/lib/workflows.ts). Each run is a new
 * process; whole process = spawn to exit, seen from here, and the CPU of the tool's whole process tree in that
 * time (bench/lib/children.ts, waitedChildrenCpuMs: the figure that holds when the machine is busy);
 * in-tool = what the tool itself reports (ours: the Playwright test's duration in results.json, the engine's
 * runScenario time; Step CI: its "Time:" line; Newman: run.timings of its JSON report; bare: token request
 * to last GET). After one warm-up of the bare
 * script, each round runs every tool once, the order rotated by one each round; medians. Every figure is a
 * ratio against the bare script of the same workflow in the same run.
 *
 *   npx tsx bench/real-path.ts [rounds=3]
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Redactor } from '../src/harness/http/redactor.js';
import { REPO_ROOT } from '../src/harness/repo-root.js';
import { loadTargetProfile, REFERENCE_PROFILE } from '../src/harness/target/load.js';
import { flattenTests, runBounded, type BoundedRun, type PlaywrightJson } from '../src/selftest/catalogue-run.js';
import { playwrightCli } from '../src/cli/playwright.js';
import { median, startServerChild, traverse, waitedChildrenCpuMs, type ServerInfo } from './lib/children.js';
import type { Benchmark, Figure } from './lib/summary.js';
import { NEWMAN_COLLECTION, privateDir, writeProfile, writeWorkflow, type WorkflowFiles, type WorkflowTarget } from './lib/workflows.js';

const PEERS = join(REPO_ROOT, 'bench', 'peers', 'node_modules');
const PEER_RUN = join(REPO_ROOT, 'bench', 'lib', 'peer-run.mjs');
const PLAYWRIGHT_FLOOR = join(REPO_ROOT, 'bench', 'lib', 'playwright-floor', 'playwright.config.mjs');
/** Tools that run one workload only: Playwright alone sends nothing, it is the floor of the one-scenario run (w1). */
const ONLY_W1: readonly Tool[] = ['playwright'];
const SECRET_ENV = 'FTF_PRIMARY_CLIENT_SECRET';
/** Hang guard of one process (not a measurement bound). */
const PROCESS_BOUND_MS = 600_000;
const NOT_INSTALLED = 'not installed (npm run bench:setup)';

export const TOOLS = ['bare', 'engine', 'cli', 'playwright', 'stepci', 'newman'] as const;
export type Tool = (typeof TOOLS)[number];
export const TOOL_NAMES: Record<Tool, string> = {
  bare: 'bare undici script',
  engine: 'ftf engine path',
  cli: 'ftf CLI, every reporter',
  playwright: 'Playwright alone',
  stepci: 'Step CI',
  newman: 'Newman',
};
const PEER_ENTRY: Partial<Record<Tool, string>> = {
  stepci: join(PEERS, 'stepci', 'dist', 'index.js'),
  newman: join(PEERS, 'newman', 'bin', 'newman.js'),
};

export interface Sample {
  wallMs: number;
  /** CPU (user + system) of the tool's whole process tree, from spawn to exit (waitedChildrenCpuMs). */
  cpuMs: number;
  inToolMs: number;
}
export interface ToolRuns {
  tool: Tool;
  samples: Sample[];
  skipped?: string;
}
export interface WorkflowResult {
  name: string;
  gets: number;
  tools: ToolRuns[];
}
export interface RealPathResult {
  rounds: number;
  workflows: WorkflowResult[];
  load: { start: number[]; end: number[] };
}

interface Context {
  dir: string;
  info: ServerInfo;
  target: WorkflowTarget;
  profile: string;
  redactor: Redactor;
}

/** A measured process: `node <args>` in its own process group, killed with its children at the hang guard. */
const node = (args: string[], env: NodeJS.ProcessEnv): Promise<BoundedRun> => runBounded(args, { env, timeoutMs: PROCESS_BOUND_MS });

/** The environment of a measured process: ours without any FTF_* setting (the run names its own), no colours. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('FTF_') && !k.startsWith('BENCH_')) env[k] = v;
  return { ...env, FORCE_COLOR: '0', NO_COLOR: '1', ...extra };
}

/** A failed run: its exit and the last lines of its output, through the redactor (the client secret is known to it). */
function failure(tool: Tool, e: BoundedRun, ctx: Context): Error {
  const tail = `${e.stdout}\n${e.stderr}`.split('\n').filter((l) => l.trim()).slice(-15).join('\n');
  return new Error(`${TOOL_NAMES[tool]} failed (exit ${e.exitCode}${e.killed ? ', killed at the hang guard' : ''}):\n${ctx.redactor.redactText(tail)}`);
}

async function once(tool: Tool, wf: WorkflowFiles, ctx: Context, run: number): Promise<Omit<Sample, 'cpuMs'>> {
  const { target } = ctx;
  if (tool === 'engine') {
    const started = performance.now();
    const t = await traverse('engine', ctx.info, [], { FTF_BENCH_SCENARIOS: wf.specsDir });
    return { wallMs: performance.now() - started, inToolMs: t.wallMs };
  }
  if (tool === 'bare') {
    const e = await node([join(REPO_ROOT, 'bench', 'lib', 'bare-gets.mjs')], cleanEnv({
      BENCH_AUTH_URL: target.authUrl, BENCH_BASE_URL: target.baseUrl, BENCH_CLIENT_ID: target.clientId,
      BENCH_CLIENT_SECRET: target.clientSecret, BENCH_HOLDING_PATH: target.holdingPath, BENCH_GETS: String(wf.gets),
    }));
    if (e.exitCode !== 0) throw failure(tool, e, ctx);
    return { wallMs: e.wallMs, inToolMs: (JSON.parse(e.stdout.trim().split('\n').pop() ?? '{}') as { inToolMs: number }).inToolMs };
  }
  if (tool === 'playwright') {
    // The floor under any run through Playwright's runner (issue 28): one empty test, one worker, no reporter.
    const e = await node([playwrightCli(), 'test', '-c', PLAYWRIGHT_FLOOR], cleanEnv({}));
    if (e.exitCode !== 0) throw failure(tool, e, ctx);
    return { wallMs: e.wallMs, inToolMs: Number.NaN };
  }
  if (tool === 'cli') {
    const out = join(ctx.dir, `cli-${run}`);
    const e = await node(
      [join(REPO_ROOT, 'bin', 'ftf-conformance.mjs'), 'run', '--target', ctx.profile, '--grep', '^bench\\.', '--', '--output', join(out, 'test-results')],
      cleanEnv({ FTF_SPECS_DIR: wf.specsDir, FTF_REPORTS_DIR: join(out, 'reports'), [SECRET_ENV]: target.clientSecret }),
    );
    try {
      if (e.exitCode !== 0) throw failure(tool, e, ctx);
      const results = JSON.parse(readFileSync(join(out, 'reports', 'results.json'), 'utf8')) as PlaywrightJson;
      const tests = flattenTests(results);
      if (tests.length !== 1 || tests[0]?.resultStatus !== 'passed') throw new Error(`the CLI ran ${tests.length} tests (${tests.map((t) => `${t.title}: ${t.resultStatus}`).join(', ')}), expected the one bench scenario, passed`);
      return { wallMs: e.wallMs, inToolMs: tests[0].duration };
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }
  // The client secret goes to the peer as an argument added inside its process (bench/lib/peer-run.mjs).
  const peer = (args: string[], extra: Record<string, string> = {}): Promise<BoundedRun> =>
    node([PEER_RUN, PEER_ENTRY[tool] ?? '', ...args], cleanEnv({ ...extra, BENCH_CLIENT_SECRET: target.clientSecret }));
  if (tool === 'stepci') {
    const e = await peer(['-s', 'client_secret', 'run', wf.stepci], { STEPCI_DISABLE_ANALYTICS: '1', XDG_CONFIG_HOME: join(ctx.dir, 'config') });
    const time = /Time:\s+([\d.]+)s/.exec(e.stdout);
    if (e.exitCode !== 0 || !time) throw failure(tool, e, ctx);
    return { wallMs: e.wallMs, inToolMs: Number(time[1]) * 1000 };
  }
  const e = await peer(['--env-var', 'client_secret', 'run', NEWMAN_COLLECTION, '-e', wf.newmanEnv, '--reporters', 'cli', '--color', 'off']);
  const requests = /requests\s*│\s*(\d+)\s*│\s*(\d+)/.exec(e.stdout);
  const duration = newmanDuration(e.stdout);
  if (e.exitCode !== 0 || duration === undefined) throw failure(tool, e, ctx);
  if (Number(requests?.[1]) !== wf.gets + 1) throw new Error(`Newman sent ${requests?.[1] ?? 'an unknown number of'} requests, expected ${wf.gets + 1}`);
  return { wallMs: e.wallMs, inToolMs: duration };
}

/** Newman's cli reporter: "total run duration: 845ms" / "12.3s" / "1m 2.3s" -> ms. */
export function newmanDuration(out: string): number | undefined {
  const m = /total run duration:\s*(?:(\d+)m(?!s)\s*)?(?:([\d.]+)s)?(?:([\d.]+)ms)?/.exec(out);
  if (!m || !(m[1] || m[2] || m[3])) return undefined;
  return Number(m[1] ?? 0) * 60_000 + Number(m[2] ?? 0) * 1000 + Number(m[3] ?? 0);
}

export async function realPath(rounds = 3, workflows: Array<{ name: string; gets: number }> = [{ name: 'w1', gets: 1 }, { name: 'w2', gets: 200 }]): Promise<RealPathResult> {
  const start = loadavg();
  const server = await startServerChild(0);
  const dir = privateDir();
  try {
    const resolved = loadTargetProfile(REFERENCE_PROFILE, { env: { ...process.env, ...server.info.env } });
    const { clientId = '', secret = '' } = resolved.credentials.primary ?? {};
    if (!server.info.holding) throw new Error('the reference server has no holding for ENT-ALPHA');
    const target: WorkflowTarget = { baseUrl: resolved.baseUrl, authUrl: resolved.authUrl, clientId, clientSecret: secret, holdingPath: server.info.holding };
    const redactor = new Redactor();
    redactor.addSecret(secret, 'primary client secret');
    mkdirSync(join(dir, 'config'), { mode: 0o700 });
    const ctx: Context = { dir, info: server.info, target, profile: writeProfile(dir, target, SECRET_ENV), redactor };
    const tools: Tool[] = TOOLS.filter((t) => !PEER_ENTRY[t] || existsSync(PEER_ENTRY[t]));
    const out: WorkflowResult[] = [];
    let run = 0;
    for (const w of workflows) {
      const files = writeWorkflow(dir, w.name, w.gets, target);
      await once('bare', files, ctx, run++); // warm the server (JIT, connection handling) before measuring
      const here = tools.filter((t) => w.gets === 1 || !ONLY_W1.includes(t));
      const samples = new Map<Tool, Sample[]>(here.map((t) => [t, []]));
      for (let i = 0; i < rounds; i++) {
        const order = here.map((_, k) => here[(k + i) % here.length] as Tool);
        for (const t of order) {
          const cpu0 = waitedChildrenCpuMs();
          const s = await once(t, files, ctx, run++);
          samples.get(t)?.push({ ...s, cpuMs: waitedChildrenCpuMs() - cpu0 });
        }
      }
      out.push({
        name: w.name,
        gets: w.gets,
        tools: TOOLS.map((t) => (here.includes(t) ? { tool: t, samples: samples.get(t) ?? [] } : { tool: t, samples: [], skipped: tools.includes(t) ? 'the one-scenario floor: w1 only' : NOT_INSTALLED })),
      });
    }
    return { rounds, workflows: out, load: { start, end: loadavg() } };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await server.close();
  }
}

const med = (r: ToolRuns, k: keyof Sample): number => median(r.samples.map((s) => s[k]));
const ms = (x: number): string => `${x.toFixed(x < 10 ? 1 : 0)} ms`;

export function printRealPath(r: RealPathResult): void {
  console.log(`real path: one reference server, ${r.rounds} round(s), medians; load average ${r.load.start.map((l) => l.toFixed(1)).join(' ')} at start, ${r.load.end.map((l) => l.toFixed(1)).join(' ')} at end`);
  for (const w of r.workflows) {
    console.log(`  ${w.name}: token + ${w.gets} GET(s) of one holding, status and schema checked`);
    for (const t of w.tools) {
      if (t.skipped) {
        console.log(`    ${TOOL_NAMES[t.tool].padEnd(24)} skipped: ${t.skipped}`);
        continue;
      }
      const list = (k: keyof Sample): string => t.samples.map((s) => (s[k] ?? Number.NaN).toFixed(0)).join(' / ');
      const inTool = Number.isNaN(med(t, 'inToolMs')) ? '' : `, in-tool ms ${list('inToolMs')} (median ${med(t, 'inToolMs').toFixed(0)}, ${ms(med(t, 'inToolMs') / (w.gets + 1))} per request)`;
      console.log(`    ${TOOL_NAMES[t.tool].padEnd(24)} whole process ms ${list('wallMs')} (median ${med(t, 'wallMs').toFixed(0)}), its CPU ms ${list('cpuMs')} (median ${med(t, 'cpuMs').toFixed(0)})${inTool}`);
    }
  }
}

/** Every figure as a ratio against the bare script of the same workflow: whole process (wall and CPU) and in-tool. */
export function realPathFigures(r: RealPathResult): Figure[] {
  const rows: Figure[] = [];
  for (const w of r.workflows) {
    const bare = w.tools.find((t) => t.tool === 'bare');
    if (!bare) continue;
    for (const t of w.tools.filter((x) => x.tool !== 'bare')) {
      for (const k of t.tool === 'playwright' ? (['wallMs', 'cpuMs'] as const) : (['wallMs', 'cpuMs', 'inToolMs'] as const)) {
        const what = { wallMs: 'whole process', cpuMs: 'whole-process CPU', inToolMs: 'in-tool' }[k];
        const figure = `${w.name} (token + ${w.gets} GET${w.gets > 1 ? 's' : ''}) ${what}, ${TOOL_NAMES[t.tool]}`;
        const against = `bare undici script, ${what}`;
        const skipped = t.skipped ?? (Number.isNaN(med(bare, k)) ? 'no CPU figures of child processes here (needs Linux /proc)' : undefined);
        if (skipped) {
          rows.push({ benchmark: 'real path', figure, against, detail: '', skipped });
          continue;
        }
        const perRequest = k === 'inToolMs' ? `; per request ${ms(med(t, k) / (w.gets + 1))} vs ${ms(med(bare, k) / (w.gets + 1))}` : '';
        rows.push({ benchmark: 'real path', figure, against, ratio: med(t, k) / med(bare, k), detail: `${ms(med(t, k))} vs ${ms(med(bare, k))}${perRequest} (medians of ${t.samples.length})` });
      }
    }
    if (w.gets === 1) rows.push(...oneScenarioFigures(w));
  }
  return rows;
}

/**
 * Issue 28's row: the one-scenario run (w1) as a whole process against Playwright alone (goal <= 1.25) and
 * against Step CI (goal: below it), measured in the same rounds as everything above.
 */
function oneScenarioFigures(w: WorkflowResult): Figure[] {
  const of = (tool: Tool): ToolRuns | undefined => w.tools.find((t) => t.tool === tool && !t.skipped && t.samples.length > 0);
  const [cli, floor, stepci] = [of('cli'), of('playwright'), of('stepci')];
  const rows: Figure[] = [];
  for (const [against, base, goal] of [['Playwright alone, whole process', floor, '<= 1.25'], ['Step CI, whole process', stepci, '< 1']] as const) {
    const figure = 'one-scenario run (w1), whole process, ftf CLI (every reporter)';
    if (!cli || !base) {
      rows.push({ benchmark: 'real path', figure, against, goal, detail: '', skipped: base === stepci ? NOT_INSTALLED : 'not measured' });
      continue;
    }
    rows.push({ benchmark: 'real path', figure, against, goal, ratio: med(cli, 'wallMs') / med(base, 'wallMs'), detail: `${ms(med(cli, 'wallMs'))} vs ${ms(med(base, 'wallMs'))} (medians of ${cli.samples.length})` });
  }
  return rows;
}

export const realPathBenchmark: Benchmark = {
  name: 'real-path',
  run: async ({ quick }) => {
    const r = await realPath(quick ? 1 : 3);
    printRealPath(r);
    return realPathFigures(r);
  },
};

if (import.meta.url === `file://${process.argv[1]}`) {
  printRealPath(await realPath(Number(process.argv[2] ?? 3)));
}

/**
 * `selftest --clients [--faults a,b] [--jobs N]`: the client fault matrix (issue 27). The example client
 * (examples/client/) takes the plan `full`: clean (every judged clause must pass, every clause the plan can
 * judge must be judged), with its alternate permitted choices (nothing may fail or warn), and with each fault
 * switch of examples/client/faults.js (the clauses that fail or warn must be exactly the fault's clause).
 * Writes reports/client-matrix.json and each run's reports under reports/client-matrix/<run>/.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse, UsageError } from '../cli/args.js';
import { loadClientClauses } from '../harness/client/clauses.js';
import { gradeClient, NOT_JUDGEABLE } from '../harness/client/grade.js';
import { loadPlan } from '../harness/client/plan.js';
import { writeClientReports } from '../harness/client/reports.js';
import type { ClientPlan, ClientVerdicts } from '../harness/client/types.js';
import { reportsDir } from '../harness/report/reports-folder/paths.js';
import { REPO_ROOT } from '../harness/repo-root.js';

export const CLIENT_MATRIX_USAGE = 'usage: ftf-conformance selftest --clients [--faults a,b,c] [--jobs N]';
const EXAMPLE = join(REPO_ROOT, 'examples/client/main.js');

interface ClientRun {
  name: string;
  args: string[];
  /** The clause the run must break; undefined for a clean run. */
  breaks?: string;
  /** A clean run that must also judge every clause the plan can judge. */
  complete?: boolean;
}

export interface ClientRunResult {
  name: string;
  expected: string;
  /** Clauses failed or warned. */
  broken: string[];
  notJudged: string[];
  ok: boolean;
  why: string;
  exchanges: number;
  clientExit: number | null;
}

async function faultTable(): Promise<Record<string, string>> {
  const mod = (await import(pathToFileURL(join(REPO_ROOT, 'examples/client/faults.js')).href)) as { FAULTS: Record<string, string> };
  return mod.FAULTS;
}

export async function clientRuns(only?: string[]): Promise<ClientRun[]> {
  const faults = await faultTable();
  const unknown = (only ?? []).filter((f) => !(f in faults));
  if (unknown.length) throw new UsageError('selftest', `unknown client fault(s) ${unknown.join(', ')}; known: ${Object.keys(faults).join(', ')}`);
  const picked = Object.entries(faults).filter(([f]) => !only || only.includes(f));
  return [
    ...(only ? [] : [{ name: 'clean', args: [], complete: true }, { name: 'clean (alternate choices)', args: ['--choices', 'alternate'] }]),
    ...picked.map(([f, clause]) => ({ name: f, args: ['--fault', f], breaks: clause })),
  ];
}

function runExample(env: Record<string, string>, args: string[], timeoutMs: number): Promise<number | null> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [EXAMPLE, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'ignore'] });
    const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      done(code);
    });
  });
}

/** Judges one run's verdicts against what the run must show. */
export function judgeRun(run: ClientRun, v: ClientVerdicts): ClientRunResult {
  const broken = v.clauses.filter((c) => c.status === 'failed' || c.status === 'warned').map((c) => c.clause);
  const notJudged = v.clauses.filter((c) => c.status === 'not-judged').map((c) => c.clause);
  let ok: boolean;
  let why: string;
  if (v.exchanges === 0) {
    ok = false;
    why = 'the client sent nothing';
  } else if (run.breaks === undefined) {
    const missing = run.complete ? notJudged.filter((c) => !(c in NOT_JUDGEABLE)) : [];
    ok = broken.length === 0 && missing.length === 0;
    why = broken.length ? `false alarm on ${broken.join(', ')}` : missing.length ? `not judged: ${missing.join(', ')}` : 'passed';
  } else {
    ok = broken.length === 1 && broken[0] === run.breaks;
    why = ok ? `killed by ${run.breaks}` : broken.length === 0 ? `survived (${run.breaks} ${notJudged.includes(run.breaks) ? 'not judged' : 'passed'})` : `broke ${broken.join(', ')} (expected exactly ${run.breaks})`;
  }
  return { name: run.name, expected: run.breaks ?? 'nothing', broken, notJudged, ok, why, exchanges: v.exchanges, clientExit: null };
}

async function oneRun(plan: ClientPlan, run: ClientRun, out: string): Promise<ClientRunResult> {
  // Loaded on use: `selftest --help` must not need the reference server's (optional) packages.
  const server = await (await import('../embedded/client-grading.js')).startGradingServer(plan);
  let clientExit: number | null;
  try {
    clientExit = await runExample(server.clientEnv, run.args, plan.timeoutSeconds * 1000);
  } finally {
    await server.close();
  }
  const v = gradeClient(server.exchanges, plan, loadClientClauses(), server.stalls);
  await writeClientReports(join(out, run.name.replace(/[^a-z0-9-]+/gi, '_')), v, server.exchanges, { authUrl: server.authUrl, clientName: run.name, redact: server.redact });
  return { ...judgeRun(run, v), clientExit };
}

export async function runClientMatrix(options: { faults?: string[]; jobs?: number } = {}): Promise<ClientRunResult[]> {
  const plan = loadPlan('full');
  const runs = await clientRuns(options.faults);
  const out = join(reportsDir(), 'client-matrix');
  mkdirSync(out, { recursive: true });
  const results: ClientRunResult[] = new Array(runs.length);
  let next = 0;
  // The runs mostly wait (polling, backoff): a few at once, each on its own server.
  const worker = async () => {
    while (next < runs.length) {
      const i = next++;
      const run = runs[i] as ClientRun;
      const r = await oneRun(plan, run, out);
      results[i] = r;
      console.log(`  ${r.ok ? 'ok  ' : 'FAIL'} ${run.name.padEnd(28)} expected ${r.expected.padEnd(24)} ${r.why}`);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.jobs ?? 3, runs.length)) }, worker));
  writeFileSync(join(reportsDir(), 'client-matrix.json'), `${JSON.stringify({ plan: plan.name, runs: results }, null, 2)}\n`);
  return results;
}

export async function runClientMatrixCli(argv: string[]): Promise<number> {
  const { values } = parse('selftest', argv, { clients: { type: 'boolean' }, faults: { type: 'string' }, jobs: { type: 'string' } });
  const jobs = values.jobs === undefined ? undefined : Number(values.jobs);
  if (jobs !== undefined && !(Number.isInteger(jobs) && jobs >= 1 && jobs <= 16)) throw new UsageError('selftest', `--jobs must be an integer from 1 to 16 (got '${values.jobs}')`);
  const faults = values.faults?.split(',').map((s) => s.trim()).filter(Boolean);
  console.log('client fault matrix: the example client on plan full (clean, alternate choices, one run per fault switch)');
  const results = await runClientMatrix({ ...(faults ? { faults } : {}), ...(jobs ? { jobs } : {}) });
  const bad = results.filter((r) => !r.ok);
  console.log(`${results.length - bad.length} of ${results.length} client runs judged right${bad.length ? `; wrong: ${bad.map((r) => r.name).join(', ')}` : ''} (reports/client-matrix.json)`);
  return bad.length ? 1 : 0;
}

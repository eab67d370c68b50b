/**
 * Runs the conformance catalogue (`playwright test`) in a child process with its own reports folder
 * (FTF_REPORTS_DIR) and output folder (--output), under an outer wall-clock bound: when the bound is hit the
 * child's process group is killed and the result says so (a hang is then a test failure, not a stuck CI).
 * Used by the hostile, guard and secret-hygiene self-tests and by the suite-wall benchmark (so it lives in
 * src, which both test/ and bench/ may import; bench/ never imports test/).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { REPO_ROOT } from '../harness/repo-root.js';
const PLAYWRIGHT_CLI = join(REPO_ROOT, 'node_modules', '@playwright', 'test', 'cli.js');

export interface CatalogueRun {
  exitCode: number | null;
  /** True when the outer bound killed the run. */
  killed: boolean;
  wallMs: number;
  stdout: string;
  stderr: string;
  dir: string;
  reportsDir: string;
  outputDir: string;
  /** Parsed reports/results.json (undefined when it was not written). */
  results: PlaywrightJson | undefined;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  args?: string[];
  workers?: number;
  /** Outer bound of the whole run. */
  timeoutMs: number;
  /** Folder for reports/ and test-results/ (default: a new temp folder). */
  dir?: string;
}

export interface BoundedRun {
  exitCode: number | null;
  /** True when the bound killed the process group. */
  killed: boolean;
  /** Spawn to close. */
  wallMs: number;
  stdout: string;
  stderr: string;
}

/**
 * `node <args>` in a child that leads its own process group (so the bound ends it and its children together:
 * Playwright's workers, a tool's subprocesses), output collected, killed at `timeoutMs`. Also used by
 * bench/real-path.ts for every tool it measures.
 */
export async function runBounded(args: string[], opts: { env: NodeJS.ProcessEnv; timeoutMs: number; cwd?: string }): Promise<BoundedRun> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: opts.cwd ?? REPO_ROOT, env: opts.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  let killed = false;
  const timer = setTimeout(() => {
    killed = true;
    if (child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }, opts.timeoutMs);
  const exitCode = await new Promise<number | null>((res) => child.on('close', (code) => res(code)));
  clearTimeout(timer);
  return { exitCode, killed, wallMs: performance.now() - started, stdout, stderr };
}

export async function runCatalogue(opts: RunOptions): Promise<CatalogueRun> {
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), 'ftf-run-'));
  const reportsDir = join(dir, 'reports');
  const outputDir = join(dir, 'test-results');
  const args = [PLAYWRIGHT_CLI, 'test', `--workers=${opts.workers ?? 2}`, `--output=${outputDir}`, ...(opts.args ?? [])];
  const env: NodeJS.ProcessEnv = { ...process.env, FTF_REPORTS_DIR: reportsDir, FORCE_COLOR: '0', ...opts.env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
  const run = await runBounded(args, { env, timeoutMs: opts.timeoutMs });
  const file = join(reportsDir, 'results.json');
  const results = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as PlaywrightJson) : undefined;
  return { ...run, dir, reportsDir, outputDir, results };
}

// ---- the parts of Playwright's JSON report the self-tests read ----

export interface PlaywrightJson {
  stats: { duration: number; expected: number; unexpected: number; skipped: number; flaky: number; startTime: string };
  suites: PwSuite[];
  errors: Array<{ message?: string }>;
}
export interface PwSuite {
  title: string;
  specs?: PwSpec[];
  suites?: PwSuite[];
}
export interface PwSpec {
  title: string;
  tests: Array<{ status: string; annotations: Array<{ type: string; description?: string }>; results: PwResult[] }>;
}
export interface PwResult {
  status: string;
  duration: number;
  workerIndex: number;
  parallelIndex: number;
  startTime: string;
  errors: Array<{ message?: string; stack?: string }>;
  error?: { message?: string; stack?: string };
}

export interface FlatTest {
  title: string;
  /** expected | unexpected | skipped | flaky */
  status: string;
  /** passed | failed | timedOut | skipped | interrupted (last result) */
  resultStatus: string;
  duration: number;
  messages: string[];
  annotations: Array<{ type: string; description?: string }>;
  results: PwResult[];
}

export function flattenTests(report: PlaywrightJson): FlatTest[] {
  const out: FlatTest[] = [];
  const walk = (s: PwSuite): void => {
    for (const spec of s.specs ?? []) {
      for (const t of spec.tests) {
        const last = t.results[t.results.length - 1];
        out.push({
          title: spec.title,
          status: t.status,
          resultStatus: last?.status ?? 'none',
          duration: last?.duration ?? 0,
          messages: (last?.errors ?? []).map((e) => e.message ?? ''),
          annotations: t.annotations,
          results: t.results,
        });
      }
    }
    for (const sub of s.suites ?? []) walk(sub);
  };
  for (const s of report.suites) walk(s);
  return out;
}

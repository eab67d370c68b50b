/**
 * Builds the Allure HTML with the Allure 3 CLI (`allure generate`), never opening it. Trends survive
 * across runs through Allure 3's history files, one per target (reports/allure-history/<target key>.jsonl,
 * allure-history.ts): CI keeps that folder between nightly runs (cache/artifact); every generate adds one
 * entry per run (a rebuild of the same results replaces it). The report shows the run's label (target,
 * implementation version, harness commit) as report variables.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { FtfError } from '../../../shared/errors.js';
import { CATEGORIES } from './allure.js';
import { forgetRun, historyKey, legacyHistoryNote, markRun, runIdentity, runKey, runLabel } from './allure-history.js';
import { reportPaths } from '../reports-folder/paths.js';
import { refuseSymlinks } from '../reports-folder/reports-symlinks.js';
import { REPO_ROOT } from '../../repo-root.js';

export interface AllureReportOptions {
  resultsDir?: string;
  outDir?: string;
  historyDir?: string;
  name?: string;
  /** Keep at most this many runs in the history (default 30). */
  historyLimit?: number;
  /** Bound of `allure generate` (default FTF_ALLURE_TIMEOUT_MS, else 5 minutes): killed past it, FTF_E_ALLURE_TIMEOUT. */
  timeoutMs?: number;
  /** One self-contained index.html that opens from file:// (default true: CI artifacts open without a server). */
  singleFile?: boolean;
}

export interface AllureReportResult {
  outDir: string;
  index: string;
  /** This target's history file (<history>/<slug>-<hash>.jsonl). */
  historyFile: string;
  /** The run's label as the report shows it. */
  label: Record<string, string>;
  /** E.g. the old shared history.jsonl found in the history folder. */
  notes: string[];
}

export function buildAllureReport(options: AllureReportOptions = {}): AllureReportResult {
  const paths = reportPaths();
  const resultsDir = resolve(options.resultsDir ?? paths.allureResults);
  const outDir = resolve(options.outDir ?? paths.allureReport);
  const historyDir = resolve(options.historyDir ?? paths.allureHistory);
  if (!existsSync(resultsDir) || readdirSync(resultsDir).length === 0) {
    throw new FtfError('FTF_E_REPORT_MISSING', `no Allure results in ${resultsDir}`, {
      hint: 'run `ftf-conformance run` first (playwright.config.ts lists the allure-playwright reporter)',
    });
  }
  // The history folder is what CI caches between runs: never appended to through a link (reports-symlinks.ts).
  refuseSymlinks(paths.root, [historyDir, outDir]);
  mkdirSync(historyDir, { recursive: true });
  const identity = runIdentity(resultsDir);
  const key = historyKey(identity.target, identity.baseUrl);
  const historyFile = join(historyDir, `${key}.jsonl`);
  const label = runLabel(identity);
  const config = {
    name: options.name ?? 'FTF conformance',
    output: outDir,
    historyPath: historyFile,
    historyLimit: options.historyLimit ?? 30,
    variables: label,
    categories: CATEGORIES.map((c) => ({ ...c })),
    plugins: {
      awesome: { options: { singleFile: options.singleFile ?? true, reportName: options.name ?? 'FTF conformance', groupBy: ['epic', 'feature', 'story'] } },
    },
  };
  const configFile = join(historyDir, `${key}.allurerc.json`);
  writeFileSync(configFile, JSON.stringify(config, null, 2));
  const cli = requireAllureCli();
  const run = runKey(resultsDir);
  const before = forgetRun(historyFile, run);
  const timeoutMs = options.timeoutMs ?? allureTimeoutMs();
  const r = spawnSync(process.execPath, [cli, 'generate', resultsDir, '--config', configFile, '--output', outDir], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    timeout: timeoutMs,
    killSignal: 'SIGKILL',
    maxBuffer: 16 * 1024 * 1024,
  });
  if ((r.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT') {
    throw new FtfError('FTF_E_ALLURE_TIMEOUT', `allure generate did not finish within ${timeoutMs} ms and was stopped; ${outDir} is incomplete`, {
      hint: 'raise FTF_ALLURE_TIMEOUT_MS for very large result sets, or build it later with `ftf-conformance report`; the verdict and allure-results are complete without it',
    });
  }
  if (r.status !== 0 || !existsSync(join(outDir, 'index.html'))) {
    throw new FtfError('FTF_E_ALLURE', `allure generate failed (exit ${r.status ?? r.signal}): ${(r.stderr || r.stdout || '').trim().slice(-800)}`, {
      hint: 'run `npm run setup` to install the allure CLI (devDependency)',
    });
  }
  markRun(historyFile, run, before);
  const index = join(outDir, 'index.html');
  writeFileSync(index, withoutAnalytics(readFileSync(index, 'utf8')));
  const legacy = legacyHistoryNote(historyDir);
  return { outDir, index, historyFile, label, notes: legacy ? [legacy] : [] };
}

export const DEFAULT_ALLURE_TIMEOUT_MS = 300_000;

/** FTF_ALLURE_TIMEOUT_MS (a positive integer of milliseconds), else the default; anything else is a usage error. */
export function allureTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.FTF_ALLURE_TIMEOUT_MS?.trim();
  if (!raw) return DEFAULT_ALLURE_TIMEOUT_MS;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) {
    throw new FtfError('FTF_E_USAGE', `FTF_ALLURE_TIMEOUT_MS must be a positive integer of milliseconds (got ${JSON.stringify(raw)})`, { hint: `unset it for the default (${DEFAULT_ALLURE_TIMEOUT_MS} ms)` });
  }
  return n;
}

/** The Allure CLI's cli.js; FTF_E_ALLURE_MISSING when it is not installed (checked before a background build starts too). */
export function requireAllureCli(): string {
  const cli = allureCli();
  // The Allure CLI is a devDependency: a production install (npm ci --omit=dev) has no HTML report, only the results.
  if (cli === undefined || !existsSync(cli)) {
    const what = cli === undefined ? "the package 'allure' cannot be found from this installation" : `${cli} is missing`;
    throw new FtfError('FTF_E_ALLURE_MISSING', `the Allure CLI is not installed (${what}; it is a devDependency)`, {
      hint: 'install it with `npm install --no-save allure` (or a full `npm ci`); the allure-results folder is complete without it',
    });
  }
  return cli;
}

/**
 * Allure 3's report template always embeds Google Analytics (no option turns it off). A conformance report
 * is opened from CI artifacts, often offline or inside a vendor's network: it must not call a third party,
 * and on a closed network the lookup stalls the page (seen in CI). Drops the loader and its inline config;
 * a template without them is returned unchanged.
 */
export function withoutAnalytics(html: string): string {
  return html.replace(/<script async src="https:\/\/www\.googletagmanager\.com\/[^"]*"><\/script>\s*<script>[^<]*?gtag\([^<]*?<\/script>/, '');
}

/**
 * The Allure CLI's cli.js, found like an import (in the repository's node_modules, or hoisted beside an installed
 * package); the package exports only its library entry (dist/index.js), so cli.js is two folders above it.
 */
/** Where Node resolves the allure package from this module; undefined when it is not installed (no made-up path). */
function allureCli(): string | undefined {
  try {
    return join(dirname(createRequire(import.meta.url).resolve('allure')), '..', 'cli.js');
  } catch {
    return undefined;
  }
}

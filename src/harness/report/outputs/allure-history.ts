/**
 * Allure trends, one history per target and one entry per run.
 *
 * - The history file is chosen by the target: `<slug of the target name>-<8 hex of sha256(name + "\n" + base_url)>.jsonl`
 *   in the history folder, from what the run recorded in allure-results/environment.properties (`Target`,
 *   `Base.URL`; written by `run`, allure.ts). Runs against different targets (or one name at two base URLs) never
 *   share trend lines. Results without that file (not written by `run`) go to `unknown-target-<hash>.jsonl`.
 * - A run is identified by its test results (the `*-result.json` file names allure-playwright gives each test, a
 *   random uuid per test and run): building the report again from the same results replaces that run's entry
 *   instead of adding a second trend point. Allure 3 keeps its history as JSON lines; the harness marks the entry
 *   it added with `ftfRun` (Allure copies earlier lines as they are, so the mark stays).
 * - The run label (target, implementation version, harness commit) comes from the same environment.properties.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readAllureEnvironment } from './allure.js';

/** The history file of Allure 2/3 before per-target histories: one file for every target. No longer read. */
export const LEGACY_HISTORY_FILE = 'history.jsonl';

export interface RunIdentity {
  target: string;
  baseUrl: string;
  /** Implementation version as `run` recorded it (implementation.ts), when the profile says how to know it. */
  implementation?: string;
  /** Harness commit (git), else undefined; `harnessVersion` then stands in. */
  harnessCommit?: string;
  harnessVersion?: string;
}

/** What the run recorded about its target and harness (allure-results/environment.properties). */
export function runIdentity(resultsDir: string): RunIdentity {
  const env = readAllureEnvironment(resultsDir);
  return {
    target: env['Target'] ?? 'unknown-target',
    baseUrl: env['Base.URL'] ?? '',
    ...(env['Implementation.version'] ? { implementation: env['Implementation.version'] } : {}),
    ...(env['Harness.commit'] ? { harnessCommit: env['Harness.commit'] } : {}),
    ...(env['Harness.version'] ? { harnessVersion: env['Harness.version'] } : {}),
  };
}

/** The history file's name for a target: a readable slug of its name plus 8 hex of sha256(name, base_url). */
export function historyKey(target: string, baseUrl: string): string {
  const slug = target.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'target';
  const hash = createHash('sha256').update(`${target}\n${baseUrl}`).digest('hex').slice(0, 8);
  return `${slug}-${hash}`;
}

/** The run's label pieces, as the Allure report shows them (report variables). */
export function runLabel(id: RunIdentity): Record<string, string> {
  return {
    Target: id.baseUrl ? `${id.target} (${id.baseUrl})` : id.target,
    Implementation: id.implementation ?? 'not stated (the profile names no implementation version)',
    Harness: id.harnessCommit ? `commit ${id.harnessCommit}` : id.harnessVersion ? `version ${id.harnessVersion}` : 'unknown',
  };
}

/** The run's identity in the history: 16 hex of sha256 over its sorted test result file names. */
export function runKey(resultsDir: string): string {
  const results = readdirSync(resultsDir).filter((f) => f.endsWith('-result.json')).sort();
  return createHash('sha256').update(results.join('\n')).digest('hex').slice(0, 16);
}

interface HistoryLine {
  uuid?: string;
  ftfRun?: string;
}

function readLines(file: string): string[] {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '') : [];
}

const parse = (line: string): HistoryLine => {
  try {
    return JSON.parse(line) as HistoryLine;
  } catch {
    return {};
  }
};

/**
 * Before `allure generate`: drops the entry an earlier build of the same run added (so the report's trend shows
 * the run once). Returns the uuids of the entries left, to find the one Allure adds.
 */
export function forgetRun(historyFile: string, run: string): Set<string> {
  const lines = readLines(historyFile);
  const kept = lines.filter((l) => parse(l).ftfRun !== run);
  if (kept.length !== lines.length) writeFileSync(historyFile, kept.map((l) => `${l}\n`).join(''));
  return new Set(kept.map((l) => parse(l).uuid ?? ''));
}

/** After `allure generate`: marks the entry Allure added (the uuid not there before) with the run's key. */
export function markRun(historyFile: string, run: string, before: ReadonlySet<string>): boolean {
  const lines = readLines(historyFile);
  let marked = false;
  const out = lines.map((l) => {
    const entry = parse(l);
    if (marked || entry.uuid === undefined || before.has(entry.uuid) || entry.ftfRun !== undefined) return l;
    marked = true;
    return JSON.stringify({ ...entry, ftfRun: run });
  });
  if (marked) writeFileSync(historyFile, out.map((l) => `${l}\n`).join(''));
  return marked;
}

/** Every run's key in a history file, oldest first (the self-tests count trend points with it). */
export function historyRuns(historyFile: string): (string | undefined)[] {
  return readLines(historyFile).map((l) => parse(l).ftfRun);
}

export function legacyHistoryNote(historyDir: string): string | undefined {
  const legacy = join(historyDir, LEGACY_HISTORY_FILE);
  return existsSync(legacy)
    ? `${legacy} (one history for every target, before per-target histories) is no longer read or written; delete it, or rename it to this target's file if all its runs were against this target`
    : undefined;
}

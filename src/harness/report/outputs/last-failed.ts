/**
 * `run --last-failed`: the scenarios that failed when last run against a target, kept per reports folder AND per
 * target in `<reports>/last-failed.json` (Playwright's own `--last-failed` reads test-results/.last-run.json, one file
 * for every target and folder, and reruns whole files). Each run updates its target's entry: a scenario it executed
 * is in the entry exactly when it failed there; what it did not execute (filtered out, skipped) keeps its earlier
 * state, so `run --grep X` then `run --last-failed` still reruns the earlier failures outside X.
 * A failure is a failed or errored scenario (a warning too under --fail-on should): what made the run non-conformant.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { REPO_ROOT } from '../../repo-root.js';
import type { OnlyThese } from '../../scenario/selection.js';
import { EXECUTED, type FailOn, type VerdictSummary } from '../verdicts/verdicts.js';

export const LAST_FAILED_FILE = 'last-failed.json';

/** Which target a run was against: one entry of last-failed.json each. */
export interface RunTarget {
  /** The identity: the profile file and, for an external target, its base URL (FTF_BASE_URL included). */
  key: string;
  /** Shown to the user. */
  label: string;
}

export interface FailedScenario {
  id: string;
  /** The scenario file (absolute): a broken file without a readable id is found again by it. */
  file?: string;
  verdict: string;
}

export interface TargetEntry {
  label: string;
  /** When the entry was last updated (ISO). */
  at: string;
  failed: FailedScenario[];
}

interface Store {
  version: 1;
  targets: Record<string, TargetEntry>;
}

function readStore(root: string): Store {
  const file = join(root, LAST_FAILED_FILE);
  if (!existsSync(file)) return { version: 1, targets: {} };
  try {
    const raw = JSON.parse(readFileSync(file, 'utf8')) as Partial<Store>;
    return raw.version === 1 && raw.targets && typeof raw.targets === 'object' ? { version: 1, targets: raw.targets } : { version: 1, targets: {} };
  } catch {
    // A damaged file only loses the record of earlier failures; the next run writes a whole one.
    return { version: 1, targets: {} };
  }
}

export function readLastFailed(root: string, target: RunTarget): TargetEntry | undefined {
  return readStore(root).targets[target.key];
}

/** The selection that reruns an entry's failures (scenario/selection.ts `only`). */
export function onlyFailed(entry: TargetEntry): OnlyThese {
  return { ids: [...new Set(entry.failed.map((f) => f.id))], files: [...new Set(entry.failed.flatMap((f) => (f.file ? [f.file] : [])))] };
}

const isFailure = (verdict: string, failOn: FailOn): boolean => verdict === 'failed' || verdict === 'errored' || (failOn === 'should' && verdict === 'warning');

/** Updates the target's entry from this run's verdicts (see the module comment) and returns it. */
export function recordLastFailed(root: string, target: RunTarget, summary: Pick<VerdictSummary, 'scenarios' | 'failOn'>, now = new Date()): TargetEntry {
  const store = readStore(root);
  const executed = new Set(summary.scenarios.filter((s) => EXECUTED.has(s.verdict)).map((s) => s.id));
  const kept = (store.targets[target.key]?.failed ?? []).filter((f) => !executed.has(f.id));
  const failedNow: FailedScenario[] = summary.scenarios
    .filter((s) => isFailure(s.verdict, summary.failOn))
    .map((s) => ({ id: s.id, ...(s.file ? { file: resolve(REPO_ROOT, s.file) } : {}), verdict: s.verdict }));
  const entry: TargetEntry = { label: target.label, at: now.toISOString(), failed: [...kept, ...failedNow] };
  store.targets[target.key] = entry;
  mkdirSync(root, { recursive: true });
  const file = join(root, LAST_FAILED_FILE);
  // Whole or not at all: a run killed while writing leaves the earlier record.
  writeFileSync(`${file}.tmp`, `${JSON.stringify(store, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
  return entry;
}

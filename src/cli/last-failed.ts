/**
 * `run --last-failed`: which target a run is against (the key of its entry in <reports>/last-failed.json,
 * report/outputs/last-failed.ts) and the selection that reruns that entry's failures. Decided from the arguments and the
 * record before any server or Playwright starts.
 */
import { resolve } from 'node:path';
import { reportsDir } from '../harness/report/reports-folder/paths.js';
import { LAST_FAILED_FILE, onlyFailed, readLastFailed, type RunTarget } from '../harness/report/outputs/last-failed.js';
import type { OnlyThese } from '../harness/scenario/selection.js';
import { resolveTargetFile } from '../harness/target/load.js';
import { isEmbedded, readProfile } from '../harness/target/profile.js';
import { UsageError } from './args.js';

/** The profile file, and for an external target the base URL it is run against (FTF_BASE_URL wins, as in the run). */
export function runTargetOf(target: string | undefined, env: NodeJS.ProcessEnv = process.env): RunTarget {
  const profile = readProfile(target ? resolve(target) : resolveTargetFile(env));
  const base = env.FTF_BASE_URL?.trim();
  if (isEmbedded(profile) && !base) return { key: `embedded ${profile.file}`, label: `the embedded reference server of ${profile.file}` };
  const url = (base || String(profile.raw.base_url)).replace(/\/+$/, '');
  return { key: `${profile.file} ${url}`, label: `${url} (profile ${profile.file})` };
}

/** The selection of the last run's failures against this target in this reports folder; nothing to rerun exits 2. */
export function lastFailedOnly(command: string, target: string | undefined, root = reportsDir()): { only: OnlyThese; note: string } {
  const runTarget = runTargetOf(target);
  const entry = readLastFailed(root, runTarget);
  const where = `${resolve(root, LAST_FAILED_FILE)}`;
  if (!entry) throw new UsageError(command, `--last-failed: no earlier run against ${runTarget.label} is recorded in ${where}; run without --last-failed first (each reports folder keeps the failures of each target it was run against)`);
  if (entry.failed.length === 0) throw new UsageError(command, `--last-failed: nothing to rerun: no scenario failed when last run against ${runTarget.label} (${entry.at}, ${where})`);
  const ids = [...new Set(entry.failed.map((f) => f.id))];
  return { only: onlyFailed(entry), note: `note   --last-failed: rerunning the ${ids.length} scenario${ids.length === 1 ? '' : 's'} that failed when last run against ${runTarget.label} (${entry.at}): ${ids.join(', ')}` };
}

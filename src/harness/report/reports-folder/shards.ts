/**
 * Sharded runs: what each shard leaves in its reports folder for `ftf-conformance merge`, and the check that
 * a set of shard folders is one whole run. A shard folder holds `selection.json` (this manifest: grep, tag,
 * shard, phase), `blob-report/*.zip` (the blob, written behind the redacting reporter), `secret-digests.json` and
 * `har/`. Pure apart from reading/writing the manifest.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FtfError } from '../../../shared/errors.js';
import { parseShard, SELECTION_PHASES, type SelectionFlags, type SelectionPhase } from '../../scenario/selection.js';

export const MANIFEST_FILE = 'selection.json';
/** Folder of the blob report inside a reports folder (playwright.config.ts, FTF_BLOB_REPORT). */
export const BLOB_DIR = 'blob-report';

export interface ShardManifest {
  grep: string | null;
  tag: string | null;
  /** `run --clause` (absent in a manifest written before it existed). */
  clause?: string | null;
  shard: string | null;
  /** `run --phase`: a part of a run against one shared target (the shared phase sharded, the exclusive one whole). */
  phase: SelectionPhase | null;
}

export function writeShardManifest(reportsRoot: string, flags: SelectionFlags): void {
  mkdirSync(reportsRoot, { recursive: true });
  const manifest: ShardManifest = { grep: flags.grep ?? null, tag: flags.tag ?? null, clause: flags.clause ?? null, shard: flags.shard ?? null, phase: flags.phase ?? null };
  writeFileSync(join(reportsRoot, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
}

export function readShardManifest(reportsRoot: string): ShardManifest {
  const file = join(reportsRoot, MANIFEST_FILE);
  if (!existsSync(file)) {
    throw new FtfError('FTF_E_USAGE', `merge: ${reportsRoot} holds no ${MANIFEST_FILE}`, { hint: 'pass the reports folders `ftf-conformance run --shard i/n` wrote (FTF_REPORTS_DIR or reports/)' });
  }
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (cause) {
    throw new FtfError('FTF_E_REPORT_INVALID', `${file} is not valid JSON`, { cause });
  }
  const m = raw as Partial<ShardManifest>;
  const str = (x: unknown): string | null => (typeof x === 'string' ? x : null);
  const phase = (SELECTION_PHASES as readonly unknown[]).includes(m.phase) ? (m.phase as SelectionPhase) : null;
  return { grep: str(m.grep), tag: str(m.tag), clause: str(m.clause), shard: str(m.shard), phase };
}

/**
 * Problems that make a set of shard folders less than one whole run: different selections, a shard given
 * twice, a missing one. A run split by phase (`run --phase shared [--shard i/n]` + `run --phase exclusive`) is
 * whole with every shard of the shared phase and exactly one unsharded exclusive phase. `filtered`: the merged
 * run is not the full catalogue (grep/tag, or parts missing).
 */
export function checkShardSet(manifests: ShardManifest[]): { problems: string[]; filtered: boolean; selection: SelectionFlags } {
  const problems: string[] = [];
  const first = manifests[0];
  if (!first) return { problems: ['no shard folders to merge'], filtered: true, selection: {} };
  if (manifests.some((m) => m.grep !== first.grep || m.tag !== first.tag || (m.clause ?? null) !== (first.clause ?? null))) problems.push('the shards were run with different --grep/--tag/--clause selections: they are not one run');
  let missingPart = false;
  let sharded = manifests;
  if (manifests.some((m) => m.phase)) {
    if (manifests.some((m) => !m.phase)) problems.push('a run without --phase is among the folders of a run split by phase: merge `run --phase shared` shards with one `run --phase exclusive`');
    const exclusive = manifests.filter((m) => m.phase === 'exclusive');
    sharded = manifests.filter((m) => m.phase === 'shared');
    if (exclusive.length === 0) {
      missingPart = true;
      problems.push('the exclusive phase (`run --phase exclusive`) is missing: the merged run does not hold the whole selection');
    }
    if (exclusive.length > 1) problems.push(`the exclusive phase is given ${exclusive.length} times`);
    if (exclusive.some((m) => m.shard)) problems.push('the exclusive phase was sharded: it runs whole, in one job, after the shards of the shared phase');
    if (sharded.length === 0) {
      missingPart = true;
      problems.push('the shared phase (`run --phase shared --shard i/n`) is missing: the merged run does not hold the whole selection');
    }
  }
  const shards = sharded.map((m) => (m.shard ? parseShard(m.shard) : undefined));
  const totals = new Set(shards.map((s) => s?.total ?? 1));
  if (shards.some((s) => s === undefined) && sharded.length > 1) problems.push('an unsharded run is among the folders: merge the shards of one run (run --shard i/n)');
  if (totals.size > 1) problems.push(`the shards split the run differently (${[...totals].map((t) => `/${t}`).join(', ')})`);
  const total = Math.max(...totals);
  const seen = new Map<number, number>();
  for (const s of shards) if (s) seen.set(s.index, (seen.get(s.index) ?? 0) + 1);
  for (const [index, count] of seen) if (count > 1) problems.push(`shard ${index}/${total} is given ${count} times`);
  const missing = shards.length > 0 && shards.every((s) => s !== undefined) ? Array.from({ length: total }, (_, i) => i + 1).filter((i) => !seen.has(i)) : [];
  if (missing.length) problems.push(`shard${missing.length === 1 ? '' : 's'} ${missing.map((i) => `${i}/${total}`).join(', ')} missing: the merged run does not hold the whole selection`);
  const selection: SelectionFlags = { ...(first.grep ? { grep: first.grep } : {}), ...(first.tag ? { tag: first.tag } : {}), ...(first.clause ? { clause: first.clause } : {}) };
  return { problems, filtered: Boolean(first.grep || first.tag || first.clause) || missing.length > 0 || missingPart, selection };
}

/**
 * Shards of one shared external target. Shard jobs run at the same time against the same server, so a scenario
 * that must run alone there (scenario/isolation.ts: it moves the sandbox clock, which expires every token the other
 * shards hold, or registers the user's one webhook URL) would break the shards running beside it: false failures.
 * Within one run playwright.config.ts orders the two phases; across shard jobs nothing can, so a sharded run of
 * such a target must shard only the shared phase (`--phase shared --shard i/n`) and run the exclusive phase once,
 * after the shards (`--phase exclusive`), which `merge` puts together (docs/ci/README.md). Anything else is refused
 * with the reason before a server or Playwright starts. Embedded targets are exempt: each shard starts its own.
 */
import { resolve } from 'node:path';
import { EXCLUSIVE_TAG } from '../harness/scenario/isolation.js';
import { scenarioTestTags, extraTestTags, type SelectionFlags } from '../harness/scenario/selection.js';
import { resolveTargetFile } from '../harness/target/load.js';
import { isEmbedded, readProfile } from '../harness/target/profile.js';
import { UsageError } from './args.js';
import { selectedCatalogue } from './scenarios.js';

/** True when every worker of a run, and every shard job, would use one server (not an embedded reference). */
export function sharedExternalTarget(target: string | undefined, env: NodeJS.ProcessEnv = process.env): boolean {
  return !isEmbedded(readProfile(target ? resolve(target) : resolveTargetFile(env))) || Boolean(env.FTF_BASE_URL?.trim());
}

/** The ids, of the whole (unsharded) selection, that must run alone on a shared target. */
export function exclusiveIds(flags: SelectionFlags): string[] {
  const { shard: _shard, ...whole } = flags;
  const selected = selectedCatalogue(whole);
  return [
    ...selected.scenarios.filter((s) => scenarioTestTags(s).includes(EXCLUSIVE_TAG)).map((s) => s.id),
    ...selected.extras.filter((x) => extraTestTags(x).includes(EXCLUSIVE_TAG)).map((x) => x.id),
  ];
}

export function checkShardPhases(command: string, flags: SelectionFlags, target: string | undefined): void {
  if (!flags.shard || !sharedExternalTarget(target)) return;
  if (flags.phase === 'shared') return;
  if (flags.phase === 'exclusive') {
    throw new UsageError(command, '--phase exclusive runs whole, in one job after the shards of the shared phase: it cannot be sharded (its scenarios must run alone on the shared target)');
  }
  const ids = exclusiveIds(flags);
  if (ids.length === 0) return;
  throw new UsageError(
    command,
    `--shard on a shared external target: the shard jobs run side by side on one server, and ${ids.length} selected scenario${ids.length === 1 ? '' : 's'} must run alone there (${ids.join(', ')}: ${EXCLUSIVE_REASONS}); `
      + 'inside concurrent shards they would expire the other shards\' tokens or swap their webhook URL (false failures). '
      + 'Shard only the shared phase: `run --phase shared --shard i/n` in each shard job, then `run --phase exclusive` once, after them, and `merge` all their folders (docs/ci/README.md)',
  );
}

const EXCLUSIVE_REASONS = "they move the sandbox clock or register the user's webhook";

/** Scenario catalogue helpers for list / coverage / doctor: loading, selection, capabilities of a profile. */
import { join, relative, resolve } from 'node:path';
import { REPO_ROOT } from '../harness/repo-root.js';
import { clauseList, loadSelection, SELECTION_PHASES, type SelectionFlags } from '../harness/scenario/selection.js';
import { loadClauseCatalogue } from '../harness/spec/clauses.js';
import type { Scenario } from '../harness/scenario/types.js';
import { targetView } from '../harness/engine/target-view.js';
import { withMutationGuard } from '../harness/target/capabilities.js';
import { resolveTargetFile } from '../harness/target/load.js';
import { readProfile } from '../harness/target/profile.js';
import { resolveTarget } from '../harness/target/resolve.js';
import type { Capability } from '../harness/target/types.js';
import { oneOf, regExpFlag, shardFlag, UsageError } from './args.js';
import type { FlagHelp } from './help.js';

/**
 * The selection a run of these flags would declare (scenario/selection.ts, the same function the spec files
 * call), from specs/ of the repository or FTF_SPECS_DIR (as in specs/conformance.spec.ts).
 */
export function selectedCatalogue(flags: SelectionFlags = {}, dir = process.env.FTF_SPECS_DIR ?? join(REPO_ROOT, 'specs')): ReturnType<typeof loadSelection> {
  return loadSelection(dir, flags);
}

/** The selection flags every catalogue command takes (checked: a bad pattern or shard exits 2). */
/** Their help (docs/cli.md#selection): the same words in every command that takes them. */
export const SELECTION_HELP: readonly FlagHelp[] = [
  { flag: '--grep', value: 'RE', text: 'only what matches the regular expression in "<id>: <title> @<family> @<tags>"' },
  { flag: '--tag', value: 'T', text: 'only what is tagged @T (the family counts as a tag; with --grep both must match)' },
  { flag: '--clause', value: 'ID[,ID]', text: 'only what covers one of these clause ids (clauses.yaml); an unknown id exits 2' },
  { flag: '--shard', value: 'i/n', text: 'the i-th of n contiguous slices of the selection sorted by id, 1 <= i <= n' },
  { flag: '--phase', value: 'shared|exclusive', text: 'only what may run side by side on one shared target (`shared`), or only what must run alone there (`exclusive`: moves the sandbox clock, registers the user\'s webhook); shards of one external target shard `shared` and run `exclusive` once, after them (docs/ci/README.md)' },
];

export const SELECTION_OPTIONS = { grep: { type: 'string' }, tag: { type: 'string' }, clause: { type: 'string' }, shard: { type: 'string' }, phase: { type: 'string' } } as const;

export function selectionFlags(command: string, v: { grep?: string | undefined; tag?: string | undefined; clause?: string | undefined; shard?: string | undefined; phase?: string | undefined }): SelectionFlags {
  regExpFlag(command, 'grep', v.grep);
  shardFlag(command, v.shard);
  clauseFlag(command, v.clause);
  const phase = v.phase === undefined ? undefined : oneOf(command, 'phase', v.phase, SELECTION_PHASES, 'shared');
  return { ...(v.grep ? { grep: v.grep } : {}), ...(v.tag ? { tag: v.tag } : {}), ...(v.clause ? { clause: v.clause } : {}), ...(v.shard ? { shard: v.shard } : {}), ...(phase ? { phase } : {}) };
}

/** `--clause`: every id must be in clauses.yaml (a typo would select nothing and look like a gap). */
export function clauseFlag(command: string, value: string | undefined): void {
  if (value === undefined) return;
  const ids = clauseList(value);
  const known = loadClauseCatalogue().byId;
  const unknown = ids.filter((id) => !known.has(id));
  if (ids.length === 0 || unknown.length) throw new UsageError(command, `--clause: ${ids.length ? `unknown clause id${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}` : 'no clause id given'} (ids are listed in clauses.yaml; \`ftf-conformance coverage\` shows them)`);
}

export const scenarioFile = (s: Scenario): string => relative(REPO_ROOT, s.source.file).split('\\').join('/');

/**
 * Capabilities a profile gives (and its target view, for the roles it declares), without resolving secrets or URLs (list/coverage must work without
 * credentials): the profile pipeline in partial mode. Production targets lose `mutation` unless both
 * opt-ins are given, as in the runner.
 */
export function profileCapabilities(file: string = resolveTargetFile(), allowMutations = false): { name: string; file: string; capabilities: Set<Capability>; view: Record<string, unknown> } {
  const target = withMutationGuard(resolveTarget(readProfile(resolve(file)), { env: process.env, partial: true }), allowMutations);
  return { name: target.name, file: target.file ?? resolve(file), capabilities: target.capabilities, view: targetView(target) };
}

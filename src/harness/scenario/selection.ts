/**
 * THE selection of the catalogue: which scenarios, broken scenario files and property tests `--grep`, `--tag`
 * and `--shard i/n` pick. `list`, `doctor`, `coverage` call it in the CLI; `run`/`certify` hand the flags to
 * Playwright's workers (selectionEnv -> selectionFromEnv) where specs/conformance.spec.ts and the property
 * specs declare only what it returns. One function, so every command shows exactly what a run would run.
 *
 * - grep: a regular expression searched in "<id>: <title> @<family> @<tags…>" (a broken file: the id/title it
 *   still carries, "scenario file is invalid: <path>", @<folder>, its tags, @invalid-scenario; a property
 *   test: "<id>: <title> @<tags…>"). So `--grep '^events\.scope:'` picks that scenario whether it loads or not.
 * - tag: one tag (leading @ optional), the family included (`--tag events` = the events folder),
 *   `exclusive` for the scenarios scenario/isolation.ts runs alone on a shared target, and `production` for
 *   the ones the embedded reference's production project runs (scenario/environment.ts).
 * - phase shared|exclusive: only what may run side by side on one shared target / only what must run alone there
 *   (the @exclusive tag, isolation.ts). A sharded CI run against one external server shards the shared phase and
 *   runs the exclusive phase once, after the shards (docs/ci/README.md; run refuses other shards of such a target).
 * - shard i/n: of what grep/tag/phase kept, sorted by key (scenario id, property id, broken file path), the i-th of
 *   n contiguous slices (sizes differ by at most one). Every candidate lands in exactly one shard, so n
 *   shards together are the unsharded selection, broken files included.
 *
 * A broken file is a candidate like any scenario: when the flags select it, the run declares its errored test
 * (FTF_E_SCENARIO_INVALID at file:line:col), so a filtered or sharded run cannot lose it.
 */
import { basename, dirname, relative, resolve } from 'node:path';
import { FtfError } from '../../shared/errors.js';
import { PROPERTY_TESTS, type PropertyTest } from '../properties/catalogue.js';
import { EXCLUSIVE_TAG, exclusiveReasons } from './isolation.js';
import { PRODUCTION_TAG, productionReasons } from './environment.js';
import type { Capability } from '../target/types.js';
import type { ScenarioProblem, ScenarioSuite } from './load.js';
import { loadScenarioSuiteOnce } from './suite-cache.js';
import type { Scenario } from './types.js';

export interface SelectionFlags {
  grep?: string;
  tag?: string;
  /** "i/n", 1 <= i <= n. */
  shard?: string;
  /** One of the two phases of a run against a shared target (SELECTION_PHASES). */
  phase?: SelectionPhase;
}

/** `shared`: everything that may run side by side on one target; `exclusive`: what must run alone there (isolation.ts). */
export const SELECTION_PHASES = ['shared', 'exclusive'] as const;
export type SelectionPhase = (typeof SELECTION_PHASES)[number];

/** A test declared by a spec file other than the YAML catalogue (specs/properties). */
export interface ExtraTest {
  id: string;
  title: string;
  tags: readonly string[];
  /** Capabilities it needs (a property test's `needs`): environment.ts reads them. */
  needs?: readonly Capability[];
}

export interface Selected<T extends ExtraTest = ExtraTest> {
  scenarios: Scenario[];
  problems: ScenarioProblem[];
  extras: T[];
}

interface Candidate {
  key: string;
  text: string;
  tags: string[];
  pick(into: Selected<ExtraTest>): void;
}

/** Parses "i/n"; throws FTF_E_USAGE (the CLI checks flags with args.ts first). */
export function parseShard(shard: string): { index: number; total: number } {
  const m = /^(\d+)\/(\d+)$/.exec(shard);
  const [index, total] = m ? [Number(m[1]), Number(m[2])] : [NaN, NaN];
  if (!m || index < 1 || total < 1 || index > total) throw new FtfError('FTF_E_USAGE', `--shard must be i/n with 1 <= i <= n, e.g. 1/4 (got '${shard}')`);
  return { index, total };
}

const bare = (tag: string): string => tag.replace(/^@/, '');
const folderOf = (root: string, file: string): string => (dirname(file) === root ? 'misc' : basename(dirname(file)));

/**
 * The tags (without @) a scenario's test is declared with (specs/scenario-tests.ts): its family, its own
 * tags, `exclusive` (isolation.ts) and `production` (environment.ts: the production project runs it).
 */
export function scenarioTestTags(s: Scenario): string[] {
  return [...new Set([s.family, ...s.tags, ...(exclusiveReasons(s).length ? [EXCLUSIVE_TAG] : []), ...(productionReasons(s).length ? [PRODUCTION_TAG] : [])])];
}

/** The tags (without @) of a property test: its catalogue tags and `production` when environment.ts says so. */
export function extraTestTags(x: ExtraTest): string[] {
  const tags = x.tags.map(bare);
  return [...new Set([...tags, ...(productionReasons({ needs: x.needs ?? [], tags }).length ? [PRODUCTION_TAG] : [])])];
}

/** The selection of `suite` (loaded from `root`) plus `extras` for the flags. Pure: no I/O. */
export function selectCatalogue<T extends ExtraTest>(suite: Pick<ScenarioSuite, 'scenarios' | 'problems'>, root: string, flags: SelectionFlags, extras: readonly T[] = []): Selected<T> {
  const candidates: Candidate[] = [
    ...suite.scenarios.map((s) => {
      const tags = scenarioTestTags(s);
      return { key: s.id, text: `${s.id}: ${s.title} ${tags.map((t) => `@${t}`).join(' ')}`, tags, pick: (into: Selected<ExtraTest>) => void into.scenarios.push(s) };
    }),
    ...suite.problems.map((p) => {
      const path = relative(root, p.file).split('\\').join('/');
      const tags = [...new Set([folderOf(root, p.file), ...(p.partial?.tags ?? []), 'invalid-scenario'])];
      const named = [p.partial?.id, p.partial?.title].filter((x) => x !== undefined).join(': ');
      return { key: `${p.partial?.id ?? ''}\u0000${path}`, text: `${named ? `${named} ` : ''}scenario file is invalid: ${path} ${tags.map((t) => `@${t}`).join(' ')}`, tags, pick: (into: Selected<ExtraTest>) => void into.problems.push(p) };
    }),
    ...extras.map((x) => {
      const tags = extraTestTags(x);
      return { key: x.id, text: `${x.id}: ${x.title} ${tags.map((t) => `@${t}`).join(' ')}`, tags, pick: (into: Selected<ExtraTest>) => void into.extras.push(x) };
    }),
  ];
  const re = flags.grep ? new RegExp(flags.grep) : undefined;
  const tag = flags.tag ? bare(flags.tag) : undefined;
  const inPhase = (c: Candidate): boolean => !flags.phase || c.tags.includes(EXCLUSIVE_TAG) === (flags.phase === 'exclusive');
  let kept = candidates.filter((c) => (!re || re.test(c.text)) && (!tag || c.tags.includes(tag)) && inPhase(c));
  kept.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  if (flags.shard) {
    const { index, total } = parseShard(flags.shard);
    const base = Math.floor(kept.length / total);
    const extra = kept.length % total;
    const start = (index - 1) * base + Math.min(index - 1, extra);
    kept = kept.slice(start, start + base + (index <= extra ? 1 : 0));
  }
  const out: Selected<ExtraTest> = { scenarios: [], problems: [], extras: [] };
  for (const c of kept) c.pick(out);
  return out as Selected<T>;
}

/** The flags as the environment of Playwright's workers (every variable set: '' = not given). */
export function selectionEnv(flags: SelectionFlags): Record<string, string> {
  return { FTF_SELECT_GREP: flags.grep ?? '', FTF_SELECT_TAG: flags.tag ?? '', FTF_SELECT_SHARD: flags.shard ?? '', FTF_SELECT_PHASE: flags.phase ?? '' };
}

/** The flags a worker was given (selectionEnv); none set = everything. */
export function selectionFromEnv(env: NodeJS.ProcessEnv): SelectionFlags {
  return {
    ...(env.FTF_SELECT_GREP ? { grep: env.FTF_SELECT_GREP } : {}),
    ...(env.FTF_SELECT_TAG ? { tag: env.FTF_SELECT_TAG } : {}),
    ...(env.FTF_SELECT_SHARD ? { shard: env.FTF_SELECT_SHARD } : {}),
    ...((SELECTION_PHASES as readonly string[]).includes(env.FTF_SELECT_PHASE ?? '') ? { phase: env.FTF_SELECT_PHASE as SelectionPhase } : {}),
  };
}

/** True when any flag narrows the catalogue (waivers of unselected scenarios are then not stale). */
export const isFiltered = (flags: SelectionFlags): boolean => Boolean(flags.grep || flags.tag || flags.shard || flags.phase);

/**
 * Loads the catalogue under `dir` (FTF_SPECS_DIR or specs/) and selects from it together with the property
 * tests: what `list`/`doctor`/`coverage` show and what the spec files declare in a run.
 */
export function loadSelection(dir: string, flags: SelectionFlags): Selected<PropertyTest> & { suite: ScenarioSuite } {
  const suite = loadScenarioSuiteOnce(dir);
  return { ...selectCatalogue(suite, resolve(dir), flags, PROPERTY_TESTS), suite };
}

/**
 * THE selection of the catalogue: which scenarios, broken scenario files and property tests `--grep`, `--tag`,
 * `--clause` and `--shard i/n` pick. `list`, `doctor`, `coverage` call it in the CLI; `run`/`certify` hand the flags to
 * Playwright's workers (selectionSettings -> FTF_RUN -> selectionFromEnv) where specs/conformance.spec.ts and the property
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
 * - clause: clause ids (comma-separated): what covers one of them (a property test by its catalogue `covers`).
 * - only: `run --last-failed` (report/outputs/last-failed.ts): only these scenario / property ids and broken files.
 * - a clock-less form is no candidate of its own: it belongs to the scenario it stands in for (it runs inside that
 *   scenario's test, scenario/plan.ts decides which of the two runs), so either's id, tags or clauses select both.
 * - a broken file is matched on what it still says (scenario/partial.ts: a YAML syntax error loses only the broken
 *   block); a field it may carry but that could not be read keeps it in every selection that looks at that field.
 * - shard i/n: of what grep/tag/clause/phase kept, sorted by key (scenario id, property id, broken file path), the i-th of
 *   n contiguous slices (sizes differ by at most one). Every candidate lands in exactly one shard, so n
 *   shards together are the unsharded selection, broken files included.
 *
 * A broken file is a candidate like any scenario: when the flags select it, the run declares its errored test
 * (FTF_E_SCENARIO_INVALID at file:line:col), so a filtered or sharded run cannot lose it.
 */
import { basename, dirname, relative, resolve } from 'node:path';
import { FtfError } from '../../shared/errors.js';
import { readRunSettings, type RunSelection } from '../../shared/run-settings.js';
import { PROPERTY_TESTS, type PropertyTest } from '../properties/catalogue.js';
import { EXCLUSIVE_TAG, exclusiveReasons } from './isolation.js';
import { PRODUCTION_TAG, productionReasons } from './environment.js';
import type { Capability } from '../target/types.js';
import type { ScenarioProblem, ScenarioSuite } from './load.js';
import { UNREADABLE } from './partial.js';
import { loadScenarioSuiteOnce } from './suite-cache.js';
import type { Scenario } from './types.js';

export interface SelectionFlags {
  grep?: string;
  tag?: string;
  /** Clause ids (comma-separated): what covers any of them. */
  clause?: string;
  /** "i/n", 1 <= i <= n. */
  shard?: string;
  /** One of the two phases of a run against a shared target (SELECTION_PHASES). */
  phase?: SelectionPhase;
  /** `run --last-failed`: only what failed when last run against this target (report/outputs/last-failed.ts). */
  only?: OnlyThese;
}

/** Scenario and property ids, and scenario files (absolute paths: a broken file is matched by its path too). */
export interface OnlyThese {
  ids: readonly string[];
  files: readonly string[];
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
  /** Clause ids it checks (`--clause` selects by them). */
  covers?: readonly string[];
}

export interface Selected<T extends ExtraTest = ExtraTest> {
  scenarios: Scenario[];
  problems: ScenarioProblem[];
  extras: T[];
}

interface Candidate {
  key: string;
  /** What --grep searches; several texts when any may match (a scenario and its clock-less form). */
  texts: string[];
  tags: string[];
  covers: readonly string[];
  /** Fields a broken file may carry but that could not be read: a filter on them keeps the file (partial.ts). */
  unknown?: ReadonlySet<string>;
  /** What `only` matches: the ids (a scenario's and its form's) and the scenario files. */
  ids: readonly string[];
  files: readonly string[];
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

const textOf = (id: string, title: string, tags: readonly string[]): string => `${id}: ${title} ${tags.map((t) => `@${t}`).join(' ')}`;

/**
 * The selection of `suite` (loaded from `root`) plus `extras` for the flags. Pure: no I/O.
 * A clock-less form is no candidate of its own: it is part of the scenario it stands in for (it runs inside that
 * scenario's test), so selecting either by id, tag or clause selects both, and `scenarios` holds both.
 */
export function selectCatalogue<T extends ExtraTest>(suite: Pick<ScenarioSuite, 'scenarios' | 'problems'>, root: string, flags: SelectionFlags, extras: readonly T[] = []): Selected<T> {
  const forms = new Map(suite.scenarios.filter((s) => s.formOf !== undefined).map((s) => [s.formOf!, s]));
  const candidates: Candidate[] = [
    ...suite.scenarios.filter((s) => s.formOf === undefined).map((s) => {
      const form = forms.get(s.id);
      const tags = scenarioTestTags(s);
      const formTags = form ? scenarioTestTags(form) : [];
      return {
        key: s.id,
        texts: [textOf(s.id, s.title, tags), ...(form ? [textOf(form.id, form.title, formTags)] : [])],
        tags: [...new Set([...tags, ...formTags])],
        covers: s.covers,
        ids: [s.id, ...(form ? [form.id] : [])],
        files: [resolve(s.source.file), ...(form ? [resolve(form.source.file)] : [])],
        pick: (into: Selected<ExtraTest>) => void into.scenarios.push(s, ...(form ? [form] : [])),
      };
    }),
    ...suite.problems.map((p) => {
      const path = relative(root, p.file).split('\\').join('/');
      const partial = p.partial ?? UNREADABLE;
      const tags = [...new Set([folderOf(root, p.file), ...(partial.family ? [partial.family] : []), ...(partial.tags ?? []), 'invalid-scenario'])];
      const named = [partial.id, partial.title].filter((x) => x !== undefined).join(': ');
      return {
        key: `${partial.id ?? ''}\u0000${path}`,
        texts: [`${named ? `${named} ` : ''}scenario file is invalid: ${path} ${tags.map((t) => `@${t}`).join(' ')}`],
        tags,
        covers: partial.covers ?? [],
        unknown: new Set(partial.unknown ?? []),
        ids: partial.id !== undefined ? [partial.id] : [],
        files: [resolve(p.file)],
        pick: (into: Selected<ExtraTest>) => void into.problems.push(p),
      };
    }),
    ...extras.map((x) => {
      const tags = extraTestTags(x);
      return { key: x.id, texts: [textOf(x.id, x.title, tags)], tags, covers: x.covers ?? [], ids: [x.id], files: [], pick: (into: Selected<ExtraTest>) => void into.extras.push(x) };
    }),
  ];
  const re = flags.grep ? new RegExp(flags.grep) : undefined;
  const tag = flags.tag ? bare(flags.tag) : undefined;
  const clauses = flags.clause ? clauseList(flags.clause) : undefined;
  const unknown = (c: Candidate, ...fields: string[]): boolean => fields.some((f) => c.unknown?.has(f));
  const inPhase = (c: Candidate): boolean => !flags.phase || c.tags.includes(EXCLUSIVE_TAG) === (flags.phase === 'exclusive');
  const onlyIds = flags.only ? new Set(flags.only.ids) : undefined;
  const onlyFiles = flags.only ? new Set(flags.only.files) : undefined;
  const inOnly = (c: Candidate): boolean => !onlyIds || c.ids.some((id) => onlyIds.has(id)) || c.files.some((f) => onlyFiles!.has(f));
  let kept = candidates.filter((c) =>
    (!re || c.texts.some((t) => re.test(t)) || unknown(c, 'id', 'title', 'tags', 'family'))
    && (!tag || c.tags.includes(tag) || unknown(c, 'tags', 'family'))
    && (!clauses || c.covers.some((id) => clauses.includes(id)) || unknown(c, 'covers'))
    && inPhase(c)
    && inOnly(c));
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

/** `--clause A,B`: the ids, trimmed. */
export const clauseList = (value: string): string[] => value.split(',').map((c) => c.trim()).filter(Boolean);

/** The flags as the run's settings for Playwright's workers (FTF_RUN, shared/run-settings.ts). */
export function selectionSettings(flags: SelectionFlags): RunSelection {
  return {
    ...(flags.grep ? { grep: flags.grep } : {}), ...(flags.tag ? { tag: flags.tag } : {}), ...(flags.clause ? { clause: flags.clause } : {}),
    ...(flags.shard ? { shard: flags.shard } : {}), ...(flags.phase ? { phase: flags.phase } : {}),
    ...(flags.only ? { only: { ids: [...flags.only.ids], files: [...flags.only.files] } } : {}),
  };
}

/** The flags a worker was given (selectionSettings); none set = everything. */
export function selectionFromEnv(env: NodeJS.ProcessEnv): SelectionFlags {
  const { phase, ...given } = readRunSettings(env).selection ?? {};
  return { ...given, ...((SELECTION_PHASES as readonly string[]).includes(phase ?? '') ? { phase: phase as SelectionPhase } : {}) };
}

/** True when any flag narrows the catalogue (waivers of unselected scenarios are then not stale). */
export const isFiltered = (flags: SelectionFlags): boolean => Boolean(flags.grep || flags.tag || flags.clause || flags.shard || flags.phase || flags.only);

/**
 * Loads the catalogue under `dir` (FTF_SPECS_DIR or specs/) and selects from it together with the property
 * tests: what `list`/`doctor`/`coverage` show and what the spec files declare in a run.
 */
export function loadSelection(dir: string, flags: SelectionFlags): Selected<PropertyTest> & { suite: ScenarioSuite } {
  const suite = loadScenarioSuiteOnce(dir);
  return { ...selectCatalogue(suite, resolve(dir), flags, PROPERTY_TESTS), suite };
}

/**
 * Loads every scenario under specs/ (skipping specs/_steps, which holds reusable step groups): YAML with
 * positions, schema validation, semantic checks. A broken file never stops the others: problems are
 * returned next to the good scenarios so the runner can declare one failing test per broken file.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { FtfError } from '../../shared/errors.js';
import type { Capability } from '../target/types.js';
import { REPO_ROOT } from '../repo-root.js';
import { loadClauseCatalogue, type Clause } from '../spec/clauses.js';
import { namesEnvironment } from './environment.js';
import { attributionErrors } from './clause-attribution.js';
import { partialOfValue, salvagePartial, UNREADABLE, type PartialScenario } from './partial.js';
import { analyzeSteps, analyzeVars, BUILTIN_VARS, stepKind, type Analysis, type GroupInfo } from './semantic.js';
import { isMissingModule, readYaml, type YamlSource } from '../yaml/source.js';
import { scenarioError, syntaxErrors } from './errors.js';
import type { LocatedStep, Scenario, ScenarioDocument, Step, StepGroup } from './types.js';
import { validateGroupShape, validateScenarioShape } from './validate.js';

export interface ScenarioProblem {
  file: string;
  /** All errors of the file, first one first. */
  errors: FtfError[];
  /** What could still be read of a broken file, so a selection can name it (scenario/selection.ts, scenario/partial.ts). */
  partial?: PartialScenario;
}

export interface ScenarioSuite {
  scenarios: Scenario[];
  problems: ScenarioProblem[];
  groups: Map<string, StepGroup>;
}

export interface LoadOptions {
  /** Clauses by id; default loadClauseCatalogue().byId (FTF_SPEC_DIR or ../shared/spec). */
  clauses?: Map<string, Clause>;
  /** Folder of step groups; default: the nearest `_steps` in dir or one of its parents (so specs/token finds specs/_steps). */
  stepsDir?: string;
}

export const STEPS_DIR = '_steps';

/** Load everything; never throws for a bad scenario file (see problems). */
export function loadScenarioSuite(dir = 'specs', opts: LoadOptions = {}): ScenarioSuite {
  const root = resolve(dir);
  const clauses = opts.clauses ?? loadClauseCatalogue().byId;
  const problems: ScenarioProblem[] = [];
  const stepsDir = opts.stepsDir ? resolve(opts.stepsDir) : findStepsDir(root);
  const groupSet = loadGroups(stepsDir, problems);
  const scenarios: Scenario[] = [];
  const seen = new Map<string, string>();
  for (const file of yamlFiles(root)) {
    const errors: FtfError[] = [];
    let src: YamlSource | undefined;
    try {
      src = readYaml(file);
      errors.push(...(src.problems.length > 0 ? syntaxErrors(src) : validateScenarioShape(src)));
    } catch (e) {
      if (isMissingModule(e)) throw e;
      errors.push(asFtfError(e, file));
    }
    // All problems of a file in one pass: a file whose shape is wrong still gets its clause ids checked (the
    // step semantics need a well-formed file and wait until the shape is right).
    if (src && src.problems.length === 0 && errors.length > 0) checkCovers(src, clauses, errors);
    if (src && errors.length === 0) {
      const scenario = buildScenario(src, dirname(stepsDir), clauses, groupSet, errors);
      const prev = seen.get(scenario.id);
      if (prev) errors.push(scenarioError(`duplicate scenario id '${scenario.id}' (also in ${display(prev)})`, src.locate(['id']), 'scenario ids must be unique across specs/'));
      if (errors.length === 0) {
        seen.set(scenario.id, file);
        scenarios.push(scenario);
      }
    }
    if (errors.length > 0) problems.push({ file, errors, partial: !src ? UNREADABLE : src.problems.length > 0 ? salvagePartial(file) : partialOfValue(src.value) });
  }
  return { scenarios: linkClocklessForms(scenarios, problems), problems, groups: groupSet.built };
}

/** Capabilities a clock-less form stands in for; a form needing one of them would be no form. */
export const CLOCK_CAPABILITIES: readonly Capability[] = ['clock', 'funding'];

/**
 * Issue 13: `clockless_form` names the scenario that runs in a clock scenario's place on a target without
 * clock control. The form must exist, cover exactly the same clauses, need neither clock nor funding itself
 * (declared, or by a clock step; needs its clauses bring are dropped), have no form itself and be the form of
 * one scenario only. A scenario whose form is wrong becomes a problem (its file);
 * forms are marked `formOf` (the Playwright entry declares no test for them).
 */
function linkClocklessForms(scenarios: Scenario[], problems: ScenarioProblem[]): Scenario[] {
  const byId = new Map(scenarios.map((s) => [s.id, s]));
  const taken = new Map<string, string>();
  const broken = new Set<string>();
  for (const s of scenarios) {
    if (s.clocklessForm === undefined) continue;
    const form = byId.get(s.clocklessForm);
    const why = !form ? `no scenario has the id '${s.clocklessForm}'`
      : form.id === s.id ? 'a scenario cannot be its own form'
        : form.clocklessForm !== undefined ? `'${form.id}' has a clock-less form itself`
          : (form.ownClockNeeds ?? []).length > 0 ? `'${form.id}' needs ${(form.ownClockNeeds ?? []).join(', ')} itself (declared or by a clock step)`
            : [...new Set(form.covers)].sort().join() !== [...new Set(s.covers)].sort().join() ? `'${form.id}' covers ${form.covers.join(', ')}, not the same clauses as '${s.id}' (${s.covers.join(', ')})`
              : taken.has(form.id) ? `'${form.id}' is already the form of '${taken.get(form.id) ?? ''}'`
                : undefined;
    if (why !== undefined || !form) {
      broken.add(s.id);
      problems.push({
        file: s.source.file,
        errors: [scenarioError(`clockless_form: ${why ?? 'invalid'}`, { ...s.source }, 'name a scenario that covers the same clauses without needing clock or funding')],
        partial: { id: s.id, title: s.title, family: s.family, ...(s.tags.length ? { tags: s.tags } : {}), covers: s.covers },
      });
      continue;
    }
    taken.set(form.id, s.id);
    form.formOf = s.id;
    // A clause's `clock`/`funding` need is what checking it in full takes (clauses.yaml); the form checks what
    // can be judged without them (the target's own data, real time within the profile's timing), so it does
    // not inherit them: its own needs decide where it runs.
    form.needs = form.needs.filter((n) => !CLOCK_CAPABILITIES.includes(n));
  }
  return scenarios.filter((s) => !broken.has(s.id));
}

/**
 * The step-group folder for a scenario folder: `<dir>/_steps`, else the nearest parent's, so that running one
 * family (FTF_SPECS_DIR=specs/token) still resolves `use:` groups from specs/_steps.
 */
export function findStepsDir(root: string): string {
  for (let d = root; ; d = dirname(d)) {
    const candidate = join(d, STEPS_DIR);
    if (existsSync(candidate)) return candidate;
    if (existsSync(join(d, 'package.json')) || dirname(d) === d) return join(root, STEPS_DIR);
  }
}

/** Load and throw the first problem (for tools that want all-or-nothing). */
export function loadScenarios(dir = 'specs', opts: LoadOptions = {}): Scenario[] {
  const suite = loadScenarioSuite(dir, opts);
  const first = suite.problems[0]?.errors[0];
  if (first) throw first;
  return suite.scenarios;
}

/** Format a problem for a test failure or a CLI: every error on its own line. */
export function describeProblem(p: ScenarioProblem): string {
  return p.errors.map((e) => (e instanceof FtfError ? e.describe() : String(e))).join('\n');
}

function buildScenario(src: YamlSource, root: string, clauses: Map<string, Clause>, groups: GroupSet, errors: FtfError[]): Scenario {
  const doc = src.value as ScenarioDocument;
  const needs = new Set<Capability>(doc.needs ?? []);
  const levels: Array<'must' | 'should'> = [];
  const environmentClauses: string[] = [];
  for (const clause of checkCovers(src, clauses, errors)) {
    clause.needs.forEach((n) => needs.add(n));
    levels.push(clause.level);
    if (namesEnvironment(clause)) environmentClauses.push(clause.id);
  }
  const a: Analysis = { src, group: (n) => groups.info(n), groupNames: groups.names, errors };
  const scope = new Set<string>();
  analyzeVars(a, doc.vars, ['vars'], scope);
  analyzeSteps(a, doc.steps, ['steps'], scope);
  const usesClock = doc.steps.some((s) => stepKind(s) === 'clock' || (stepKind(s) === 'use' && groups.info(String((s as { use: string }).use))?.usesClock));
  if (usesClock && !needs.has('clock')) {
    errors.push(scenarioError("the scenario advances the clock but does not declare 'needs: [clock]'", src.locate(['needs']), 'add clock to needs so targets without a sandbox clock skip it'));
  }
  const ownClockNeeds = [...new Set([...(doc.needs ?? []).filter((n) => CLOCK_CAPABILITIES.includes(n)), ...(usesClock ? ['clock' as const] : [])])];
  const family = doc.family ?? (dirname(src.file) === root ? 'misc' : basename(dirname(src.file)));
  // Every check names its clause when the scenario covers several (clause-attribution.ts).
  errors.push(...attributionErrors(src, doc.covers ?? [], doc.steps ?? [], (name) => groups.build(name)));
  const source = src.locate([]);
  return {
    id: doc.id,
    title: doc.title,
    ...(doc.description !== undefined ? { description: doc.description } : {}),
    covers: doc.covers,
    tags: doc.tags ?? [],
    needs: [...needs].sort(),
    environmentClauses,
    family,
    vars: doc.vars ?? {},
    steps: locateSteps(src, doc.steps, ['steps'], groups),
    level: levels.length > 0 && levels.every((l) => l === 'should') ? 'should' : 'must',
    source: { file: source.file, line: 1, column: 1 },
    ...(doc.clockless_form !== undefined ? { clocklessForm: doc.clockless_form } : {}),
    ...(doc.no_clockless_form !== undefined ? { noClocklessForm: doc.no_clockless_form } : {}),
    // Clock needs of its own, not its clauses': a scenario with them can be no clock-less form (linkClocklessForms).
    ...(ownClockNeeds.length > 0 ? { ownClockNeeds } : {}),
  };
}

/** The clauses `covers` names; an unknown id is an error at its list item. Tolerates a malformed `covers`. */
function checkCovers(src: YamlSource, clauses: Map<string, Clause>, errors: FtfError[]): Clause[] {
  const covers = (src.value as { covers?: unknown } | null | undefined)?.covers;
  if (!Array.isArray(covers)) return [];
  const found: Clause[] = [];
  covers.forEach((id, i) => {
    if (typeof id !== 'string') return;
    const clause = clauses.get(id);
    if (clause) found.push(clause);
    else errors.push(scenarioError(`unknown clause id '${id}'`, src.locate(['covers', i]), `clause ids are listed in clauses.yaml (${clauses.size} known); check the spelling`));
  });
  return found;
}

function locateSteps(src: YamlSource, steps: Step[], path: Array<string | number>, groups: GroupSet): LocatedStep[] {
  return steps.map((step, i) => {
    const kind = stepKind(step) ?? 'unknown';
    const located: LocatedStep = { kind, step, location: src.locate([...path, i]) };
    if (kind === 'use') {
      const group = groups.build(String((step as { use: string }).use));
      if (group) located.group = group;
    }
    return located;
  });
}

interface GroupSet {
  names: string[];
  info(name: string): GroupInfo | undefined;
  build(name: string): StepGroup | undefined;
  built: Map<string, StepGroup>;
}

/** Groups are analysed lazily on first use so that groups can use other groups; a cycle is an error. */
function loadGroups(dir: string, problems: ScenarioProblem[]): GroupSet {
  const sources = new Map<string, YamlSource>();
  for (const file of existsSync(dir) ? yamlFiles(dir) : []) {
    try {
      const src = readYaml(file);
      const errors = src.problems.length > 0 ? syntaxErrors(src) : validateGroupShape(src);
      if (errors.length > 0) problems.push({ file, errors });
      else sources.set((src.value as { name?: string }).name ?? basename(file).replace(/\.ya?ml$/, ''), src);
    } catch (e) {
      if (isMissingModule(e)) throw e;
      problems.push({ file, errors: [asFtfError(e, file)] });
    }
  }
  const infos = new Map<string, GroupInfo | undefined>();
  const built = new Map<string, StepGroup>();
  const active = new Set<string>();
  const set: GroupSet = {
    names: [...sources.keys()].sort(),
    built,
    info(name) {
      if (infos.has(name)) return infos.get(name);
      const src = sources.get(name);
      if (!src) return undefined;
      if (active.has(name)) return undefined;
      active.add(name);
      const raw = src.value as { params?: string[] | Record<string, unknown>; steps: Step[] };
      const params = paramDefaults(raw.params);
      const errors: FtfError[] = [];
      const a: Analysis = { src, group: (n) => set.info(n), groupNames: set.names, errors };
      const scope = new Set<string>(Object.keys(params));
      analyzeSteps(a, raw.steps, ['steps'], scope);
      active.delete(name);
      if (errors.length > 0) {
        problems.push({ file: src.file, errors });
        infos.set(name, undefined);
        return undefined;
      }
      const usesClock = raw.steps.some((s) => stepKind(s) === 'clock' || (stepKind(s) === 'use' && set.info(String((s as { use: string }).use))?.usesClock));
      const info: GroupInfo = {
        params: Object.keys(params),
        required: Object.entries(params).filter(([, v]) => v === undefined).map(([k]) => k),
        outputs: new Set([...scope].filter((v) => !Object.hasOwn(params, v) && !(BUILTIN_VARS as readonly string[]).includes(v))),
        usesClock: Boolean(usesClock),
      };
      infos.set(name, info);
      return info;
    },
    build(name) {
      const existing = built.get(name);
      if (existing) return existing;
      const src = sources.get(name);
      const info = set.info(name);
      if (!src || !info) return undefined;
      const raw = src.value as { params?: string[] | Record<string, unknown>; steps: Step[] };
      const group: StepGroup = { name, params: paramDefaults(raw.params), required: info.required, steps: [], source: src.locate([]) };
      built.set(name, group);
      group.steps = locateSteps(src, raw.steps, ['steps'], set);
      return group;
    },
  };
  // Analyse every group now, so a broken group is reported even when no scenario uses it yet.
  set.names.forEach((n) => set.info(n));
  return set;
}

function paramDefaults(params: string[] | Record<string, unknown> | undefined): Record<string, unknown> {
  if (Array.isArray(params)) return Object.fromEntries(params.map((p) => [p, undefined]));
  // In the map form `name: ~` (null) means "no default": the caller must pass it.
  return Object.fromEntries(Object.entries(params ?? {}).map(([k, v]) => [k, v === null ? undefined : v]));
}

export function yamlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) {
      if (!name.startsWith('_') && !name.startsWith('.') && name !== 'node_modules') out.push(...yamlFiles(full));
    } else if (/\.ya?ml$/.test(name)) out.push(full);
  }
  return out;
}

function asFtfError(e: unknown, file: string): FtfError {
  if (e instanceof FtfError) return e;
  return new FtfError('FTF_E_SCENARIO_INVALID', `cannot read scenario file: ${(e as Error).message}`, { location: { file, line: 1, column: 1 }, cause: e });
}

const display = (file: string): string => relative(REPO_ROOT, file) || file;

/**
 * Semantic checks after the schema passed: expressions parse, call known functions and read variables that
 * exist at that point of the scenario (variables are defined in step order by `as`, `capture`, `set`, groups).
 * Step groups may read only their params, the built-ins and what they define themselves.
 */
import type { FtfError } from '../../shared/errors.js';
import { bareExpression, calledFunctions, compileExpression, freeVariables, FUNCTION_NAMES, parseTemplate } from '../expressions/index.js';
import { isPlainObject } from '../expressions/values.js';
import type { PathSegment, YamlSource } from '../yaml/source.js';
import { scenarioError } from './errors.js';
import { MAX_REPEAT_KEPT, STEP_KINDS } from './types.js';

/** Always defined while a scenario runs. `last` is the most recent response. */
export const BUILTIN_VARS = ['target', 'run_id', 'scenario_id', 'last'] as const;

export interface GroupInfo {
  params: string[];
  required: string[];
  /** Variables the group defines for its caller. */
  outputs: Set<string>;
  usesClock: boolean;
}

export interface Analysis {
  src: YamlSource;
  /** Looks a step group up (analysing it on first use); undefined when unknown or broken. */
  group(name: string): GroupInfo | undefined;
  groupNames: string[];
  errors: FtfError[];
}

export function stepKind(step: object): string | undefined {
  return STEP_KINDS.find((k) => Object.hasOwn(step, k));
}

export function analyzeVars(a: Analysis, vars: Record<string, unknown> | undefined, path: PathSegment[], scope: Set<string>): void {
  for (const [name, value] of Object.entries(vars ?? {})) {
    templates(a, value, [...path, name], scope);
    scope.add(name);
  }
}

/** Walk steps in order; `scope` grows with each definition. */
export function analyzeSteps(a: Analysis, steps: unknown[], path: PathSegment[], scope: Set<string>): void {
  steps.forEach((raw, i) => {
    if (!isPlainObject(raw)) return;
    const kind = stepKind(raw);
    const at = [...path, i, kind ?? ''];
    const body = kind ? raw[kind] : undefined;
    const obj = isPlainObject(body) ? body : {};
    const extra = (names: string[]): Set<string> => new Set([...scope, ...names]);
    const define = (name: unknown): void => {
      if (typeof name === 'string') scope.add(name);
    };
    switch (kind) {
      case 'request':
        templates(a, omit(obj, ['as', 'auth']), at, scope);
        if (isPlainObject(obj.auth) && typeof obj.auth.bearer === 'string') bare(a, obj.auth.bearer, [...at, 'auth', 'bearer'], scope);
        define(obj.as);
        break;
      case 'expect':
        known(a, obj.of, [...at, 'of'], scope);
        templates(a, omit(obj, ['of', 'where', 'severity']), at, scope);
        bare(a, obj.where, [...at, 'where'], extra(['response']));
        break;
      case 'capture':
        known(a, obj.of, [...at, 'of'], scope);
        Object.keys(obj).filter((k) => k !== 'of').forEach((k) => scope.add(k));
        break;
      case 'set':
        analyzeVars(a, obj, at, scope);
        break;
      case 'paginate':
        templates(a, obj.request, [...at, 'request'], extra(['pages', 'items', 'page_number']));
        bare(a, obj.until, [...at, 'until'], extra(['page', 'pages', 'items']));
        define(obj.as);
        break;
      case 'poll':
        templates(a, obj.request, [...at, 'request'], extra(['attempt']));
        bare(a, obj.until, [...at, 'until'], extra(['response', 'attempt']));
        define(obj.as);
        break;
      case 'list': {
        templates(a, obj.of, [...at, 'of'], scope);
        bare(a, obj.for_each, [...at, 'for_each'], scope);
        templates(a, obj.request, [...at, 'request'], extra(obj.for_each === undefined ? [] : ['i', 'item']));
        bare(a, obj.find, [...at, 'find'], extra(['entry']));
        bare(a, obj.until, [...at, 'until'], extra(['list', 'attempt']));
        define(obj.as);
        break;
      }
      case 'parallel': {
        bare(a, obj.for_each, [...at, 'for_each'], scope);
        const round = isPlainObject(obj.race) ? ['round'] : [];
        templates(a, obj.request, [...at, 'request'], extra(obj.for_each === undefined ? ['i', ...round] : ['i', 'item', ...round]));
        templates(a, obj.branches, [...at, 'branches'], extra(['i', ...round]));
        templates(a, obj.expect_all, [...at, 'expect_all'], scope);
        const counts = Array.isArray(obj.expect_count) ? obj.expect_count : obj.expect_count ? [obj.expect_count] : [];
        counts.forEach((c, j) => isPlainObject(c) && bare(a, c.where, [...at, 'expect_count', ...(Array.isArray(obj.expect_count) ? [j] : []), 'where'], extra(['result', 'i'])));
        bare(a, obj.where, [...at, 'where'], extra(['results']));
        define(obj.as);
        if (isPlainObject(obj.race) && isPlainObject(obj.race.next)) {
          // `next` runs after every round: it sees the round's results, and its variables exist afterwards.
          for (const [name, value] of Object.entries(obj.race.next)) {
            templates(a, value, [...at, 'race', 'next', name], extra(['results', 'round']));
            scope.add(name);
          }
        }
        break;
      }
      case 'repeat': {
        bare(a, obj.for_each, [...at, 'for_each'], scope);
        const each = extra(obj.for_each === undefined ? ['i'] : ['i', 'item']);
        templates(a, obj.request, [...at, 'request'], each);
        const expect = isPlainObject(obj.expect) ? obj.expect : {};
        templates(a, omit(expect, ['where', 'severity']), [...at, 'expect'], new Set([...each, 'response']));
        bare(a, expect.where, [...at, 'expect', 'where'], new Set([...each, 'response']));
        if (isPlainObject(obj.capture)) Object.keys(obj.capture).forEach((k) => scope.add(k));
        if (typeof obj.as === 'string' && typeof obj.times === 'number' && obj.times > MAX_REPEAT_KEPT) {
          a.errors.push(scenarioError(`repeat keeps its responses (as: ${obj.as}) for at most ${MAX_REPEAT_KEPT} iterations; times is ${obj.times}`, a.src.locate([...at, 'as']), 'drop `as:` (expect and capture see every response) or repeat fewer times'));
        }
        define(obj.as);
        break;
      }
      case 'use':
        analyzeUse(a, raw, [...path, i], scope);
        break;
      case 'clock':
        scope.add('clock');
        break;
      case 'fail_if':
        bare(a, raw.fail_if, at, scope);
        break;
      case 'skip_if':
        bare(a, raw.skip_if, at, scope);
        break;
      case 'listen':
        define(obj.as);
        break;
      case 'wait':
        templates(a, obj.ms, [...at, 'ms'], scope);
        bare(a, obj.until, [...at, 'until'], scope);
        break;
      case 'authorize':
        templates(a, obj.redirect_uri, [...at, 'redirect_uri'], scope);
        define(obj.as);
        break;
      default:
        break;
    }
  });
}

function analyzeUse(a: Analysis, raw: Record<string, unknown>, path: PathSegment[], scope: Set<string>): void {
  const name = String(raw.use);
  const group = a.group(name);
  if (!group) {
    const known = a.groupNames.join(', ') || '(none)';
    a.errors.push(scenarioError(`unknown step group '${name}'`, a.src.locate([...path, 'use']), `groups in specs/_steps: ${known}`));
    return;
  }
  const given = isPlainObject(raw.with) ? raw.with : {};
  for (const k of Object.keys(given)) {
    if (!group.params.includes(k)) {
      a.errors.push(scenarioError(`step group '${name}' has no parameter '${k}'`, a.src.locate([...path, 'with', k], 'key'), `parameters: ${group.params.join(', ') || '(none)'}`));
    }
  }
  for (const k of group.required) {
    if (!Object.hasOwn(given, k)) a.errors.push(scenarioError(`step group '${name}' needs the parameter '${k}'`, a.src.locate(path), `add with: {${k}: …}`));
  }
  templates(a, given, [...path, 'with'], scope);
  group.outputs.forEach((v) => scope.add(v));
}

function known(a: Analysis, name: unknown, path: PathSegment[], scope: Set<string>): void {
  if (typeof name === 'string' && !scope.has(name) && name !== 'last') {
    a.errors.push(scenarioError(`'${name}' is not a response kept earlier with 'as:'`, a.src.locate(path), `variables defined here: ${[...scope].sort().join(', ')}`));
  }
}

function templates(a: Analysis, value: unknown, path: PathSegment[], scope: Set<string>): void {
  if (typeof value === 'string') {
    if (!value.includes('${')) return;
    try {
      for (const part of parseTemplate(value)) if ('expr' in part) names(a, part.expr, path, scope);
    } catch (e) {
      a.errors.push(scenarioError((e as Error).message, a.src.locate(path), undefined, e));
    }
  } else if (Array.isArray(value)) value.forEach((v, i) => templates(a, v, [...path, i], scope));
  else if (isPlainObject(value)) Object.entries(value).forEach(([k, v]) => templates(a, v, [...path, k], scope));
}

function bare(a: Analysis, value: unknown, path: PathSegment[], scope: Set<string>): void {
  if (Array.isArray(value)) value.forEach((v, i) => bare(a, v, [...path, i], scope));
  else if (typeof value === 'string') names(a, bareExpression(value), path, scope);
}

function names(a: Analysis, expr: string, path: PathSegment[], scope: Set<string>): void {
  try {
    const node = compileExpression(expr);
    for (const v of freeVariables(node)) {
      if (!scope.has(v) && !(BUILTIN_VARS as readonly string[]).includes(v)) {
        a.errors.push(scenarioError(`unknown variable '${v}' in \`${expr}\``, a.src.locate(path), `variables defined at this point: ${[...new Set([...BUILTIN_VARS, ...scope])].sort().join(', ')}`));
      }
    }
    for (const f of calledFunctions(node)) {
      if (!FUNCTION_NAMES.has(f)) a.errors.push(scenarioError(`unknown function '${f}()' in \`${expr}\``, a.src.locate(path), `functions: ${[...FUNCTION_NAMES].join(', ')}`));
    }
  } catch (e) {
    a.errors.push(scenarioError((e as Error).message, a.src.locate(path), undefined, e));
  }
}

function omit(obj: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(obj).filter(([k]) => !keys.includes(k)));
}

/**
 * Loads schemas/operations.yaml and checks it: every entry well formed, every schema name known, every
 * `$paths.<key>` one of the documented keys. Pure data out; path compiling and matching are in operations.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeYamlProblem, parseYaml } from '../yaml/source.js';
import { SchemaError } from './errors.js';
import { resolveRef } from './store.js';
import { REPO_ROOT } from '../repo-root.js';
import { keptParse } from '../user-cache.js';

export const OPERATIONS_FILE = join(REPO_ROOT, 'schemas', 'operations.yaml');

/** Target profile `paths` keys for the operations whose paths the spec leaves "not shown". */
export const PATH_KEYS = [
  'health', 'cells', 'cell', 'entities', 'entity', 'entity_users', 'holdings', 'holding_extensions',
  'holidays', 'indications', 'checkpoints', 'checkpoint_delete',
] as const;

export type Base = 'api' | 'auth';

export interface AtSpec {
  /** Target profile `fields` key holding the pointer (a list, a uid), or `records` key (a record; null = none). */
  field: string;
  /** `records` when the pointer is a record's place (target profile `records`), else `fields`. */
  from: 'fields' | 'records';
  /** Pointer used when the profile does not give the key ("" = the body). */
  default: string;
  /** Absolute schema reference for the located value. */
  schema: string;
}

export interface ResponseSpec {
  /** Absolute schema reference for the whole body, if any. */
  schema?: string;
  /** Values located by pointers, each with its schema (one answer can hold a uid and a record: POST /subscribe). */
  at?: AtSpec[];
}

export interface OperationSpec {
  id: string;
  method: string;
  base: Base;
  /** Spec path template, or `$paths.<key>`. */
  path: string;
  /** Status key ("200", "4XX") -> response spec, defaults of the base merged in. */
  responses: Record<string, ResponseSpec>;
}

export interface OperationMap {
  operations: OperationSpec[];
  unmatched: Record<Base, Record<string, ResponseSpec>>;
}

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);
const STATUS_KEY = /^[1-5]([0-9]{2}|XX)$/;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function invalid(source: string, field: string, message: string): SchemaError {
  return new SchemaError('FTF_E_OPERATION_MAP_INVALID', message, { location: { file: source, field }, hint: 'see the header of schemas/operations.yaml' });
}

function schemaRef(source: string, field: string, value: unknown): string {
  if (typeof value !== 'string') throw invalid(source, field, `${field} must be a schema name`);
  const ref = resolveRef(value);
  if (ref === undefined) throw invalid(source, field, `${field} names an unknown schema "${value}" (no schemas/api/${value.split('#')[0]}.schema.json)`);
  return ref;
}

function responseSpec(source: string, field: string, value: unknown): ResponseSpec {
  if (typeof value === 'string') return { schema: schemaRef(source, field, value) };
  if (!isObj(value) || (value.schema === undefined && value.at === undefined)) {
    throw invalid(source, field, `${field} must be a schema name or {schema?, at?}`);
  }
  const spec: ResponseSpec = {};
  if (value.schema !== undefined) spec.schema = schemaRef(source, `${field}.schema`, value.schema);
  if (value.at !== undefined) {
    const list = Array.isArray(value.at) ? value.at : [value.at];
    if (list.length === 0) throw invalid(source, `${field}.at`, `${field}.at must name at least one place`);
    spec.at = list.map((at, i) => atSpec(source, Array.isArray(value.at) ? `${field}.at.${i}` : `${field}.at`, at));
  }
  return spec;
}

function atSpec(source: string, field: string, at: unknown): AtSpec {
  const key = isObj(at) ? at.field ?? at.record : undefined;
  if (!isObj(at) || typeof key !== 'string' || (at.field !== undefined && at.record !== undefined) || typeof at.default !== 'string' || (at.default !== '' && !at.default.startsWith('/'))) {
    throw invalid(source, field, `${field} must be {field: <fields key> | record: <records key>, default: <JSON pointer or "">, schema: <name>} (or a list of them)`);
  }
  return { field: key, from: at.record !== undefined ? 'records' : 'fields', default: at.default, schema: schemaRef(source, `${field}.schema`, at.schema) };
}

function responses(source: string, field: string, value: unknown): Record<string, ResponseSpec> {
  if (!isObj(value)) throw invalid(source, field, `${field} must be a map of status -> schema`);
  const out: Record<string, ResponseSpec> = {};
  for (const [status, entry] of Object.entries(value)) {
    if (!STATUS_KEY.test(status)) throw invalid(source, `${field}.${status}`, `${field}: "${status}" is not a status (200) or class (4XX)`);
    out[status] = responseSpec(source, `${field}.${status}`, entry);
  }
  return out;
}

const asBase = (v: unknown): v is Base => v === 'api' || v === 'auth';

/** Parses and checks an operation map text (the file's content; `source` is used in messages). */
export function parseOperationMap(text: string, source: string): OperationMap {
  const yaml = parseYaml(text, source);
  const first = yaml.problems[0];
  if (first) {
    const all = yaml.problems.map((p) => `${source}:${p.line}:${p.column} ${describeYamlProblem(p)}`).join('; ');
    throw new SchemaError('FTF_E_OPERATION_MAP_INVALID', `not valid YAML: ${all}`, { location: { file: source, line: first.line, column: first.column } });
  }
  const doc = yaml.value;
  if (!isObj(doc) || doc.version !== 1 || !isObj(doc.operations)) throw invalid(source, '', 'expected {version: 1, defaults, unmatched, operations}');
  const defaults = isObj(doc.defaults) ? doc.defaults : {};
  const unmatchedDoc = isObj(doc.unmatched) ? doc.unmatched : {};
  const baseDefaults = { api: responses(source, 'defaults.api', defaults.api ?? {}), auth: responses(source, 'defaults.auth', defaults.auth ?? {}) };
  const unmatched = { api: responses(source, 'unmatched.api', unmatchedDoc.api ?? {}), auth: responses(source, 'unmatched.auth', unmatchedDoc.auth ?? {}) };
  const operations: OperationSpec[] = [];
  for (const [id, raw] of Object.entries(doc.operations)) {
    const at = `operations.${id}`;
    if (!isObj(raw)) throw invalid(source, at, `${at} must be a map`);
    const method = typeof raw.method === 'string' ? raw.method.toUpperCase() : '';
    if (!METHODS.has(method)) throw invalid(source, `${at}.method`, `${at}.method must be an HTTP method`);
    if (!asBase(raw.base)) throw invalid(source, `${at}.base`, `${at}.base must be api or auth`);
    const path = raw.path;
    if (typeof path !== 'string' || !(path.startsWith('/') || path.startsWith('$paths.'))) {
      throw invalid(source, `${at}.path`, `${at}.path must start with / or be $paths.<key>`);
    }
    if (path.startsWith('$paths.') && !(PATH_KEYS as readonly string[]).includes(path.slice('$paths.'.length))) {
      throw invalid(source, `${at}.path`, `${at}.path: unknown key ${path}; known: ${PATH_KEYS.join(', ')}`);
    }
    const own = responses(source, `${at}.responses`, raw.responses);
    operations.push({ id, method, base: raw.base, path, responses: { ...baseDefaults[raw.base], ...own } });
  }
  return { operations, unmatched };
}

let cached: OperationMap | undefined;

/** The project's operation map, read and checked once per process. */
export function loadOperationMap(): OperationMap {
  if (cached) return cached;
  const text = readFileSync(OPERATIONS_FILE, 'utf8');
  // Parsed once between a run's processes (each worker builds a schema registry): ~60 ms of a worker's start-up.
  cached = keptParse('operations', text, () => parseOperationMap(text, OPERATIONS_FILE), (kept): kept is OperationMap => isObj(kept) && Array.isArray(kept.operations) && isObj(kept.unmatched));
  return cached;
}

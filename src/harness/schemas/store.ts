/**
 * The response-schema registry: validators of schemas/api in the one Ajv instance (ajv.ts). Every file under
 * schemas/api is read and added on first use (its $id checked); each is compiled once, when a validation first
 * needs it, so a run that checks a few operations does not compile the others. Derived schemas (a schema located
 * at a JSON pointer, see derived.ts) are compiled once per distinct shape, also on first use. Nothing here compiles
 * per call.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { indexSchemaClauses } from './clause-of.js';
import { join } from 'node:path';
import type { AnySchemaObject, ValidateFunction } from 'ajv/dist/2020.js';
import { REPO_ROOT } from '../repo-root.js';
import { harnessAjv, type Ajv } from './ajv.js';
import { SchemaError } from './errors.js';

export const SCHEMA_ID_PREFIX = 'https://ftf-conformance.dev/schemas/api/';
export const SCHEMA_ID_SUFFIX = '.schema.json';
export const API_SCHEMAS_DIR = join(REPO_ROOT, 'schemas', 'api');

export type { Ajv } from './ajv.js';

interface Store {
  ajv: Ajv;
  /** Full $id (or $id#fragment) -> compiled validator, filled on first use. */
  byId: Map<string, ValidateFunction>;
  /** Short name (file name without .schema.json) -> full $id. */
  names: Map<string, string>;
  /** Every full $id of a schema file. */
  ids: Set<string>;
  /** Derived key -> its schema (see derived.ts); compiled into byId on first use. */
  derived: Map<string, AnySchemaObject>;
}

let store: Store | undefined;

export function fullId(name: string): string {
  return `${SCHEMA_ID_PREFIX}${name}${SCHEMA_ID_SUFFIX}`;
}

/** `https://…/api/event.schema.json` -> `event`; derived keys -> `subscribe-response, /uid: common#/$defs/identifier`. */
export function shortName(id: string): string {
  const strip = (s: string): string => s.split(SCHEMA_ID_PREFIX).join('').split(SCHEMA_ID_SUFFIX).join('');
  if (!id.startsWith('derived:')) return strip(id);
  const [base = '', pointer = '', at = ''] = id.slice('derived:'.length).split('|');
  return `${base ? `${strip(base)}, ` : ''}${pointer || '(body)'}: ${strip(at)}`;
}

function loadApiSchemas(ajv: Ajv, dir: string): Map<string, string> {
  const names = new Map<string, string>();
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith(SCHEMA_ID_SUFFIX)).sort();
  } catch (cause) {
    throw new SchemaError('FTF_E_SCHEMA_LOAD', `cannot read the schema folder ${dir}`, { cause, hint: 'run from an ftf-conformance checkout' });
  }
  for (const file of files) {
    const name = file.slice(0, -SCHEMA_ID_SUFFIX.length);
    let schema: AnySchemaObject;
    try {
      schema = JSON.parse(readFileSync(join(dir, file), 'utf8')) as AnySchemaObject;
    } catch (cause) {
      throw new SchemaError('FTF_E_SCHEMA_LOAD', `schema file is not valid JSON: ${file}`, { cause, location: { file: join(dir, file) } });
    }
    if (schema.$id !== fullId(name)) {
      throw new SchemaError('FTF_E_SCHEMA_LOAD', `schema ${file} has $id ${String(schema.$id)}, expected ${fullId(name)}`, {
        location: { file: join(dir, file), field: '$id' },
        hint: 'the $id must be the canonical URL built from the file name',
      });
    }
    // Not checked against the 2020-12 meta-schema here: compiling the meta-schema cost each worker ~70 ms (100 vs 30 ms
    // for this loop, 3 runs each) before its first test. The files are the project's own: a self-test checks every one
    // (test/harness/schemas-registry.test.ts), and strict mode still refuses an unknown keyword when a file compiles.
    ajv.addSchema(schema, undefined, undefined, false);
    indexSchemaClauses(schema);
    names.set(name, schema.$id);
  }
  return names;
}

/** The process-wide store: every schema file read and added on first call, none compiled yet. */
export function getStore(): Store {
  if (store) return store;
  const ajv = harnessAjv();
  const names = loadApiSchemas(ajv, API_SCHEMAS_DIR);
  store = { ajv, byId: new Map(), names, ids: new Set(names.values()), derived: new Map() };
  return store;
}

/** A schema file's validator, compiled now; a file that does not compile is FTF_E_SCHEMA_LOAD, naming the file. */
function compileFile(s: Store, id: string): ValidateFunction {
  const name = shortName(id);
  try {
    const validate = s.ajv.getSchema(id);
    if (!validate) throw new Error('not registered');
    return validate;
  } catch (cause) {
    throw new SchemaError('FTF_E_SCHEMA_LOAD', `schema ${name} does not compile: ${(cause as Error).message}`, {
      cause,
      location: { file: join(API_SCHEMAS_DIR, `${name}${SCHEMA_ID_SUFFIX}`) },
    });
  }
}

/**
 * Resolves a short name (`event`), a full $id, or either with a JSON-pointer fragment
 * (`common#/$defs/date`) to an absolute schema reference. Returns undefined for unknown names.
 */
export function resolveRef(nameOrId: string): string | undefined {
  const { names, ids } = getStore();
  const hash = nameOrId.indexOf('#');
  const base = hash < 0 ? nameOrId : nameOrId.slice(0, hash);
  const fragment = hash < 0 ? '' : nameOrId.slice(hash);
  const id = names.get(base) ?? (ids.has(base) ? base : undefined);
  return id === undefined ? undefined : `${id}${fragment}`;
}

/** The compiled validator for a resolved reference or a derived key (compiled on first use, then memoised). */
export function validatorFor(ref: string): ValidateFunction | undefined {
  const s = getStore();
  const cached = s.byId.get(ref);
  if (cached) return cached;
  let validate: ValidateFunction | undefined;
  const derived = s.derived.get(ref);
  if (derived) validate = s.ajv.compile(derived);
  else if (s.ids.has(ref)) validate = compileFile(s, ref);
  else if (ref.includes('#')) validate = s.ajv.getSchema(ref);
  if (validate) s.byId.set(ref, validate);
  return validate;
}

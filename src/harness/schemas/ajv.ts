/**
 * The ONE Ajv instance of the harness: draft 2020-12, ajv-formats plus the project's formats and annotation
 * keywords, one set of options. The response-schema registry (store.ts) and the validators of our own files
 * (scenario, target profile, waivers) all compile into it, each schema once per process.
 *
 * The reference server validates requests with Ajv of its own (src/reference/http/validation.ts): it may not
 * import the harness, and request validation needs type coercion for path and query strings, which a
 * response checker must never do.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { AnySchemaObject, ValidateFunction } from 'ajv/dist/2020.js';
import type { FormatsPlugin } from 'ajv-formats';
import { addFtfVocabulary } from './formats.js';

export type Ajv = Ajv2020;

/**
 * Ajv and ajv-formats (both CommonJS) are loaded when the instance is first made, not when this module is
 * imported: a process that finds everything it needs already checked (a kept scenario catalogue, a profile
 * checked earlier in the run) never loads them (start-up, docs/performance.md).
 */
function loadAjv(): { Ajv2020: typeof Ajv2020; addFormats: FormatsPlugin } {
  const require = createRequire(import.meta.url);
  const { Ajv2020: AjvClass } = require('ajv/dist/2020.js') as { Ajv2020: typeof Ajv2020 };
  // ajv-formats is CommonJS with `exports.default`.
  const formats = require('ajv-formats') as FormatsPlugin & { default?: FormatsPlugin };
  return { Ajv2020: AjvClass, addFormats: formats.default ?? formats };
}

let instance: Ajv | undefined;
const byFile = new Map<string, ValidateFunction>();

/** The process-wide instance, created on first use. */
export function harnessAjv(): Ajv {
  if (instance) return instance;
  const { Ajv2020, addFormats } = loadAjv();
  instance = new Ajv2020({
    // strictSchema catches typos in keywords; required/types strictness would forbid allOf-composed schemas.
    strict: true,
    strictRequired: false,
    strictTypes: false,
    // Derived schemas place a record at a list index (records.indication: /0) with an open-ended prefixItems.
    strictTuples: false,
    allowUnionTypes: true,
    allErrors: true,
    // verbose gives each error its data and parentSchema, used for "(got number 12.5)" messages and for
    // naming the fields allowed where an unknown one was written.
    verbose: true,
  });
  addFormats(instance);
  addFtfVocabulary(instance);
  return instance;
}

/**
 * The validator of a schema file with an `$id` (optionally at a `#/$defs/…` fragment), added to the one
 * instance on first use; later calls get ajv's compiled function back.
 */
export function fileValidator(file: string | URL, fragment = ''): ValidateFunction {
  const key = `${String(file)}${fragment}`;
  const known = byFile.get(key);
  if (known) return known;
  const ajv = harnessAjv();
  const schema = JSON.parse(readFileSync(file, 'utf8')) as AnySchemaObject;
  const id = schema.$id;
  if (typeof id !== 'string') throw new Error(`schema ${String(file)} has no $id`);
  if (!ajv.getSchema(id)) ajv.addSchema(schema);
  const validate = ajv.getSchema(`${id}${fragment}`);
  if (!validate) throw new Error(`schema ${id}${fragment} did not compile`);
  byFile.set(key, validate);
  return validate;
}

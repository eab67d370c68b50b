/**
 * Derived schemas: "the value at JSON pointer P of the body satisfies schema S", optionally together with
 * "the whole body satisfies schema B". This is how the operation map handles shapes the spec leaves open
 * (where a list sits in a listing body, which field holds the new subscription uid): the pointer comes from
 * the target profile, the schemas stay plain. Each distinct (B, P, S) is compiled once per process.
 */
import type { AnySchemaObject } from 'ajv/dist/2020.js';
import { getStore } from './store.js';
import { SchemaError } from './errors.js';

/** Normalises a target `fields` value: "" = the body, "/a/b" = a JSON pointer, "name" = one property. */
export function toPointer(value: string, field: string): string {
  if (value === '' || value.startsWith('/')) {
    if (/~[^01]|~$/.test(value)) {
      throw new SchemaError('FTF_E_TARGET_FIELD_INVALID', `fields.${field} is not a valid JSON pointer: ${JSON.stringify(value)}`, {
        location: { field: `fields.${field}` },
        hint: 'escape "~" as ~0 and "/" as ~1 (RFC 6901), or give a plain property name',
      });
    }
    return value;
  }
  return `/${value.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

function tokens(pointer: string): string[] {
  return pointer === '' ? [] : pointer.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Wraps `inner` so that it applies at `pointer` (object properties only; each step is required). */
function nest(pointer: string, inner: AnySchemaObject): AnySchemaObject {
  return tokens(pointer).reduceRight<AnySchemaObject>(
    (acc, token) => ({ type: 'object', required: [token], properties: { [token]: acc } }),
    inner,
  );
}

/**
 * Returns the key under which the derived validator is registered (usable with validate()).
 * `baseRef` and `atRef` are absolute schema references (see store.resolveRef).
 */
export function derivedSchema(baseRef: string | undefined, pointer: string, atRef: string): string {
  if (baseRef === undefined && pointer === '') return atRef;
  const key = `derived:${baseRef ?? ''}|${pointer}|${atRef}`;
  const store = getStore();
  if (store.derived.has(key)) return key;
  const located = nest(pointer, { $ref: atRef });
  const schema: AnySchemaObject = baseRef === undefined ? located : { allOf: [{ $ref: baseRef }, located] };
  store.derived.set(key, store.ajv.compile(schema));
  return key;
}

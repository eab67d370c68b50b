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
export function toPointer(value: string, field: string, section: 'fields' | 'records' = 'fields'): string {
  if (value === '' || value.startsWith('/')) {
    if (/~[^01]|~$/.test(value)) {
      throw new SchemaError('FTF_E_TARGET_FIELD_INVALID', `${section}.${field} is not a valid JSON pointer: ${JSON.stringify(value)}`, {
        location: { field: `${section}.${field}` },
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

/**
 * Wraps `inner` so that it applies at `pointer`; each step is required. A whole-number token is a list
 * index when the value there is a list (`/0`: the first item must exist), else an object property.
 */
function nest(pointer: string, inner: AnySchemaObject): AnySchemaObject {
  return tokens(pointer).reduceRight<AnySchemaObject>((acc, token) => {
    const property: AnySchemaObject = { type: 'object', required: [token], properties: { [token]: acc } };
    if (!/^(0|[1-9][0-9]*)$/.test(token)) return property;
    const index = Number(token);
    const item: AnySchemaObject = { type: 'array', minItems: index + 1, prefixItems: [...Array.from({ length: index }, () => ({})), acc] };
    return { if: { type: 'array' }, then: item, else: property };
  }, inner);
}

/** A value at `pointer` that must satisfy `schema` (an absolute schema reference). */
export interface LocatedSchema {
  pointer: string;
  schema: string;
}

/**
 * Returns the key under which the derived validator is registered (usable with validate()): the whole body
 * satisfies `baseRef` (if any) and the value at each place its schema. References are absolute (store.resolveRef).
 */
export function derivedSchema(baseRef: string | undefined, places: readonly LocatedSchema[]): string {
  const only = places.length === 1 ? places[0]! : undefined;
  if (baseRef === undefined && only && only.pointer === '') return only.schema;
  const key = `derived:${baseRef ?? ''}|${places.map((p) => `${p.pointer}|${p.schema}`).join('|')}`;
  const store = getStore();
  if (store.derived.has(key)) return key;
  const parts = [...(baseRef === undefined ? [] : [{ $ref: baseRef }]), ...places.map((p) => nest(p.pointer, { $ref: p.schema }))];
  const schema: AnySchemaObject = parts.length === 1 ? parts[0]! : { allOf: parts };
  // Compiled when a response first needs it (store.ts, validatorFor).
  store.derived.set(key, schema);
  return key;
}

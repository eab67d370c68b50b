/**
 * schemaRegistry(): the harness's single entry point to response schemas. The Ajv instance and every
 * compiled validator are process-wide (store.ts); a registry is a light view binding them to one target's
 * `paths` and `fields`, memoised per distinct map so repeated calls cost a lookup.
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { CompiledValidator, OperationMatch, RegistryOptions, SchemaRegistry, SchemaResult } from './types.js';
import { getStore, resolveRef, validatorFor } from './store.js';
import { loadOperationMap } from './operation-map.js';
import { OperationMatcher } from './operations.js';
import { toIssues } from './messages.js';
import { clausesOfErrors } from './clause-of.js';
import { SchemaError } from './errors.js';

export { formatIssues, describeValue } from './messages.js';
export { SchemaError } from './errors.js';
export { PATH_KEYS, parseOperationMap } from './operation-map.js';
export { UNMATCHED_OPERATION, OperationMatcher } from './operations.js';
export { isDecimalString } from './formats.js';
export { fullId, shortName } from './store.js';
export { clauseOfSchema } from './clause-of.js';

const registries = new Map<string, SchemaRegistry>();

function sortedEntries<V>(map: Record<string, V> | undefined): [string, V][] {
  return Object.entries(map ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

function lookup(schemaId: string): { id: string; fn: ValidateFunction } {
  const ref = schemaId.startsWith('derived:') ? schemaId : resolveRef(schemaId);
  const fn = ref === undefined ? undefined : validatorFor(ref);
  if (ref === undefined || fn === undefined) {
    throw new SchemaError('FTF_E_SCHEMA_UNKNOWN', `no schema named ${JSON.stringify(schemaId)}`, {
      hint: `use a file name under schemas/api (e.g. "event", "holding") or its $id; known: ${[...getStore().names.keys()].join(', ')}`,
    });
  }
  return { id: ref, fn };
}

function createRegistry(options: RegistryOptions): SchemaRegistry {
  const matcher = new OperationMatcher(loadOperationMap(), options.paths ?? {}, options.fields ?? {}, options.records ?? {});
  return {
    validate(schemaId: string, value: unknown): SchemaResult {
      const { id, fn } = lookup(schemaId);
      const valid = fn(value);
      if (valid) return { valid, schemaId: id, issues: [] };
      const clauses = clausesOfErrors(fn.errors, id);
      return { valid, schemaId: id, issues: toIssues(fn.errors), ...(clauses.length > 0 ? { clauses } : {}) };
    },
    matchOperation(method: string, pathname: string, base: 'api' | 'auth', status: number): OperationMatch {
      return matcher.match(method, pathname, base, status);
    },
    schemaIds(): string[] {
      return [...getStore().names.values()];
    },
    validator(schemaId: string): CompiledValidator {
      return lookup(schemaId).fn;
    },
    operationIds(): string[] {
      return matcher.operationIds();
    },
  };
}

/**
 * The registry for one target's `paths` / `fields` (both optional). Same maps -> same registry object;
 * every registry shares the one Ajv instance and its compiled validators.
 */
export function schemaRegistry(options: RegistryOptions = {}): SchemaRegistry {
  const key = JSON.stringify([sortedEntries(options.paths), sortedEntries(options.fields), sortedEntries(options.records)]);
  let registry = registries.get(key);
  if (!registry) {
    registry = createRegistry(options);
    registries.set(key, registry);
  }
  return registry;
}

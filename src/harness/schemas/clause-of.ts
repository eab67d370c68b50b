/**
 * Which clause a schema failure breaks (issue 24). Every response schema file names the clause it states
 * (`x-clause` at its root), and a field or `$defs` entry stating a clause of its own names that one (a date is
 * RES-DATE, Holding.status RES-HOLDING-STATUS). An ajv error carries the subschema whose keyword failed
 * (`parentSchema`, the registry's ajv is verbose): its clause is the nearest `x-clause` at or above that
 * subschema in its own file. A subschema of a file that names no clause (common.schema.json's identifier)
 * takes the clause of the schema that was validated.
 */
import type { ErrorObject } from 'ajv/dist/2020.js';
import { CLAUSE_KEYWORD } from './formats.js';

/** Subschema object -> the clause it states (its own x-clause, else its file's nearest one above it). */
const clauseOfSubschema = new WeakMap<object, string>();
/** Schema $id -> the clause its root names. */
const clauseOfRoot = new Map<string, string>();

/** Records the clauses of one schema file, as it was added to ajv (the same objects ajv reports errors with). */
export function indexSchemaClauses(schema: object): void {
  const root = (schema as Record<string, unknown>)[CLAUSE_KEYWORD];
  const id = (schema as Record<string, unknown>).$id;
  if (typeof id === 'string' && typeof root === 'string') clauseOfRoot.set(id, root);
  walk(schema, undefined);
}

function walk(node: unknown, inherited: string | undefined): void {
  if (typeof node !== 'object' || node === null) return;
  if (Array.isArray(node)) {
    for (const item of node) walk(item, inherited);
    return;
  }
  const own = (node as Record<string, unknown>)[CLAUSE_KEYWORD];
  const clause = typeof own === 'string' ? own : inherited;
  if (clause !== undefined) clauseOfSubschema.set(node, clause);
  for (const [key, value] of Object.entries(node)) if (key !== 'enum' && key !== 'const' && key !== 'examples') walk(value, clause);
}

/**
 * The clauses the failing errors of a validation break, in order of first appearance; `schemaId` is the schema
 * validated (its root clause stands in for a subschema that names none). Empty when no schema names one.
 */
export function clausesOfErrors(errors: readonly ErrorObject[] | null | undefined, schemaId: string): string[] {
  const fallback = clauseOfSchema(schemaId);
  const out: string[] = [];
  for (const e of errors ?? []) {
    // An `if` failure says only "must match then"; the errors of its `then` name the clause.
    if (e.keyword === 'if') continue;
    const parent = e.parentSchema as object | undefined;
    const clause = (parent !== undefined ? clauseOfSubschema.get(parent) : undefined) ?? fallback;
    if (clause !== undefined && !out.includes(clause)) out.push(clause);
  }
  return out;
}

/** The clause the root of a schema names (a derived schema: that of the record it places; docs/target-profiles.md records). */
export function clauseOfSchema(schemaId: string): string | undefined {
  if (schemaId.startsWith('derived:')) {
    const [base = '', , at = ''] = schemaId.slice('derived:'.length).split('|');
    return clauseOfSchema(at) ?? clauseOfSchema(base);
  }
  return clauseOfRoot.get(schemaId.split('#')[0] ?? schemaId);
}

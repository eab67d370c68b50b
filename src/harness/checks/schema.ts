/**
 * A response body satisfies its schema: `auto` looks the schema up in the operation map (a status without an
 * entry fails, with the body excerpt); a name/$id validates against that schema; `none` checks nothing.
 */
import { clauseOfSchema } from '../schemas/clause-of.js';
import { resolveRef } from '../schemas/store.js';
import type { SchemaRegistry } from '../schemas/types.js';
import { describeExchange, excerpt, type Redact } from './excerpt.js';
import { result, type CheckedResponse, type CheckResult, type Severity } from './types.js';

export interface SchemaCheckInput {
  response: CheckedResponse;
  registry: SchemaRegistry;
  /** auto | none | schema name or $id */
  mode: string;
  base: 'api' | 'auth' | 'control';
  /** Path of the request relative to its base (for the operation map). */
  pathname: string;
  severity?: Severity;
  redact?: Redact;
}

export function checkSchema(input: SchemaCheckInput): CheckResult | undefined {
  const { response: r, registry, mode, severity = 'must', redact } = input;
  if (mode === 'none') return undefined;
  let schemaId = mode;
  let operation = '';
  if (mode === 'auto') {
    if (input.base === 'control') return undefined;
    const match = registry.matchOperation(r.method, input.pathname, input.base, r.status);
    if (!match) return undefined;
    operation = match.operation;
    if (match.schemaId === undefined) {
      const listed = match.statusKeys?.join(', ') ?? match.knownStatuses.join(', ');
      return result('schema', false, severity, `a status listed for ${operation} (${listed || 'none'})`, String(r.status),
        `${describeExchange(r, redact)}: status ${r.status} is not an answer operation ${operation} may give (listed: ${listed || 'none'}); body: ${excerpt(r.text, redact)}`);
    }
    schemaId = match.schemaId;
  }
  // A failure blames the clause of the schema and field that failed (x-clause, schemas/clause-of.ts), not the
  // scenario's: a Holding whose date carries a time breaks RES-DATE wherever it was read (issue 24).
  if (r.json_error !== undefined) {
    const clause = clauseOfSchema(schemaId.startsWith('derived:') ? schemaId : (resolveRef(schemaId) ?? schemaId));
    return own(result('schema', false, severity, `JSON body (${schemaId})`, 'not JSON',
      `${describeExchange(r, redact)}: expected a JSON body${operation ? ` for ${operation}` : ''}, got ${r.headers['content-type'] ?? 'no content-type'} (${redact ? redact(r.json_error) : r.json_error}): ${excerpt(r.text, redact)}`), clause === undefined ? undefined : [clause]);
  }
  const res = registry.validate(schemaId, r.body);
  if (res.valid) return result('schema', true, severity, res.schemaId, 'valid', `body matches ${short(res.schemaId)}`);
  const issues = res.issues.slice(0, 5).map((i) => `${i.instancePath || '/'} ${i.message}`).join('; ');
  return own(result('schema', false, severity, short(res.schemaId), issues,
    `${describeExchange(r, redact)}: body does not match ${short(res.schemaId)}${operation ? ` (${operation})` : ''}: ${redact ? redact(issues) : issues}; body: ${excerpt(r.text, redact)}`), res.clauses);
}

/** The check with the clauses its schema names, when it names any (else the engine stamps the step's). */
const own = (check: CheckResult, clauses: string[] | undefined): CheckResult => (clauses && clauses.length > 0 ? { ...check, clauses } : check);

const short = (id: string): string => id.replace(/^https:\/\/ftf-conformance\.dev\/schemas\/api\//, '').replace(/\.schema\.json/, '');

/** Checks of one response against a ResponseExpectation (shared by `expect` and `parallel.expect_all`). */
import { checkDetail } from '../checks/detail.js';
import { checkHeaders } from '../checks/header.js';
import { checkJsonSubset } from '../checks/json-subset.js';
import { checkSchema } from '../checks/schema.js';
import { checkStatus } from '../checks/status.js';
import type { CheckResult, Severity } from '../checks/types.js';
import type { ResponseExpectation, SourceLocation } from '../scenario/types.js';
import { ENGINE_ERROR_CODES, StepError } from './errors.js';
import { isPlainObject, resolveDeep, typeName, type Scope } from '../expressions/index.js';
import type { ResponseRecord, StepContext } from './types.js';

export function responseChecks(ctx: StepContext, r: ResponseRecord, e: ResponseExpectation, severity: Severity, scope: Scope): CheckResult[] {
  const redact = ctx.redact;
  const out: Array<CheckResult | undefined> = [];
  const status = e.status === undefined ? undefined : checkStatus(r, e.status, severity, redact);
  out.push(status);
  // `schema: auto` judges the body of the answer the expectation names; on another status it would judge the body
  // against that other answer's schema and blame its clause (a 200 null where 404 was expected is no broken
  // Holding): the status check names the breach, the schema has nothing of its own to judge (issue 24).
  if (e.schema !== undefined && !(e.schema === 'auto' && status?.passed === false)) {
    out.push(checkSchema({ response: r, registry: ctx.engine.schemas, mode: e.schema, base: r.base, pathname: r.path, severity, redact }));
  }
  if (e.json !== undefined) out.push(checkJsonSubset(r, resolveDeep(e.json, scope), severity, redact));
  if (e.header !== undefined) out.push(checkHeaders(r, resolveDeep(e.header, scope) as Record<string, string | null>, severity, redact));
  if (e.detail !== undefined) out.push(checkDetail(r, resolveDeep(e.detail, scope) as string | string[], severity, redact));
  return out.filter((c): c is CheckResult => c !== undefined);
}

export function isResponseRecord(v: unknown): v is ResponseRecord {
  return isPlainObject(v) && typeof v.status === 'number' && typeof v.method === 'string' && typeof v.url === 'string' && 'text' in v;
}

/** The response named by `of` (default: the last one). */
export function responseOf(vars: Record<string, unknown>, of: string | undefined, at: SourceLocation): ResponseRecord {
  const name = of ?? 'last';
  const v = vars[name];
  if (!isResponseRecord(v)) {
    throw new StepError(ENGINE_ERROR_CODES.step, v === undefined ? `no response '${name}' yet (send a request first${of ? ` with as: ${of}` : ''})` : `'${name}' is a ${typeName(v)}, not a response`, { at });
  }
  return v;
}

/**
 * Sending one request for a step: build it, send it through the recording transport (label = step title),
 * turn transport failures into readable step errors, wrap the response as a ResponseRecord and run the
 * automatic checks on it: the response schema check (auto = through the operation map) and every response
 * rule that applies (rules/: failure layouts and the spec's fixed texts, with their own clause ids).
 */
import { checkSchema } from '../checks/schema.js';
import type { CheckResult } from '../checks/types.js';
import { describeExchange } from '../checks/excerpt.js';
import type { HttpRequest, HttpResponse } from '../http/types.js';
import type { RequestSpec, SourceLocation } from '../scenario/types.js';
import { applyResponseRules } from '../rules/apply.js';
import { FtfError } from '../../shared/errors.js';
import { ENGINE_ERROR_CODES, StepError } from './errors.js';
import { resolveDeep, type Scope } from '../expressions/index.js';
import { buildRequest } from './request.js';
import type { EngineContext, ResponseRecord } from './types.js';

export interface SentExchange {
  response: ResponseRecord;
  schema?: CheckResult;
  /** The response rules that applied (rules/table.ts), each with its own clauses. */
  rules: CheckResult[];
}

export async function sendExchange(
  engine: EngineContext,
  spec: RequestSpec,
  scope: Scope,
  opts: { label: string; at?: SourceLocation; maxTimeoutMs?: number; query?: Record<string, string> },
): Promise<SentExchange> {
  const prepared = await prepareExchange(engine, spec, scope, opts);
  let raw;
  try {
    raw = await engine.transport.send(prepared.request, opts.label);
  } catch (e) {
    throw exchangeError(engine, prepared, e, opts.at);
  }
  return finishExchange(engine, prepared, raw);
}

/** A request built from its template, not yet sent (the race barrier builds every request first). */
export interface PreparedExchange {
  spec: RequestSpec;
  request: HttpRequest;
  base: ResponseRecord['base'];
  path: string;
  timeoutMs: number;
}

export async function prepareExchange(
  engine: EngineContext,
  spec: RequestSpec,
  scope: Scope,
  opts: { at?: SourceLocation; maxTimeoutMs?: number; query?: Record<string, string> },
): Promise<PreparedExchange> {
  const timeoutMs = Math.max(1, Math.min(spec.timeout_ms ?? engine.target.timeouts.requestMs, opts.maxTimeoutMs ?? Number.POSITIVE_INFINITY));
  const built = await buildRequest(engine, spec, scope, timeoutMs, opts.at, opts.query);
  // `schema:` may be a template (a step group's parameter, e.g. `none` for a retry judged as a replay).
  const schema = typeof spec.schema === 'string' && spec.schema.includes('${') ? String(resolveDeep(spec.schema, scope)) : spec.schema;
  return { spec: schema === spec.schema ? spec : { ...spec, ...(schema !== undefined ? { schema } : {}) }, request: built.request, base: built.base, path: built.path, timeoutMs };
}

/** A transport failure as a readable step error (redacted). */
export function exchangeError(engine: EngineContext, prepared: PreparedExchange, e: unknown, at?: SourceLocation): StepError {
  const redact = engine.redact ?? ((s: string) => s);
  const code = e instanceof FtfError ? e.code : ENGINE_ERROR_CODES.request;
  const detail = redact(e instanceof Error ? e.message : String(e));
  return new StepError(code, `${describeExchange(prepared.request, redact)} failed (bound ${prepared.timeoutMs} ms): ${detail}`, {
    hint: e instanceof FtfError && e.hint ? e.hint : 'the target did not produce an HTTP response',
    cause: e,
    ...(at ? { at } : {}),
  });
}

/** The response as scenarios see it, plus its schema check and response-rule checks. */
export function finishExchange(engine: EngineContext, prepared: PreparedExchange, raw: HttpResponse): SentExchange {
  const redact = engine.redact ?? ((s: string) => s);
  const { request } = prepared;
  // Tokens live on the target's clock: once this client moved it (a `clock` step, or a raw control request
  // as in token.expiry), every token it cached may be past expires_in there. Forget them now rather than
  // meet a 401 later; a 401 is never retried (it may be the answer under test).
  if (prepared.base === 'control' && request.method === 'POST' && prepared.path.startsWith('/clock') && raw.status >= 200 && raw.status < 300) engine.auth.forgetAll();
  const response: ResponseRecord = {
    method: request.method,
    url: request.url,
    base: prepared.base,
    path: prepared.path,
    status: raw.status,
    headers: raw.headers,
    body: raw.json !== undefined ? raw.json : raw.bodyText === '' ? null : raw.bodyText,
    text: raw.bodyText,
    duration_ms: raw.durationMs,
    ...(raw.jsonError !== undefined ? { json_error: raw.jsonError } : {}),
  };
  const mode = prepared.spec.schema ?? 'auto';
  // Rules apply whatever the scenario's `schema:` says: every response is judged by every rule for its status.
  const rules = applyResponseRules({ response, requestHeaders: request.headers, base: prepared.base, pathname: prepared.path, registry: engine.schemas, redact });
  // A layout rule already judged the body against the operation map: the auto schema check would repeat it.
  const schema = mode === 'auto' && rules.layoutJudged ? undefined : checkSchema({ response, registry: engine.schemas, mode, base: prepared.base, pathname: prepared.path, redact });
  return { response, ...(schema ? { schema: { ...schema, automatic: true } } : {}), rules: rules.checks };
}

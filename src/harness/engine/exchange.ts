/**
 * Sending one request for a step: build it, send it through the recording transport (label = step title),
 * turn transport failures into readable step errors, wrap the response as a ResponseRecord and run the
 * response schema check (auto = through the operation map) on it.
 */
import { checkSchema } from '../checks/schema.js';
import type { CheckResult } from '../checks/types.js';
import { describeExchange } from '../checks/excerpt.js';
import type { RequestSpec, SourceLocation } from '../scenario/types.js';
import { FtfError } from '../../shared/errors.js';
import { ENGINE_ERROR_CODES, StepError } from './errors.js';
import type { Scope } from '../expressions/index.js';
import { buildRequest } from './request.js';
import type { EngineContext, ResponseRecord } from './types.js';

export interface SentExchange {
  response: ResponseRecord;
  schema?: CheckResult;
}

export async function sendExchange(
  engine: EngineContext,
  spec: RequestSpec,
  scope: Scope,
  opts: { label: string; at?: SourceLocation; maxTimeoutMs?: number; query?: Record<string, string> },
): Promise<SentExchange> {
  const redact = engine.redact ?? ((s: string) => s);
  const timeoutMs = Math.max(1, Math.min(spec.timeout_ms ?? engine.target.timeouts.requestMs, opts.maxTimeoutMs ?? Number.POSITIVE_INFINITY));
  const built = await buildRequest(engine, spec, scope, timeoutMs, opts.at, opts.query);
  const { request } = built;
  let raw;
  try {
    raw = await engine.transport.send(request, opts.label);
  } catch (e) {
    const code = e instanceof FtfError ? e.code : ENGINE_ERROR_CODES.request;
    const detail = redact(e instanceof Error ? e.message : String(e));
    throw new StepError(code, `${describeExchange(request, redact)} failed (bound ${timeoutMs} ms): ${detail}`, {
      hint: e instanceof FtfError && e.hint ? e.hint : 'the target did not produce an HTTP response',
      cause: e,
      ...(opts.at ? { at: opts.at } : {}),
    });
  }
  // Tokens live on the target's clock: once this client moved it (a `clock` step, or a raw control request
  // as in token.expiry), every token it cached may be past expires_in there. Forget them now rather than
  // meet a 401 later; a 401 is never retried (it may be the answer under test).
  if (built.base === 'control' && request.method === 'POST' && built.path.startsWith('/clock') && raw.status >= 200 && raw.status < 300) engine.auth.forgetAll();
  const response: ResponseRecord = {
    method: request.method,
    url: request.url,
    base: built.base,
    path: built.path,
    status: raw.status,
    headers: raw.headers,
    body: raw.json !== undefined ? raw.json : raw.bodyText === '' ? null : raw.bodyText,
    text: raw.bodyText,
    duration_ms: raw.durationMs,
    ...(raw.jsonError !== undefined ? { json_error: raw.jsonError } : {}),
  };
  const schema = checkSchema({ response, registry: engine.schemas, mode: spec.schema ?? 'auto', base: built.base, pathname: built.path, redact });
  return { response, ...(schema ? { schema } : {}) };
}

/**
 * Turns a request template (YAML) into an HttpRequest: interpolation, base URL, query, body encoding,
 * Authorization. The only place that decides the default credential (`primary` for {base_url}, none for
 * the token endpoint and the sandbox control API).
 */
import type { AuthSpec, Base, RequestSpec, SourceLocation } from '../scenario/types.js';
import type { HttpRequest } from '../http/types.js';
import { bareExpression, evaluate, interpolateString, isPlainObject, resolveDeep, toPlainJson, toText, typeName, type Scope } from './expressions/index.js';
import { ENGINE_ERROR_CODES, StepError } from './errors.js';
import type { EngineContext } from './types.js';

export const DEFAULT_CREDENTIAL = 'primary';

export interface BuiltRequest {
  request: HttpRequest;
  base: Base;
  /** Path relative to the base, without the query. */
  path: string;
}

export function baseUrl(engine: EngineContext, base: Base, at?: SourceLocation): string {
  const t = engine.target;
  const url = base === 'api' ? t.baseUrl : base === 'auth' ? t.authUrl : t.controlUrl;
  if (!url) {
    throw new StepError(ENGINE_ERROR_CODES.capability, 'the target profile has no control_url (sandbox control API)', {
      hint: "declare 'needs: [clock]' (or funding) so targets without a sandbox control API skip this scenario",
      ...(at ? { at } : {}),
    });
  }
  return url.replace(/\/+$/, '');
}

export async function buildRequest(
  engine: EngineContext,
  spec: RequestSpec,
  scope: Scope,
  timeoutMs: number,
  at?: SourceLocation,
  queryOverrides: Record<string, string> = {},
): Promise<BuiltRequest> {
  const base: Base = spec.base ?? 'api';
  const path = String(interpolateString(spec.path, scope));
  if (/^[a-z]+:\/\//i.test(path)) throw new StepError(ENGINE_ERROR_CODES.step, `path must be relative to the base, got ${path}`, at ? { at } : {});
  const rel = path.startsWith('/') ? path : `/${path}`;
  const url = new URL(baseUrl(engine, base, at) + rel);
  for (const [k, v] of Object.entries(asMap(resolveDeep(spec.query ?? {}, scope), 'query', at))) {
    if (v !== null && v !== undefined) url.searchParams.append(k, toText(v));
  }
  for (const [k, v] of Object.entries(queryOverrides)) url.searchParams.set(k, v);
  const headers: Record<string, string> = {};
  for (const [k, value] of Object.entries(asMap(resolveDeep(spec.headers ?? {}, scope), 'headers', at))) {
    if (value !== null && value !== undefined) headers[k.toLowerCase()] = toText(value);
  }
  let body: string | undefined;
  if (spec.json !== undefined) {
    body = JSON.stringify(toPlainJson(resolveDeep(spec.json, scope)));
    headers['content-type'] ??= 'application/json';
  } else if (spec.form !== undefined) {
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(asMap(resolveDeep(spec.form, scope), 'form', at))) form.append(k, toText(v));
    body = form.toString();
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
  } else if (spec.body !== undefined) {
    body = toText(interpolateString(spec.body, scope));
    if (spec.content_type) headers['content-type'] ??= spec.content_type;
  }
  if (spec.content_type) headers['content-type'] = spec.content_type;
  headers.accept ??= 'application/json';
  const authorization = await authorizationFor(engine, spec.auth ?? (base === 'api' ? DEFAULT_CREDENTIAL : 'none'), scope, at);
  if (authorization !== undefined) headers.authorization = authorization;
  const request: HttpRequest = { method: spec.method, url: url.toString(), headers, timeoutMs, ...(body !== undefined ? { body } : {}) };
  return { request, base, path: url.pathname.slice(new URL(baseUrl(engine, base, at)).pathname.replace(/\/$/, '').length) || '/' };
}

async function authorizationFor(engine: EngineContext, auth: AuthSpec, scope: Scope, at?: SourceLocation): Promise<string | undefined> {
  try {
    if (typeof auth === 'string') return auth === 'none' ? undefined : await engine.auth.authorization(auth);
    if ('basic' in auth) return engine.auth.clientAuthorization(auth.basic);
    const token = evaluate(bareExpression(auth.bearer), scope);
    return `Bearer ${toText(token)}`;
  } catch (e) {
    const name = typeof auth === 'string' ? auth : 'basic' in auth ? `basic ${auth.basic}` : 'bearer';
    throw new StepError(ENGINE_ERROR_CODES.request, `could not obtain credentials for auth '${name}': ${(e as Error).message}`, {
      hint: 'check the credential name against the target profile (credentials:) and that the token endpoint answers',
      cause: e,
      ...(at ? { at } : {}),
    });
  }
}

function asMap(v: unknown, field: string, at?: SourceLocation): Record<string, unknown> {
  if (isPlainObject(v)) return v;
  throw new StepError(ENGINE_ERROR_CODES.step, `request ${field} must be a map, got ${typeName(v)}`, at ? { at } : {});
}

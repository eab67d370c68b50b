/**
 * Turns a request template (YAML) into an HttpRequest: interpolation, base URL, query, body encoding,
 * Authorization. The only place that decides the default credential (`primary` for {base_url}, none for
 * the token endpoint and the sandbox control API).
 */
import type { AuthSpec, Base, RequestSpec, SourceLocation } from '../scenario/types.js';
import type { HttpRequest } from '../http/types.js';
import { bareExpression, evaluate, interpolateString, isPlainObject, resolveDeep, toPlainJson, toText, typeName, type Scope } from '../expressions/index.js';
import { ENGINE_ERROR_CODES, StepError } from './errors.js';
import { applyEventLimitParam } from './event-params.js';
import { placeShape } from './shapes.js';
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
  const shaped = spec.shape ? placeShape(engine.target.shapes[spec.shape.of], toText(interpolateString(spec.shape.value, scope))) : {};
  for (const [k, v] of Object.entries(shaped.query ?? {})) url.searchParams.set(k, v);
  if (base === 'api') applyEventLimitParam(url, new URL(baseUrl(engine, base, at)).pathname, engine.target.fields.event_limit_param);
  const headers: Record<string, string> = {};
  for (const [k, value] of Object.entries(asMap(resolveDeep(spec.headers ?? {}, scope), 'headers', at))) {
    if (value !== null && value !== undefined) headers[k.toLowerCase()] = toText(value);
  }
  if (spec.form === undefined && spec.auth !== undefined && typeof spec.auth === 'object' && 'form' in spec.auth && spec.auth.form !== undefined) {
    throw new StepError(ENGINE_ERROR_CODES.step, `auth {form: ${spec.auth.form}} puts client credentials into a form body: give the request a form:`, at ? { at } : {});
  }
  let body: string | undefined;
  if (shaped.body) {
    body = shaped.body.text;
    headers['content-type'] ??= shaped.body.contentType;
  } else if (spec.json !== undefined && jsonWanted(spec.json_if, scope)) {
    body = JSON.stringify(toPlainJson(resolveDeep(spec.json, scope)));
    headers['content-type'] ??= 'application/json';
  } else if (spec.form !== undefined) {
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(asMap(resolveDeep(spec.form, scope), 'form', at))) form.append(k, toText(v));
    if (spec.auth !== undefined && typeof spec.auth === 'object' && 'form' in spec.auth && spec.auth.form !== undefined) {
      for (const [k, v] of Object.entries(formClientCredentials(engine, spec.auth.form, at))) form.set(k, v);
    }
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
    if ('bearer' in auth) return `Bearer ${toText(evaluate(bareExpression(auth.bearer), scope))}`;
    // {form: …} alone: client authentication in the form body only, no Authorization header.
    return auth.basic === undefined ? undefined : engine.auth.clientAuthorization(auth.basic);
  } catch (e) {
    const name = typeof auth === 'string' ? auth : 'bearer' in auth ? 'bearer' : [auth.basic && `basic ${auth.basic}`, auth.form && `form ${auth.form}`].filter(Boolean).join(' + ');
    throw new StepError(ENGINE_ERROR_CODES.request, `could not obtain credentials for auth '${name}': ${(e as Error).message}`, {
      hint: 'check the credential name against the target profile (credentials:) and that the token endpoint answers',
      cause: e,
      ...(at ? { at } : {}),
    });
  }
}

/**
 * `auth: {form: <credential>}`: client_id and client_secret as form fields (the spec's grant table lists
 * them), so a scenario can check that the token endpoint insists on HTTP Basic (Authentication rule 1).
 * The secret comes from the resolved profile and is registered with the redactor like every profile secret.
 */
function formClientCredentials(engine: EngineContext, name: string, at?: SourceLocation): Record<string, string> {
  const cred = engine.target.credentials[name];
  if (!cred || cred.kind === 'api_key' || !cred.clientId || !cred.secret) {
    throw new StepError(ENGINE_ERROR_CODES.request, `auth {form: ${name}} needs an OAuth credential '${name}' with client_id and client secret in the target profile`, {
      hint: 'name a client_credentials or authorization_code credential of the profile',
      ...(at ? { at } : {}),
    });
  }
  return { client_id: cred.clientId, client_secret: cred.secret };
}

function asMap(v: unknown, field: string, at?: SourceLocation): Record<string, unknown> {
  if (isPlainObject(v)) return v;
  throw new StepError(ENGINE_ERROR_CODES.step, `request ${field} must be a map, got ${typeName(v)}`, at ? { at } : {});
}

/** `json_if`: absent = always; a boolean; or an expression (with or without ${}) evaluated to a boolean. */
function jsonWanted(condition: string | boolean | undefined, scope: Scope): boolean {
  if (condition === undefined || typeof condition === 'boolean') return condition ?? true;
  return evaluate(bareExpression(condition), scope) === true;
}

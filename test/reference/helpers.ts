/**
 * Helpers for the core reference-server tests: a real server on 127.0.0.1:0 (undici as the client),
 * tokens from /oauth/token (client_credentials + HTTP Basic), JSON calls, spec error-shape assertions.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { buildReferenceApp, type ReferenceApp } from '../../src/reference/app.js';
import type { ReferenceOptions } from '../../src/reference/context.js';

export const ALICE = 'alice@ftf.test';
export const BOB = 'bob@ftf.test';

export interface CallResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface CallOptions {
  token?: string;
  json?: unknown;
  /** Raw body (sent as is with the given headers). */
  raw?: string | Buffer;
  headers?: Record<string, string>;
}

export interface Ref extends ReferenceApp {
  authUrl: string;
  /** `path` starting with /api/v1, /_sandbox or /oauth. */
  call(method: string, path: string, options?: CallOptions): Promise<CallResult>;
  /** Calls under /api/v1. */
  api(method: string, path: string, options?: CallOptions): Promise<CallResult>;
  /** A cached client_credentials token; `fresh` gets a new one (after advancing the clock past its expiry). */
  token(clientId: string, fresh?: boolean): Promise<string>;
  close(): Promise<void>;
}

export async function startRef(options: ReferenceOptions = {}): Promise<Ref> {
  const built = await buildReferenceApp(options);
  await built.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = built.app.server.address() as AddressInfo;
  const authUrl = `http://127.0.0.1:${port}`;
  const tokens = new Map<string, string>();

  const call = async (method: string, path: string, o: CallOptions = {}): Promise<CallResult> => {
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    if (o.token !== undefined) headers.authorization = `Bearer ${o.token}`;
    let body: string | Buffer | undefined = o.raw;
    if (o.json !== undefined) {
      body = JSON.stringify(o.json);
      headers['content-type'] ??= 'application/json';
    }
    const res = await request(authUrl + path, { method: method as 'GET', headers, body });
    const text = await res.body.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: res.statusCode, headers: res.headers, text, body: parsed };
  };

  const token = async (clientId: string, fresh = false): Promise<string> => {
    const cached = tokens.get(clientId);
    if (cached && !fresh) return cached;
    const secret = built.ctx.secrets.clients[clientId];
    assert.ok(secret, `no secret for ${clientId}`);
    const res = await call('POST', '/oauth/token', {
      raw: 'grant_type=client_credentials',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
      },
    });
    assert.equal(res.status, 200, `token for ${clientId}: ${res.text}`);
    const t = (res.body as { access_token: string }).access_token;
    tokens.set(clientId, t);
    return t;
  };

  return {
    ...built,
    authUrl,
    call,
    api: (method, path, o) => call(method, `/api/v1${path}`, o),
    token,
    close: () => built.app.close(),
  };
}

/** `{detail: string}` (or with extra fields such as checkpoint on 409). */
export function assertDetail(res: CallResult, status: number, detail?: string): void {
  assert.equal(res.status, status, `expected ${status}, got ${res.status}: ${res.text}`);
  assert.equal(typeof res.body?.detail, 'string', `detail must be a string: ${res.text}`);
  if (detail !== undefined) assert.equal(res.body.detail, detail);
}

/** 422 `{detail: [{loc: array, msg: string, type: string}]}`. */
export function assert422(res: CallResult, locIncludes?: string): void {
  assert.equal(res.status, 422, `expected 422, got ${res.status}: ${res.text}`);
  assert.ok(Array.isArray(res.body?.detail) && res.body.detail.length > 0, res.text);
  for (const d of res.body.detail) {
    assert.ok(Array.isArray(d.loc), res.text);
    assert.equal(typeof d.msg, 'string');
    assert.equal(typeof d.type, 'string');
  }
  if (locIncludes !== undefined) assert.ok(res.body.detail.some((d: { loc: unknown[] }) => d.loc.includes(locIncludes)), res.text);
}

/** Every error body is spec-shaped: `{detail: string}` or the 422 shape. */
export function assertSpecError(res: CallResult): void {
  if (res.status === 422) assert422(res);
  else assert.equal(typeof res.body?.detail, 'string', `status ${res.status} body ${res.text}`);
}

export async function indication(ref: Ref, token: string, code: string): Promise<{ uid: string; subscriptionDates: string[]; minimum: number; maximum: number }> {
  const res = await ref.api('GET', `/indication/${code}`, { token });
  assert.equal(res.status, 200);
  return res.body;
}

let keyCounter = 0;
export const newKey = (): string => `00000000-0000-4000-8000-${String(++keyCounter).padStart(12, '0')}`;

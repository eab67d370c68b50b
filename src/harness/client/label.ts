/**
 * Raw exchanges (as the grading server saw them, secrets included) -> ClientExchange, with every secret
 * replaced by a label that keeps its identity: ACCESS_TOKEN_1, ACCESS_TOKEN_2, REFRESH_TOKEN_1, CODE_1, ... The
 * graders need that identity (was the refused token sent again? was a refresh token used twice?), never the
 * value. The replacing is done by the harness's ONE Redactor (http/redactor.ts) with explicit labels, so the
 * HAR and every report go through the same layer as the server-side suite's.
 */
import { Redactor } from '../http/redactor.js';
import type { RawExchange } from '../../shared/grading-exchange.js';
import type { ClientExchange, Environment } from './types.js';

/** The secrets the server generated at its start. */
export interface ServerSecrets {
  clients: Record<string, string>;
  apiKeys: Record<string, string>;
  passwords: Record<string, string>;
}

export class ExchangeLabeller {
  readonly redactor = new Redactor();
  private seq = 0;
  private readonly counters = new Map<string, number>();

  constructor(private readonly originMs: number) {}

  /** Registers a server's secrets (each server of a plan, before its first exchange). */
  addServerSecrets(secrets: ServerSecrets): void {
    for (const [clientId, secret] of Object.entries(secrets.clients)) this.redactor.addBasicCredentials(clientId, secret, `CLIENT_SECRET_${clientId}`);
    for (const [user, key] of Object.entries(secrets.apiKeys)) this.redactor.addSecret(key, `API_KEY_${user.split('@')[0]}`);
    for (const pw of Object.values(secrets.passwords)) this.redactor.addSecret(pw, 'PASSWORD');
    this.known.push(...Object.values(secrets.clients), ...Object.values(secrets.apiKeys), ...Object.values(secrets.passwords));
  }

  /** Every secret value seen so far (for the leak scan of the reports). In memory only. */
  secretValues(): string[] {
    return [...this.known];
  }

  private readonly known: string[] = [];

  /** A secret first seen now gets the next label of its kind. */
  private learn(value: unknown, kind: string): void {
    if (typeof value !== 'string' || this.redactor.labelOf(value) !== undefined) return;
    const n = (this.counters.get(kind) ?? 0) + 1;
    if (this.redactor.addSecret(value, `${kind}_${n}`)) {
      this.counters.set(kind, n);
      this.known.push(value);
    }
  }

  label(raw: RawExchange, environment: Environment): ClientExchange {
    const form = raw.body && typeof raw.body === 'object' ? (raw.body as Record<string, unknown>) : {};
    // Secrets first seen in this request (a code from a redirect the server never answered, a verifier) and
    // those the response hands out, each under a label of its own.
    this.learn(form.code, 'CODE');
    this.learn(form.code_verifier, 'CODE_VERIFIER');
    this.learn(form.refresh_token, 'REFRESH_TOKEN');
    this.learn(form.client_secret, 'CLIENT_SECRET');
    const responseJson = parseJson(raw.responseBody);
    if (responseJson && typeof responseJson === 'object' && !Array.isArray(responseJson)) {
      const r = responseJson as Record<string, unknown>;
      this.learn(r.access_token, 'ACCESS_TOKEN');
      this.learn(r.refresh_token, 'REFRESH_TOKEN');
    }
    const location = raw.responseHeaders.location;
    if (location) {
      const q = location.indexOf('?');
      if (q >= 0) this.learn(new URLSearchParams(location.slice(q + 1)).get('code') ?? undefined, 'CODE');
    }
    const r = this.redactor;
    const url = new URL(raw.url, 'http://grading.invalid');
    const query: Record<string, string> = {};
    for (const [k, v] of url.searchParams) query[k] = r.redactText(v);
    return {
      seq: ++this.seq,
      atMs: Math.round((raw.atMs - this.originMs) * 10) / 10,
      environment,
      credential: raw.credential,
      method: raw.method,
      path: r.redactText(url.pathname),
      query,
      headers: r.redactHeaders(raw.headers),
      ...(raw.body === undefined || raw.body === null ? {} : { body: this.redactValue(raw.body) }),
      status: raw.status,
      responseHeaders: r.redactHeaders(raw.responseHeaders),
      ...(raw.responseBody === '' ? {} : { responseBody: responseJson === undefined ? r.redactText(raw.responseBody) : this.redactValue(responseJson) }),
      dropped: raw.dropped,
      challenge: raw.challenge,
    };
  }

  private redactValue(v: unknown): unknown {
    return redactDeep(v, (text) => this.redactor.redactText(text));
  }
}

/** A JSON value with every string (keys included) passed through `redact`; the structure is kept. */
export function redactDeep<T>(v: T, redact: (text: string) => string): T {
  if (typeof v === 'string') return redact(v) as T;
  if (Array.isArray(v)) return v.map((x: unknown) => redactDeep(x, redact)) as T;
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [redact(k), redactDeep(x, redact)])) as T;
  return v;
}

function parseJson(text: string): unknown {
  const t = text.trim();
  if (!t.startsWith('{') && !t.startsWith('[')) return undefined;
  try {
    return JSON.parse(t) as unknown;
  } catch {
    return undefined;
  }
}

/** What every grader asks of an exchange: is it a token request, an API call, which token did it carry. */
import type { Breach, ClientExchange, GraderResult } from '../types.js';

export const API_PREFIX = '/api/v1/';
const LABEL = /^\[REDACTED:([A-Za-z0-9_().@-]+)\]$/;

export const isTokenRequest = (e: ClientExchange): boolean => e.method === 'POST' && e.path.endsWith('/oauth/token');
export const isApi = (e: ClientExchange): boolean => e.path.startsWith(API_PREFIX) && !e.path.endsWith('/oauth/token');

/** The scheme and the secret label of the Authorization header: { scheme: 'Bearer', label: 'ACCESS_TOKEN_2' }. */
export function authOf(e: ClientExchange): { scheme: string; label: string | undefined } | undefined {
  const value = e.headers.authorization;
  if (value === undefined) return undefined;
  const m = /^(\S+)\s+(.*)$/.exec(value.trim());
  if (!m) return { scheme: value.trim(), label: undefined };
  return { scheme: m[1] ?? '', label: LABEL.exec((m[2] ?? '').trim())?.[1] };
}

/** The access-token label an API request carried (only tokens from the token endpoint). */
export function accessTokenOf(e: ClientExchange): string | undefined {
  const a = authOf(e);
  return a && /^bearer$/i.test(a.scheme) && a.label?.startsWith('ACCESS_TOKEN_') ? a.label : undefined;
}

export function record(v: unknown): Record<string, unknown> | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** A token the grading server issued: its label, when and for how long. */
export interface IssuedToken {
  label: string;
  refreshLabel: string | undefined;
  grantType: string;
  credential: string | null;
  issuedAtMs: number;
  expiresInS: number | undefined;
  exchange: number;
}

export function issuedTokens(exchanges: readonly ClientExchange[]): IssuedToken[] {
  const out: IssuedToken[] = [];
  for (const e of exchanges) {
    if (!isTokenRequest(e) || e.status !== 200) continue;
    const r = record(e.responseBody);
    const label = typeof r?.access_token === 'string' ? LABEL.exec(r.access_token)?.[1] : undefined;
    if (!label) continue;
    const refresh = typeof r?.refresh_token === 'string' ? LABEL.exec(r.refresh_token)?.[1] : undefined;
    const expires = typeof r?.expires_in === 'number' ? r.expires_in : undefined;
    out.push({ label, refreshLabel: refresh, grantType: String(record(e.body)?.grant_type ?? ''), credential: e.credential, issuedAtMs: e.atMs, expiresInS: expires, exchange: e.seq });
  }
  return out;
}

/**
 * What a grader gathers: the occasions the client had to show its duty, and each breach with the exchanges
 * that show it (the evidence every report quotes). `result` is the grader's finding: no occasion and no breach
 * is "not judged" with the reason, never a pass.
 */
export class Findings {
  private occasions = 0;
  readonly breaches: Breach[] = [];

  /** The client had `n` more occasions to show the duty. */
  occasion(n = 1): void {
    this.occasions += n;
  }

  /** A breach, shown by these exchanges (in the order the evidence should list them). */
  breach(message: string, ...evidence: ReadonlyArray<ClientExchange | number>): void {
    this.breaches.push({ message, exchanges: evidence.map((e) => (typeof e === 'number' ? e : e.seq)) });
  }

  /** An occasion that was kept, or broken with `message` when `broken` holds. */
  judge(broken: boolean, message: () => string, ...evidence: ReadonlyArray<ClientExchange | number>): void {
    this.occasion();
    if (broken) this.breach(message(), ...evidence);
  }

  result(reason: string): GraderResult {
    return this.occasions === 0 && this.breaches.length === 0
      ? { judged: false, reason }
      : { judged: true, occasions: Math.max(this.occasions, this.breaches.length), breaches: this.breaches };
  }
}

/** Each item with the one after it (the next attempt after a refused one, the next read after a page). */
export function* withNext<T>(items: readonly T[]): Generator<[T, T | undefined]> {
  for (let i = 0; i < items.length; i++) yield [items[i] as T, items[i + 1]];
}

/** Time as the evidence shows it: seconds since the plan started. */
export const at = (e: ClientExchange): string => `t+${(e.atMs / 1000).toFixed(3)}s`;

/** Same request (method, path, query and body): a repeat, not a new request. */
export function sameRequest(a: ClientExchange, b: ClientExchange): boolean {
  return a.method === b.method && a.path === b.path && JSON.stringify(a.query) === JSON.stringify(b.query) && JSON.stringify(a.body ?? null) === JSON.stringify(b.body ?? null);
}

/** The events of a GET /event page, and its pageInfo. */
export function pageOf(e: ClientExchange): { events: Array<Record<string, unknown>>; hasNextPage: boolean | undefined; pageEndCursor: string | undefined } | undefined {
  if (e.method !== 'GET' || e.path !== '/api/v1/event' || e.status !== 200 || e.dropped) return undefined;
  const r = record(e.responseBody);
  const info = record(r?.pageInfo);
  if (!r || !info) return undefined;
  const events = Array.isArray(r.events) ? r.events.filter((x): x is Record<string, unknown> => !!record(x)) : [];
  return {
    events,
    hasNextPage: typeof info.hasNextPage === 'boolean' ? info.hasNextPage : undefined,
    pageEndCursor: typeof info.pageEndCursor === 'string' ? info.pageEndCursor : undefined,
  };
}

/** The checkpoint state a response shows ({checkpoint: {...}}, or the fields at the root). */
export function checkpointOf(body: unknown): { cursor?: string; version?: string } | undefined {
  const r = record(body);
  const cp = record(r?.checkpoint) ?? r;
  if (!cp || (typeof cp.checkpointVersion !== 'string' && typeof cp.cursor !== 'string')) return undefined;
  return { ...(typeof cp.cursor === 'string' ? { cursor: cp.cursor } : {}), ...(typeof cp.checkpointVersion === 'string' ? { version: cp.checkpointVersion } : {}) };
}

export const checkpointName = (e: ClientExchange): string | undefined => /^\/api\/v1\/event\/checkpoint\/([^/]+)$/.exec(e.path)?.[1];

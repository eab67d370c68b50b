/**
 * Turns a failed property into a replayable text: the violation, the seed and path (fast-check replays a
 * counterexample from them), the shrunk case, and the HTTP requests of that run as method + URL relative to
 * base_url, each with a one-line summary of the answer. Built from recorded (already redacted) exchanges;
 * token requests are left out: the Authorization header is never shown.
 */
import type { Exchange } from '../http/types.js';
import { labelRun } from './oracle.js';

export interface Bases {
  baseUrl: string;
  authUrl?: string | undefined;
  controlUrl?: string | undefined;
}

export interface FailureReport {
  title: string;
  /** The violation (or error) message of the counterexample run. */
  failure: string;
  seed: number;
  path: string | null;
  numRuns: number;
  numShrinks: number;
  interrupted: boolean;
  /** The shrunk case in words (start, fence, limit, appends). */
  counterexample: string;
  exchanges: readonly Exchange[];
  bases: Bases;
  /** Names events in summaries (`#12`); default: the first 8 characters of the uid. */
  label?: (uid: string) => string;
  /** Shell command that replays (the seed and path are prepended as env vars). */
  command: string;
  /** Further `NAME=value` replay variables (e.g. FTF_FC_REPLAY_PATH of a commands counterexample). */
  env?: readonly string[];
}

/** `{control_url}/events`, `/event?limit=2` (api base), `{auth_url}/oauth/token`. */
export function relativeUrl(url: string, bases: Bases): string {
  const strip = (b: string | undefined) => b?.replace(/\/+$/, '');
  const api = strip(bases.baseUrl);
  const control = strip(bases.controlUrl);
  const auth = strip(bases.authUrl);
  // Most specific first: base_url and control_url usually live under auth_url.
  if (api && url.startsWith(api)) return url.slice(api.length) || '/';
  if (control && url.startsWith(control)) return `{control_url}${url.slice(control.length)}`;
  if (auth && url.startsWith(auth)) return `{auth_url}${url.slice(auth.length)}`;
  return url;
}

const isTokenRequest = (x: Exchange) => /\/oauth\/token(\?|$)/.test(x.request.url);

/** One line per request: `GET /event?…&limit=3 → 200: 3 events #3..#5, hasNextPage=true, totalCount=7`. */
export function formatRequestLines(exchanges: readonly Exchange[], bases: Bases, label: (uid: string) => string = (u) => u.slice(0, 8)): string[] {
  const shown = exchanges.filter((x) => !isTokenRequest(x));
  return shown.map((x, i) => {
    const body = x.request.body !== undefined ? ` ${x.request.body}` : '';
    // The one header a replay needs besides the bearer: POST /subscribe's Idempotency-Key (not a secret).
    const key = Object.entries(x.request.headers).find(([k]) => k.toLowerCase() === 'idempotency-key')?.[1];
    const keyText = key !== undefined ? ` Idempotency-Key: ${key}` : '';
    const outcome = x.response ? `${x.response.status}${summarize(x.response.json, label)}` : `no response (${x.error?.code ?? 'error'}: ${x.error?.message ?? ''})`;
    return `${String(i + 1).padStart(3)}. ${x.request.method} ${relativeUrl(x.request.url, bases)}${keyText}${body} → ${outcome}   [${x.label}]`;
  });
}

function summarize(json: unknown, label: (uid: string) => string): string {
  if (typeof json !== 'object' || json === null) return '';
  const b = json as { events?: unknown; pageInfo?: Record<string, unknown> };
  if (!Array.isArray(b.events) || typeof b.pageInfo !== 'object' || b.pageInfo === null) return '';
  const uids = b.events.map((e) => String((e as { uid?: unknown }).uid));
  const p = b.pageInfo;
  const bits = [`${uids.length} event${uids.length === 1 ? '' : 's'} ${labelRun(uids, label)}`, `hasNextPage=${String(p.hasNextPage)}`, `limit=${String(p.limit)}`];
  if (p.totalCount !== undefined) bits.push(`totalCount=${String(p.totalCount)}`);
  if (p.pageEndCursor !== undefined) bits.push(`pageEndCursor=${String(p.pageEndCursor)}`);
  if (p.endCursor !== undefined) bits.push(`endCursor=${String(p.endCursor)}`);
  return `: ${bits.join(', ')}`;
}

export function formatFailure(r: FailureReport): string {
  const env = [`FTF_FC_SEED=${r.seed}`, ...(r.path ? [`FTF_FC_PATH=${r.path}`] : []), ...(r.env ?? [])].join(' ');
  const lines = formatRequestLines(r.exchanges, r.bases, r.label);
  return [
    `property "${r.title}" failed: ${r.failure}`,
    `  seed ${r.seed}, path ${r.path ?? '(none)'}; failed after ${r.numRuns} run(s), shrunk ${r.numShrinks} time(s)${r.interrupted ? ' (shrinking cut short by the time limit)' : ''}`,
    `  counterexample (shrunk): ${r.counterexample}`,
    `  replay: ${env} ${r.command}`,
    `  requests of the counterexample run (URLs relative to base_url; every request carries the primary credential's bearer, not shown):`,
    ...(lines.length ? lines.map((l) => `  ${l}`) : ['     (none)']),
  ].join('\n');
}

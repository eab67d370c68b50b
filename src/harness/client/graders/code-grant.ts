/**
 * Graders of Code Authorisation (CL-CODE-EXCHANGE, CL-REFRESH-ROTATED). Codes, verifiers and refresh tokens
 * are secrets: the graders see their labels (CODE_1, REFRESH_TOKEN_2), which keep their identity.
 */
import type { ClientExchange, Grader } from '../types.js';
import { at, Findings, isTokenRequest, issuedTokens, record } from './util.js';

const LABEL = /^\[REDACTED:([A-Za-z0-9_().@-]+)\]$/;
const labelOf = (v: unknown): string | undefined => (typeof v === 'string' ? LABEL.exec(v)?.[1] : undefined);
/** The token requests of one grant type, in order. */
const grants = (exchanges: readonly ClientExchange[], grant: string): ClientExchange[] => exchanges.filter((e) => isTokenRequest(e) && record(e.body)?.grant_type === grant);

/** The authorize request that delivered each code (by label): its redirect_uri. */
function codeOrigins(exchanges: readonly ClientExchange[]): Map<string, { redirectUri: string | undefined; exchange: ClientExchange }> {
  const out = new Map<string, { redirectUri: string | undefined; exchange: ClientExchange }>();
  for (const e of exchanges) {
    if (!e.path.endsWith('/oauth/authorize')) continue;
    const location = e.responseHeaders.location;
    const q = location?.indexOf('?') ?? -1;
    if (!location || q < 0) continue;
    const code = labelOf(new URLSearchParams(location.slice(q + 1)).get('code') ?? undefined);
    const sent = e.method === 'GET' ? e.query : (record(e.body) as Record<string, string> | undefined) ?? {};
    if (code) out.set(code, { redirectUri: sent.redirect_uri, exchange: e });
  }
  return out;
}

export const codeExchange: Grader = {
  clause: 'CL-CODE-EXCHANGE',
  judges: 'the code exchange sends the redirect_uri used to obtain the code and a code_verifier the server accepts; a code is exchanged once',
  grade({ exchanges }) {
    const origins = codeOrigins(exchanges);
    const used = new Map<string, ClientExchange>();
    const f = new Findings();
    for (const e of grants(exchanges, 'authorization_code')) {
      const form = record(e.body) ?? {};
      const code = labelOf(form.code);
      const origin = code ? origins.get(code) : undefined;
      const problems: string[] = [];
      const before = code ? used.get(code) : undefined;
      if (before) problems.push(`${code} was exchanged before ${at(before)}`);
      if (code) used.set(code, e);
      if (origin && form.redirect_uri !== origin.redirectUri) problems.push(`redirect_uri ${String(form.redirect_uri ?? '(none)')} is not ${origin.redirectUri ?? '(none)'} used at ${at(origin.exchange)}`);
      if (form.code_verifier === undefined) problems.push('no code_verifier (PKCE)');
      else if (e.status === 400 && /code_verifier/.test(String(record(e.responseBody)?.error_description ?? ''))) problems.push(`the server refused the code_verifier: ${String(record(e.responseBody)?.error_description)}`);
      f.judge(problems.length > 0, () => `code exchange ${at(e)}: ${problems.join('; ')}`, ...(origin ? [origin.exchange] : []), e);
    }
    return f.result('the client exchanged no authorization code');
  },
};

export const refreshRotated: Grader = {
  clause: 'CL-REFRESH-ROTATED',
  judges: 'each refresh_token grant sends the newest refresh token issued to the client, and no refresh token twice',
  grade({ exchanges }) {
    const issued = issuedTokens(exchanges);
    const sentAt = new Map<string, ClientExchange>();
    const f = new Findings();
    for (const e of grants(exchanges, 'refresh_token')) {
      f.occasion();
      const sent = labelOf(record(e.body)?.refresh_token);
      const first = sent ? sentAt.get(sent) : undefined;
      const newest = issued.filter((t) => t.exchange < e.seq && t.refreshLabel !== undefined && t.credential === e.credential).at(-1);
      if (first) f.breach(`${sent} sent again ${at(e)} (first sent ${at(first)}): a refresh token is single-use`, first, e);
      else if (newest && sent !== newest.refreshLabel) f.breach(`refresh ${at(e)} sent ${sent ?? '(none)'}, not the rotated ${newest.refreshLabel} issued at t+${(newest.issuedAtMs / 1000).toFixed(3)}s`, newest.exchange, e);
      if (sent) sentAt.set(sent, e);
    }
    return f.result('the client made no refresh_token grant');
  },
};

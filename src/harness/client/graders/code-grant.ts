/**
 * Graders of Code Authorisation (CL-CODE-EXCHANGE, CL-REFRESH-ROTATED). Codes, verifiers and refresh tokens
 * are secrets: the graders see their labels (CODE_1, REFRESH_TOKEN_2), which keep their identity.
 */
import type { Breach, ClientExchange, Grader } from '../types.js';
import { at, isTokenRequest, issuedTokens, judged, record } from './util.js';

const LABEL = /^\[REDACTED:([A-Za-z0-9_().@-]+)\]$/;
const labelOf = (v: unknown): string | undefined => (typeof v === 'string' ? LABEL.exec(v)?.[1] : undefined);
const grantOf = (e: ClientExchange): string | undefined => {
  const g = record(e.body)?.grant_type;
  return typeof g === 'string' ? g : undefined;
};

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
    const breaches: Breach[] = [];
    let occasions = 0;
    for (const e of exchanges) {
      if (!isTokenRequest(e) || grantOf(e) !== 'authorization_code') continue;
      occasions++;
      const form = record(e.body) ?? {};
      const code = labelOf(form.code);
      const origin = code ? origins.get(code) : undefined;
      const problems: string[] = [];
      if (code && used.has(code)) problems.push(`${code} was exchanged before ${at(used.get(code) as ClientExchange)}`);
      if (code) used.set(code, e);
      if (origin && form.redirect_uri !== origin.redirectUri) problems.push(`redirect_uri ${String(form.redirect_uri ?? '(none)')} is not ${origin.redirectUri ?? '(none)'} used at ${at(origin.exchange)}`);
      if (form.code_verifier === undefined) problems.push('no code_verifier (PKCE)');
      else if (e.status === 400 && /code_verifier/.test(String(record(e.responseBody)?.error_description ?? ''))) problems.push(`the server refused the code_verifier: ${String(record(e.responseBody)?.error_description)}`);
      if (problems.length) breaches.push({ message: `code exchange ${at(e)}: ${problems.join('; ')}`, exchanges: [...(origin ? [origin.exchange.seq] : []), e.seq] });
    }
    return judged(occasions, breaches, 'the client exchanged no authorization code');
  },
};

export const refreshRotated: Grader = {
  clause: 'CL-REFRESH-ROTATED',
  judges: 'each refresh_token grant sends the newest refresh token issued to the client, and no refresh token twice',
  grade({ exchanges }) {
    const issued = issuedTokens(exchanges);
    const sentAt = new Map<string, ClientExchange>();
    const breaches: Breach[] = [];
    let occasions = 0;
    for (const e of exchanges) {
      if (!isTokenRequest(e) || grantOf(e) !== 'refresh_token') continue;
      occasions++;
      const sent = labelOf(record(e.body)?.refresh_token);
      const newest = issued.filter((t) => t.exchange < e.seq && t.refreshLabel !== undefined && t.credential === e.credential).at(-1);
      if (sent && sentAt.has(sent)) breaches.push({ message: `${sent} sent again ${at(e)} (first sent ${at(sentAt.get(sent) as ClientExchange)}): a refresh token is single-use`, exchanges: [(sentAt.get(sent) as ClientExchange).seq, e.seq] });
      else if (newest && sent !== newest.refreshLabel) breaches.push({ message: `refresh ${at(e)} sent ${sent ?? '(none)'}, not the rotated ${newest.refreshLabel} issued at t+${(newest.issuedAtMs / 1000).toFixed(3)}s`, exchanges: [newest.exchange, e.seq] });
      if (sent) sentAt.set(sent, e);
    }
    return judged(occasions, breaches, 'the client made no refresh_token grant');
  },
};

/** Graders of the token duties (CL-TOKEN-*, CL-BEARER, CL-401-RENEW). */
import type { Breach, Grader } from '../types.js';
import { accessTokenOf, at, authOf, isApi, issuedTokens, isTokenRequest, judged, record } from './util.js';

export const tokenRoot: Grader = {
  clause: 'CL-TOKEN-ROOT',
  judges: 'every POST to a token endpoint goes to /oauth/token at the server root, never under /api/v1',
  grade({ exchanges }) {
    const requests = exchanges.filter(isTokenRequest);
    const breaches: Breach[] = requests.filter((e) => e.path !== '/oauth/token')
      .map((e) => ({ message: `token requested at ${e.path} (${at(e)}), not at {auth_url}/oauth/token`, exchanges: [e.seq] }));
    return judged(requests.length, breaches, 'the client requested no token');
  },
};

const GRANT_FIELDS: Record<string, string[]> = {
  client_credentials: [],
  authorization_code: ['code', 'redirect_uri'],
  refresh_token: ['refresh_token'],
};

export const tokenRequest: Grader = {
  clause: 'CL-TOKEN-REQUEST',
  judges: 'token requests: POST, form-urlencoded, HTTP Basic client authentication, the form fields of the grant',
  grade({ exchanges }) {
    const requests = exchanges.filter(isTokenRequest);
    const breaches: Breach[] = [];
    for (const e of requests) {
      const problems: string[] = [];
      if (!/^application\/x-www-form-urlencoded\b/i.test(e.headers['content-type'] ?? '')) problems.push(`Content-Type is ${e.headers['content-type'] ?? 'missing'}`);
      const auth = authOf(e);
      if (!auth || !/^basic$/i.test(auth.scheme)) problems.push('no HTTP Basic client authentication');
      // A request the server answered without reading its body (a 404 off the token endpoint) shows its headers only.
      const form = record(e.body);
      const grant = typeof form?.grant_type === 'string' ? form.grant_type : undefined;
      if (!form) {
        // nothing more to judge
      } else if (grant === undefined) problems.push('no grant_type');
      else for (const f of GRANT_FIELDS[grant] ?? []) if (typeof form[f] !== 'string' || form[f] === '') problems.push(`grant ${grant} without ${f}`);
      if (problems.length) breaches.push({ message: `token request ${at(e)}: ${problems.join('; ')}`, exchanges: [e.seq] });
    }
    return judged(requests.length, breaches, 'the client requested no token');
  },
};

export const bearer: Grader = {
  clause: 'CL-BEARER',
  judges: 'every API request carries a Bearer access token in its Authorization header, or (sandbox only) an API key',
  grade({ exchanges }) {
    const calls = exchanges.filter(isApi);
    const breaches: Breach[] = [];
    for (const e of calls) {
      const a = authOf(e);
      if (!a || !/^bearer$/i.test(a.scheme)) breaches.push({ message: `${e.method} ${e.path} ${at(e)} without a Bearer token in its Authorization header`, exchanges: [e.seq] });
      else if (a.label?.startsWith('API_KEY') && e.environment === 'production') breaches.push({ message: `${e.method} ${e.path} ${at(e)} sent an API key to production`, exchanges: [e.seq] });
    }
    return judged(calls.length, breaches, 'the client made no API request');
  },
};

export const tokenReuse: Grader = {
  clause: 'CL-TOKEN-REUSE',
  judges: 'a new client-credentials token is requested only when the last one is refused or has used most of its lifetime',
  grade({ exchanges, plan }) {
    const tokens = issuedTokens(exchanges).filter((t) => t.grantType === 'client_credentials');
    const refused = new Set(exchanges.filter((e) => isApi(e) && e.status === 401).map(accessTokenOf).filter((x) => x !== undefined));
    const breaches: Breach[] = [];
    let occasions = 0;
    const lastOf = new Map<string, (typeof tokens)[number]>();
    for (const t of tokens) {
      const key = `${t.credential}|${exchanges[t.exchange - 1]?.environment}`;
      const prev = lastOf.get(key);
      lastOf.set(key, t);
      if (!prev || prev.expiresInS === undefined) continue;
      occasions++;
      if (refused.has(prev.label)) continue;
      const leftMs = prev.issuedAtMs + prev.expiresInS * 1000 - t.issuedAtMs;
      if (leftMs > prev.expiresInS * 1000 * plan.grading.reuseShare) {
        breaches.push({ message: `new token ${t.label} requested at t+${(t.issuedAtMs / 1000).toFixed(3)}s while ${prev.label} had ${(leftMs / 1000).toFixed(1)} s of its ${prev.expiresInS} s left and was never refused`, exchanges: [prev.exchange, t.exchange] });
      }
    }
    const used = exchanges.some((e) => accessTokenOf(e) !== undefined);
    return judged(used ? Math.max(occasions, 1) : 0, breaches, 'the client used no access token');
  },
};

export const refreshBeforeExpiry: Grader = {
  clause: 'CL-TOKEN-REFRESH-BEFORE-EXPIRY',
  judges: 'no API request carries a token past its expires_in (server arrival time, with the plan\'s slack)',
  grade({ exchanges, plan }) {
    const tokens = new Map(issuedTokens(exchanges).map((t) => [t.label, t]));
    const breaches: Breach[] = [];
    let occasions = 0;
    const lastAt = exchanges.at(-1)?.atMs ?? 0;
    for (const t of tokens.values()) if (t.expiresInS !== undefined && t.issuedAtMs + t.expiresInS * 1000 < lastAt) occasions++;
    for (const e of exchanges) {
      const label = accessTokenOf(e);
      const t = label === undefined ? undefined : tokens.get(label);
      if (!t || t.expiresInS === undefined) continue;
      const late = e.atMs - (t.issuedAtMs + t.expiresInS * 1000);
      if (late > plan.grading.slackMs) breaches.push({ message: `${e.method} ${e.path} ${at(e)} carried ${label}, expired ${(late / 1000).toFixed(2)} s earlier (expires_in ${t.expiresInS})`, exchanges: [t.exchange, e.seq] });
    }
    return judged(occasions, breaches, 'no token reached its expiry while the client was active');
  },
};

export const renewAfter401: Grader = {
  clause: 'CL-401-RENEW',
  judges: 'after a 401 the refused token is never sent again; the retry carries a new token',
  grade({ exchanges }) {
    const breaches: Breach[] = [];
    let occasions = 0;
    exchanges.forEach((e, i) => {
      if (!isApi(e) || e.status !== 401) return;
      const label = accessTokenOf(e);
      if (label === undefined) return;
      occasions++;
      const again = exchanges.slice(i + 1).filter((x) => accessTokenOf(x) === label);
      if (again.length) breaches.push({ message: `${label} was refused with 401 at ${at(e)} and sent again ${again.length} time(s), first ${again[0]?.method} ${again[0]?.path} ${again[0] ? at(again[0]) : ''}`, exchanges: [e.seq, ...again.slice(0, 3).map((x) => x.seq)] });
    });
    return judged(occasions, breaches, 'no access token was refused with 401');
  },
};

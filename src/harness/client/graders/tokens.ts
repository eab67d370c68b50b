/** Graders of the token duties (CL-TOKEN-*, CL-BEARER, CL-401-RENEW). */
import type { Grader } from '../types.js';
import { stalledWithin } from '../stalls.js';
import { accessTokenOf, at, authOf, Findings, isApi, issuedTokens, isTokenRequest, record } from './util.js';

export const tokenRoot: Grader = {
  clause: 'CL-TOKEN-ROOT',
  judges: 'every POST to a token endpoint goes to /oauth/token at the server root, never under /api/v1',
  grade({ exchanges }) {
    const f = new Findings();
    for (const e of exchanges.filter(isTokenRequest)) f.judge(e.path !== '/oauth/token', () => `token requested at ${e.path} (${at(e)}), not at {auth_url}/oauth/token`, e);
    return f.result('the client requested no token');
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
    const f = new Findings();
    for (const e of exchanges.filter(isTokenRequest)) {
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
      else for (const field of GRANT_FIELDS[grant] ?? []) if (typeof form[field] !== 'string' || form[field] === '') problems.push(`grant ${grant} without ${field}`);
      f.judge(problems.length > 0, () => `token request ${at(e)}: ${problems.join('; ')}`, e);
    }
    return f.result('the client requested no token');
  },
};

export const bearer: Grader = {
  clause: 'CL-BEARER',
  judges: 'every API request carries a Bearer access token in its Authorization header, or (sandbox only) an API key',
  grade({ exchanges }) {
    const f = new Findings();
    for (const e of exchanges.filter(isApi)) {
      f.occasion();
      const a = authOf(e);
      if (!a || !/^bearer$/i.test(a.scheme)) f.breach(`${e.method} ${e.path} ${at(e)} without a Bearer token in its Authorization header`, e);
      else if (a.label?.startsWith('API_KEY') && e.environment === 'production') f.breach(`${e.method} ${e.path} ${at(e)} sent an API key to production`, e);
    }
    return f.result('the client made no API request');
  },
};

export const tokenReuse: Grader = {
  clause: 'CL-TOKEN-REUSE',
  judges: 'a new client-credentials token is requested only when the last one is refused or has used most of its lifetime',
  grade({ exchanges, plan }) {
    const tokens = issuedTokens(exchanges).filter((t) => t.grantType === 'client_credentials');
    const refused = new Set(exchanges.filter((e) => isApi(e) && e.status === 401).map(accessTokenOf).filter((x) => x !== undefined));
    const f = new Findings();
    let renewals = 0;
    const lastOf = new Map<string, (typeof tokens)[number]>();
    for (const t of tokens) {
      const key = `${t.credential}|${exchanges[t.exchange - 1]?.environment}`;
      const prev = lastOf.get(key);
      lastOf.set(key, t);
      if (!prev || prev.expiresInS === undefined) continue;
      renewals++;
      if (refused.has(prev.label)) continue;
      const leftMs = prev.issuedAtMs + prev.expiresInS * 1000 - t.issuedAtMs;
      if (leftMs > prev.expiresInS * 1000 * plan.grading.reuseShare) {
        f.breach(`new token ${t.label} requested at t+${(t.issuedAtMs / 1000).toFixed(3)}s while ${prev.label} had ${(leftMs / 1000).toFixed(1)} s of its ${prev.expiresInS} s left and was never refused`, prev.exchange, t.exchange);
      }
    }
    // Using a token at all is an occasion to show reuse; each renewal is one more.
    if (exchanges.some((e) => accessTokenOf(e) !== undefined)) f.occasion(Math.max(renewals, 1));
    return f.result('the client used no access token');
  },
};

export const refreshBeforeExpiry: Grader = {
  clause: 'CL-TOKEN-REFRESH-BEFORE-EXPIRY',
  judges: 'no API request carries a token past its expires_in (server arrival time, with the plan\'s slack)',
  grade({ exchanges, plan, stalls = [] }) {
    const tokens = new Map(issuedTokens(exchanges).map((t) => [t.label, t]));
    const f = new Findings();
    const lastAt = exchanges.at(-1)?.atMs ?? 0;
    for (const t of tokens.values()) if (t.expiresInS !== undefined && t.issuedAtMs + t.expiresInS * 1000 < lastAt) f.occasion();
    for (const e of exchanges) {
      const label = accessTokenOf(e);
      const t = label === undefined ? undefined : tokens.get(label);
      if (!t || t.expiresInS === undefined) continue;
      const expiresAt = t.issuedAtMs + t.expiresInS * 1000;
      // Lateness the grading process's own stalls explain is not the client's (stalls.ts).
      const stalled = stalledWithin(stalls, expiresAt, e.atMs);
      const late = e.atMs - expiresAt;
      if (late - stalled > plan.grading.slackMs) f.breach(`${e.method} ${e.path} ${at(e)} carried ${label}, expired ${(late / 1000).toFixed(2)} s earlier (expires_in ${t.expiresInS}${stalled > 0 ? `; ${(stalled / 1000).toFixed(2)} s of it the grading server was stalled` : ''})`, t.exchange, e);
    }
    return f.result('no token reached its expiry while the client was active');
  },
};

export const renewAfter401: Grader = {
  clause: 'CL-401-RENEW',
  judges: 'after a 401 the refused token is never sent again; the retry carries a new token',
  grade({ exchanges }) {
    const f = new Findings();
    exchanges.forEach((e, i) => {
      const label = isApi(e) && e.status === 401 ? accessTokenOf(e) : undefined;
      if (label === undefined) return;
      const again = exchanges.slice(i + 1).filter((x) => accessTokenOf(x) === label);
      f.judge(again.length > 0, () => `${label} was refused with 401 at ${at(e)} and sent again ${again.length} time(s), first ${again[0]?.method} ${again[0]?.path} ${again[0] ? at(again[0]) : ''}`, e, ...again.slice(0, 3));
    });
    return f.result('no access token was refused with 401');
  },
};

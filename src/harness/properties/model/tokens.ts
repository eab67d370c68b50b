/**
 * The executable model of the token endpoint (pure: no I/O), Authentication section: each grant's answer judged by
 * its clause, tokens the run was issued and how long each stays usable on the simulated clock, and the code
 * credential's current refresh token (rotated by every refresh, rule 6). Token values never appear in a message:
 * an answer is shown by its status and the names of its fields.
 */
import type { ModelClause, Violation } from '../types.js';
import type { Answer } from './state.js';
import { v } from './state.js';

export type Grant = 'client_credentials' | 'authorization_code' | 'refresh_token';

/** An answer without its values: the status and the field names of the body (token values stay out of every message). */
export function showToken(a: Answer): string {
  const o = a.json;
  const fields = typeof o === 'object' && o !== null && !Array.isArray(o) ? `{${Object.keys(o).join(', ')}}` : a.text === '' ? 'no body' : 'a body that is not a JSON object';
  return `${a.status} ${fields}`;
}

const field = (a: Answer, name: string): unknown => (typeof a.json === 'object' && a.json !== null ? (a.json as Record<string, unknown>)[name] : undefined);

/** A token the run was issued: by which credential and grant, its lifetime, the simulated hours when it was issued. */
export interface IssuedToken {
  credential: string;
  grant: Grant;
  token: string;
  expiresIn: number;
  atHours: number;
  /** Real time of issue (ms since epoch): a run's own seconds count too. */
  atMs: number;
}

/** Slack around expires_in on the simulated clock: the real seconds a run takes, and the server's own margin. */
export const EXPIRY_SLACK_S = 300;

/**
 * A grant that must be served: 200 with access_token and a positive expires_in (AUTH-TOKEN-RESPONSE); no refresh token
 * for client_credentials (AUTH-CLIENT-CREDENTIALS, null allowed); a refresh token for Code Authorisation and a new one
 * (not the presented one) for every refresh (AUTH-REFRESH-ROTATION). A refusal breaks the grant's own clause.
 */
export function judgeIssued(what: string, grant: Grant, a: Answer, presented?: string): Violation | undefined {
  if (a.status !== 200) {
    const clause = grant === 'client_credentials' ? 'AUTH-CLIENT-CREDENTIALS' : grant === 'refresh_token' ? 'AUTH-REFRESH-ROTATION' : 'AUTH-TOKEN-REQUEST';
    return v(clause, `${what} answered ${showToken(a)}, expected 200 with a token: the request is a well-formed ${grant} grant with the client's own credentials`);
  }
  const access = field(a, 'access_token');
  const expiresIn = field(a, 'expires_in');
  if (typeof access !== 'string' || access === '' || typeof expiresIn !== 'number' || !(expiresIn > 0)) {
    return v('AUTH-TOKEN-RESPONSE', `${what} answered ${showToken(a)}: the response carries access_token (a string) and expires_in (a positive number of seconds)`);
  }
  const refresh = field(a, 'refresh_token');
  if (grant === 'client_credentials') {
    return refresh === undefined || refresh === null ? undefined : v('AUTH-CLIENT-CREDENTIALS', `${what} answered a refresh_token: client_credentials issues none`);
  }
  if (typeof refresh !== 'string' || refresh === '') return v('AUTH-REFRESH-ROTATION', `${what} answered ${showToken(a)} without a refresh_token: Code Authorisation issues one with the access token`);
  if (presented !== undefined && refresh === presented) return v('AUTH-REFRESH-ROTATION', `${what} answered the presented refresh token again: the refresh_token grant returns a new refresh token`);
  return undefined;
}

/** A request that must be refused: a 4xx without an access_token, else the clause that says so. */
export function judgeRefused(what: string, clause: ModelClause, a: Answer, why: string): Violation | undefined {
  if (a.status >= 400 && a.status < 500 && field(a, 'access_token') === undefined) return undefined;
  return v(clause, `${what} answered ${showToken(a)}, expected a refusal (4xx, no token): ${why}`);
}

/** A grant whose form leaves out a field the grant table lists (the client is still authenticated by HTTP Basic): refused, or served like the full form. */
export function judgeServedOrRefused(what: string, grant: Grant, a: Answer, presented?: string): { violation?: Violation; served: boolean } {
  if (a.status >= 400 && a.status < 500) return field(a, 'access_token') === undefined ? { served: false } : { served: false, violation: v('AUTH-TOKEN-RESPONSE', `${what} answered ${showToken(a)}: a refusal carries no token`) };
  const violation = judgeIssued(what, grant, a, presented);
  return violation ? { violation, served: false } : { served: true };
}

/** Whether a token must still work (true), must be refused (false), or is too close to call: the simulated hours the clock moved since it was issued plus the real seconds. */
export function stillValid(t: IssuedToken, nowHours: number, nowMs: number = Date.now()): boolean | undefined {
  const elapsed = (nowHours - t.atHours) * 3600 + Math.max(0, nowMs - t.atMs) / 1000;
  if (elapsed + EXPIRY_SLACK_S < t.expiresIn) return true;
  if (elapsed > t.expiresIn + EXPIRY_SLACK_S) return false;
  return undefined;
}

/** A reuse of an issued token: 200 while valid (AUTH-TOKEN-RESPONSE: reusable until it expires), 401 once expired (AUTH-BEARER). */
export function judgeReuse(what: string, valid: boolean, a: Answer): Violation | undefined {
  if (valid) return a.status === 200 ? undefined : v('AUTH-TOKEN-RESPONSE', `${what} answered ${showToken(a)}, expected 200: a token is reusable until it expires`);
  return a.status === 401 ? undefined : v('AUTH-BEARER', `${what} answered ${showToken(a)}, expected 401: the token is past its expires_in on the target's clock`);
}

/** The tokens of a run (the last few) and each code credential's current refresh token. */
export class TokenModel {
  readonly issued: IssuedToken[] = [];
  readonly refresh = new Map<string, string>();

  remember(credential: string, grant: Grant, a: Answer, atHours: number, atMs: number = Date.now()): IssuedToken {
    const t: IssuedToken = { credential, grant, token: field(a, 'access_token') as string, expiresIn: field(a, 'expires_in') as number, atHours, atMs };
    this.issued.push(t);
    if (this.issued.length > 6) this.issued.shift();
    const refresh = field(a, 'refresh_token');
    if (grant !== 'client_credentials' && typeof refresh === 'string') this.refresh.set(credential, refresh);
    return t;
  }
}

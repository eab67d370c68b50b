/**
 * The model's commands for the token endpoint (Authentication: the grant table and rules 1-6, 8), with every
 * credential kind of the profile: client_credentials for each such credential (the full form, the form without the
 * fields HTTP Basic already carries, the secret left out, a wrong secret), Code Authorisation with PKCE where the
 * profile can consent (the full exchange, without code_verifier, with another redirect_uri, without redirect_uri),
 * refresh_token (without redirect_uri, without client_id), a token issued earlier used again (still valid, or past
 * its expires_in after the clock moved), and the sandbox API key. Judgements: tokens.ts.
 */
import { randomBytes } from 'node:crypto';
import { fail, pick, type Cmd, type Model, type Real } from './command-kit.js';
import { EXPIRY_SLACK_S, judgeIssued, judgeRefused, judgeReuse, judgeServedOrRefused, stillValid, type Grant } from './tokens.js';
import { show, v, type Answer } from './state.js';
import { CLOCK_BUDGET_S } from './commands-access.js';

/** The simulated hours the clock moved in this run (control API: ClockMovesThenRetry, TokenExpires). */
const nowHours = (m: Model): number => m.clockSeconds / 3600;

/** A new token used right away: it works (AUTH-TOKEN-RESPONSE: the response's token is usable). */
async function works(r: Real, token: string, role: string): Promise<void> {
  const a = await r.api.withBearer('/event?limit=1', token, `${role}: GET /event with the new token`);
  if (a.status !== 200) fail(v('AUTH-TOKEN-RESPONSE', `GET /event with the access_token just issued answered ${a.status}, expected 200`), role);
}

async function served(m: Model, r: Real, credential: string, grant: Grant, a: Answer, role: string): Promise<void> {
  const t = m.tokens.remember(credential, grant, a, nowHours(m));
  // A token that lives seconds (a test client's, e.g. no-control profiles) may be gone before a loaded machine uses it.
  if (stillValid(t, nowHours(m)) === true) await works(r, t.token, role);
}

export type ClientForm = 'full' | 'basic-only' | 'secret-left-out' | 'wrong-secret';

/** client_credentials (grant table: grant_type, client_id, client_secret; rule 1: HTTP Basic) by a client_credentials credential. */
export class ClientCredentialsGrant implements Cmd {
  private shown = '';
  constructor(readonly credSel: number, readonly form: ClientForm) {}
  check = (m: Readonly<Model>): boolean => m.can.clients.length > 0;
  async run(m: Model, r: Real): Promise<void> {
    const credential = pick(m.can.clients, this.credSel);
    this.shown = credential;
    const role = this.toString();
    const cred = r.target.credentials[credential];
    const clientId = cred?.clientId ?? '';
    let a: Answer;
    switch (this.form) {
      case 'full':
        a = await r.api.token({ grant_type: 'client_credentials', client_id: clientId, client_secret: cred?.secret ?? '' }, r.api.basic(credential), role);
        fail(judgeIssued(`client_credentials for ${credential}`, 'client_credentials', a), role);
        return served(m, r, credential, 'client_credentials', a, role);
      case 'basic-only': {
        // The grant table lists client_id and client_secret; HTTP Basic carries both: served as the full form, or refused.
        a = await r.api.token({ grant_type: 'client_credentials' }, r.api.basic(credential), role);
        const j = judgeServedOrRefused(`client_credentials for ${credential} with only grant_type in the form`, 'client_credentials', a);
        fail(j.violation, role);
        if (j.served) await served(m, r, credential, 'client_credentials', a, role);
        return;
      }
      case 'secret-left-out':
        a = await r.api.token({ grant_type: 'client_credentials', client_id: clientId }, r.api.basic(credential, ''), role);
        return fail(judgeRefused(`client_credentials for ${credential} with the secret left out (HTTP Basic "${clientId}:", no client_secret)`, 'AUTH-TOKEN-REQUEST', a, 'a client authenticates with its id AND secret; bad client credentials are refused'), role);
      default:
        a = await r.api.token({ grant_type: 'client_credentials', client_id: clientId }, r.api.basic(credential, `wrong-${randomBytes(12).toString('hex')}`), role);
        return fail(judgeRefused(`client_credentials for ${credential} with a wrong secret`, 'AUTH-TOKEN-REQUEST', a, 'bad client credentials are refused'), role);
    }
  }
  toString = (): string => `token: client_credentials (${this.form}) for ${this.shown || `credential #${this.credSel}`}`;
}

export type CodeForm = 'full' | 'no-verifier' | 'wrong-verifier' | 'other-redirect' | 'no-redirect';

/** Code Authorisation with PKCE (grant table: grant_type, client_id, code, redirect_uri; rule 5), after a fresh consent. */
export class CodeGrant implements Cmd {
  private shown = '';
  constructor(readonly credSel: number, readonly form: CodeForm) {}
  check = (m: Readonly<Model>): boolean => m.can.codes.length > 0;
  async run(m: Model, r: Real): Promise<void> {
    const credential = pick(m.can.codes, this.credSel);
    this.shown = credential;
    const role = this.toString();
    const grant = await r.api.authorizeCode(credential, role);
    const clientId = r.target.credentials[credential]?.clientId ?? '';
    const base = { grant_type: 'authorization_code', client_id: clientId, code: grant.code };
    const basic = r.api.basic(credential);
    const what = `the code exchange for ${credential}`;
    switch (this.form) {
      case 'full': {
        const a = await r.api.token({ ...base, redirect_uri: grant.redirectUri, code_verifier: grant.codeVerifier }, basic, role);
        fail(judgeIssued(what, 'authorization_code', a), role);
        return served(m, r, credential, 'authorization_code', a, role);
      }
      case 'no-verifier': {
        const a = await r.api.token({ ...base, redirect_uri: grant.redirectUri }, basic, role);
        return fail(judgeRefused(`${what} without code_verifier`, 'AUTH-CODE-PKCE', a, 'the authorization_code grant uses PKCE'), role);
      }
      case 'wrong-verifier': {
        // A verifier of the right form (43 unreserved characters) that is not the one the challenge was made from.
        const a = await r.api.token({ ...base, redirect_uri: grant.redirectUri, code_verifier: randomBytes(32).toString('base64url') }, basic, role);
        return fail(judgeRefused(`${what} with a code_verifier other than the one of the challenge`, 'AUTH-CODE-PKCE', a, 'the authorization_code grant uses PKCE: the verifier must match the challenge'), role);
      }
      case 'other-redirect': {
        const other = new URL(grant.redirectUri);
        other.pathname = `${other.pathname.replace(/\/+$/, '')}/other-${r.tag}`;
        const a = await r.api.token({ ...base, redirect_uri: other.toString(), code_verifier: grant.codeVerifier }, basic, role);
        return fail(judgeRefused(`${what} with a redirect_uri other than the one used to obtain the code`, 'AUTH-CODE-REDIRECT', a, 'redirect_uri must match the one used to obtain the code'), role);
      }
      default: {
        // Required only when the client has several registered redirect URIs (rule 5), a number the profile does not give.
        const a = await r.api.token({ ...base, code_verifier: grant.codeVerifier }, basic, role);
        const j = judgeServedOrRefused(`${what} without redirect_uri`, 'authorization_code', a);
        fail(j.violation, role);
        if (j.served) await served(m, r, credential, 'authorization_code', a, role);
      }
    }
  }
  toString = (): string => `token: consent, then authorization_code (${this.form}) for ${this.shown || `credential #${this.credSel}`}`;
}

export type RefreshForm = 'full' | 'client-id-left-out';

/** refresh_token (grant table: grant_type, client_id, refresh_token; rule 6: no redirect_uri) with the credential's current refresh token. */
export class RefreshGrant implements Cmd {
  private shown = '';
  constructor(readonly credSel: number, readonly form: RefreshForm) {}
  check = (m: Readonly<Model>): boolean => m.tokens.refresh.size > 0;
  async run(m: Model, r: Real): Promise<void> {
    const credential = pick([...m.tokens.refresh.keys()], this.credSel);
    this.shown = credential;
    const role = this.toString();
    const presented = m.tokens.refresh.get(credential) as string;
    const clientId = r.target.credentials[credential]?.clientId ?? '';
    const what = `the refresh_token grant for ${credential} (no redirect_uri)`;
    if (this.form === 'full') {
      const a = await r.api.token({ grant_type: 'refresh_token', client_id: clientId, refresh_token: presented }, r.api.basic(credential), role);
      fail(judgeIssued(what, 'refresh_token', a, presented), role);
      return served(m, r, credential, 'refresh_token', a, role);
    }
    const a = await r.api.token({ grant_type: 'refresh_token', refresh_token: presented }, r.api.basic(credential), role);
    const j = judgeServedOrRefused(`${what} without client_id in the form`, 'refresh_token', a, presented);
    fail(j.violation, role);
    if (j.served) return served(m, r, credential, 'refresh_token', a, role);
    // Whether a refused refresh used the token up is not shown: the model forgets it.
    m.tokens.refresh.delete(credential);
  }
  toString = (): string => `token: refresh_token (${this.form}) for ${this.shown || `credential #${this.credSel}`}`;
}

/** A token issued earlier in the run, used again: it works until its expires_in has passed on the target's clock, then 401. */
export class ReuseToken implements Cmd {
  private shown = '';
  constructor(readonly sel: number) {}
  check = (m: Readonly<Model>): boolean => m.tokens.issued.length > 0;
  async run(m: Model, r: Real): Promise<void> {
    const t = pick(m.tokens.issued, this.sel);
    const valid = stillValid(t, nowHours(m));
    const hours = nowHours(m) - t.atHours;
    this.shown = `a ${t.grant} token of ${t.credential}, ${hours} h later (expires_in ${t.expiresIn} s)`;
    if (valid === undefined) return;
    const role = this.toString();
    const a = await r.api.withBearer('/event?limit=1', t.token, role);
    fail(judgeReuse(`GET /event with ${this.shown}`, valid, a), role);
  }
  toString = (): string => `token: used again (${this.shown || `token #${this.sel}`})`;
}

/** Seconds past expires_in at which a token is used again: beyond the model's slack, well within a 10-minute "clock-skew" leeway. */
export const PAST_EXPIRY_S = EXPIRY_SLACK_S + 120;

/**
 * Needs the clock (control API): a fresh client_credentials token, the clock moved to 60 s before its expires_in (it
 * still works: reusable until it expires), then PAST_EXPIRY_S past it (401: Authentication rule 3, Errors 401). Skipped
 * when the token lives longer than what is left of the run's clock budget (CLOCK_BUDGET_S).
 */
export class TokenExpires implements Cmd {
  private shown = '';
  constructor(readonly credSel: number) {}
  check = (m: Readonly<Model>): boolean => m.can.clock && m.can.clients.length > 0;
  async run(m: Model, r: Real): Promise<void> {
    const credential = pick(m.can.clients, this.credSel);
    this.shown = credential;
    const role = this.toString();
    const cred = r.target.credentials[credential];
    const a = await r.api.token({ grant_type: 'client_credentials', client_id: cred?.clientId ?? '', client_secret: cred?.secret ?? '' }, r.api.basic(credential), `${role}: a new token`);
    fail(judgeIssued(`client_credentials for ${credential}`, 'client_credentials', a), role);
    const t = m.tokens.remember(credential, 'client_credentials', a, nowHours(m));
    if (m.clockSeconds + t.expiresIn + PAST_EXPIRY_S > CLOCK_BUDGET_S) {
      this.shown = `${credential}: expires_in ${t.expiresIn} s, more than the run's clock budget left, not moved`;
      return;
    }
    this.shown = `${credential}, expires_in ${t.expiresIn} s`;
    const before = Math.max(t.expiresIn - 60, 0);
    await r.api.advanceClock({ seconds: before }, `${role}: advance the clock to 60 s before expiry`);
    m.clockSeconds += before;
    m.stream.wrote();
    // The real seconds count as well: on a loaded machine the token may already be too close to call.
    const valid = stillValid(t, nowHours(m));
    if (valid === true) {
      const b = await r.api.withBearer('/event?limit=1', t.token, `${role}: used 60 s before expiry`);
      fail(judgeReuse(`GET /event with the token 60 s before its expires_in`, true, b), role);
    }
    const past = 60 + PAST_EXPIRY_S;
    await r.api.advanceClock({ seconds: past }, `${role}: advance the clock ${PAST_EXPIRY_S} s past expiry`);
    m.clockSeconds += past;
    m.stream.wrote();
    // A Fixed indication's uid rotates daily: read it again for the commands that follow.
    await r.refreshProduct();
    const c = await r.api.withBearer('/event?limit=1', t.token, `${role}: used ${PAST_EXPIRY_S} s past expiry`);
    fail(judgeReuse(`GET /event with the token ${PAST_EXPIRY_S} s past its expires_in`, false, c), role);
  }
  toString = (): string => `token: client_credentials, then the clock moves past its expires_in (${this.shown || `credential #${this.credSel}`})`;
}

/** Sandbox only (rule 8): the API key is a bearer without token exchange, also after the clock moved. */
export class ApiKeyRead implements Cmd {
  private shown = '';
  constructor(readonly sel: number) {}
  check = (m: Readonly<Model>): boolean => m.can.apiKeys.length > 0;
  async run(m: Model, r: Real): Promise<void> {
    const credential = pick(m.can.apiKeys, this.sel);
    this.shown = credential;
    const a = await r.events.read({ limit: 1 }, this.toString(), credential);
    if (a.status !== 200) fail(v('AUTH-API-KEY', `GET /event with the API key of ${credential} as the bearer answered ${show({ status: a.status, text: a.text ?? '', json: a.json })}: a sandbox accepts it without token exchange`), this.toString());
  }
  toString = (): string => `GET /event with the sandbox API key ${this.shown}`;
}

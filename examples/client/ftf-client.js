// A small FTF API client that keeps the duties the spec puts on clients (../../../shared/spec/client-clauses.yaml).
// Plain JavaScript (ES modules) on undici: copy it, keep the parts you need. Every duty is marked with its CL-* id.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { URLSearchParams } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';

const agent = new Agent({ headersTimeout: 15_000, bodyTimeout: 15_000 });

/** Retry policies a client may choose (CL-RETRY-BACKOFF: wait before each retry, with growing delays). */
export const BACKOFF = {
  // 200 ms, 400 ms, 800 ms, ...
  doubling: (attempt) => 200 * 2 ** (attempt - 1),
  // "equal jitter": half of 300 ms x 2^(n-1), plus a random share of the other half
  equalJitter: (attempt) => {
    const cap = 300 * 2 ** (attempt - 1);
    return cap / 2 + Math.random() * (cap / 2);
  },
};

export class FtfClient {
  /**
   * @param {object} cfg   baseUrl, authUrl, clientId, clientSecret (FTF_* variables of the plan)
   * @param {object} opts  backoff (a BACKOFF policy), faults (Set of fault switches, faults.js), log
   */
  constructor(cfg, opts) {
    this.cfg = cfg;
    this.backoff = opts.backoff;
    this.faults = opts.faults;
    this.log = opts.log;
    this.token = undefined;
    this.renewAt = 0;
  }

  /** CL-TOKEN-ROOT, CL-TOKEN-REQUEST: POST {auth_url}/oauth/token, form-encoded, HTTP Basic. */
  async tokenRequest(form) {
    const root = this.faults.has('token-under-base-url') ? this.cfg.baseUrl : this.cfg.authUrl;
    const basic = Buffer.from(`${this.cfg.clientId}:${this.cfg.clientSecret}`).toString('base64');
    const res = await request(`${root}/oauth/token`, {
      method: 'POST',
      dispatcher: agent,
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
    const body = await res.body.json().catch(() => ({}));
    if (res.statusCode !== 200) throw new Error(`token request (${form.grant_type}) answered ${res.statusCode}: ${body.error ?? ''}`);
    return body;
  }

  /** Client Credentials: no refresh token, a new exchange with the same credentials. */
  async fetchToken() {
    if (this.refreshToken !== undefined) return this.refresh();
    const body = await this.tokenRequest({ grant_type: 'client_credentials' });
    this.keep(body);
    return this.token;
  }

  keep(body) {
    this.token = body.access_token;
    // CL-TOKEN-REFRESH-BEFORE-EXPIRY: renew once three quarters of expires_in have passed.
    this.renewAt = Date.now() + Number(body.expires_in) * 750;
    // CL-REFRESH-ROTATED: the rotated refresh token replaces the old one.
    if (body.refresh_token && !this.faults.has('reuse-refresh-token')) this.refreshToken = body.refresh_token;
    else if (body.refresh_token && this.refreshToken === undefined) this.refreshToken = body.refresh_token;
  }

  /**
   * Code Authorisation with PKCE (CL-CODE-EXCHANGE): consent (this sandbox consents at once to prompt=none with
   * login_hint), then the exchange with the same redirect_uri and the verifier of the challenge.
   */
  async authorizeWithCode(user, redirectUri) {
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const url = new URL(`${this.cfg.authUrl}/oauth/authorize`);
    const params = { response_type: 'code', client_id: this.cfg.clientId, redirect_uri: redirectUri, state: randomUUID(), code_challenge: challenge, code_challenge_method: 'S256', prompt: 'none', login_hint: user };
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    const res = await request(url, { method: 'GET', dispatcher: agent });
    await res.body.dump();
    const location = new URL(String(res.headers.location ?? ''), redirectUri);
    const code = location.searchParams.get('code');
    if (!code) throw new Error(`authorize answered ${res.statusCode} ${location.searchParams.get('error') ?? ''}`);
    const body = await this.tokenRequest({ grant_type: 'authorization_code', client_id: this.cfg.clientId, code, redirect_uri: redirectUri, code_verifier: verifier });
    this.keep(body);
  }

  /** refresh_token grant: a new access token and a new (rotated) refresh token. */
  async refresh() {
    const body = await this.tokenRequest({ grant_type: 'refresh_token', client_id: this.cfg.clientId, refresh_token: this.refreshToken });
    this.keep(body);
    return this.token;
  }

  /** CL-TOKEN-REUSE: one token until it nears its expiry (or is refused). CL-BEARER: an API key, sandbox only. */
  async accessToken() {
    if (this.cfg.apiKey !== undefined) return this.cfg.apiKey;
    if (this.faults.has('token-per-request') || this.token === undefined || Date.now() >= this.renewAt) return this.fetchToken();
    return this.token;
  }

  /**
   * One API call with the duties of a caller: Bearer token (CL-BEARER), a new token after a 401 (CL-401-RENEW),
   * backoff after a 5xx or a lost answer (CL-RETRY-BACKOFF), no retry of a 403 (CL-NO-RETRY-403).
   * `headers(attempt)` gives the headers of each attempt: a subscription's retry keeps its Idempotency-Key.
   */
  async call(method, path, { query, body, headers = () => ({}) } = {}) {
    const url = new URL(`${this.cfg.baseUrl}${path}`);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
    let renewed = false;
    let refusedRetried = false;
    for (let attempt = 1; ; attempt++) {
      const token = await this.accessToken();
      let res;
      try {
        res = await request(url, {
          method,
          dispatcher: agent,
          headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}), ...headers(attempt) },
          body: body ? JSON.stringify(body) : undefined,
        });
      } catch (err) {
        // The request may have been processed: retry it as it was (same key, same body).
        if (attempt >= 5) throw err;
        this.log(`${method} ${path}: no answer (${err.code ?? err.message}); retrying`);
        await this.wait(attempt);
        continue;
      }
      const text = await res.body.text();
      const json = text ? safeJson(text) : undefined;
      if (res.statusCode === 401 && !renewed) {
        if (this.faults.has('retry-refused-token') && !refusedRetried) {
          refusedRetried = true;
          continue;
        }
        renewed = true;
        this.token = undefined;
        continue;
      }
      if (res.statusCode >= 500 && attempt < 5) {
        await this.wait(attempt);
        continue;
      }
      if (res.statusCode === 403 && this.faults.has('retry-403') && attempt === 1) continue;
      return { status: res.statusCode, body: json };
    }
  }

  async wait(attempt) {
    if (this.faults.has('tight-retry')) return;
    await sleep(this.backoff(attempt));
  }

  /** CL-IDEM-KEY: a UUIDv4 per logical subscription attempt. */
  newKey() {
    return this.faults.has('key-not-uuid') ? `sub-${Date.now()}-${Math.floor(Math.random() * 1e6)}` : randomUUID();
  }
}

function safeJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

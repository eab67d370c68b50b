/**
 * The auth client: Authorization header values for the credentials of a target profile.
 * - client_credentials: token from {auth_url}/oauth/token, cached per credential, refreshed when less than
 *   max(30 s, 10 % of expires_in) is left (spec, Authentication rule 3).
 * - authorization_code: consent (PKCE S256) + code exchange, then the refresh_token grant with the rotated
 *   refresh token (rule 6); a pre-obtained refresh token from the environment also works.
 * - api_key: "Bearer <key>" without exchange, sandbox only (rule 8).
 * Special modes: none, invalid, basic-only, expired (the last needs the clock capability), api-key-probe
 * (a production profile's refusal-probe key, sent only to check that production refuses it).
 */
import { randomBytes } from 'node:crypto';
import type { Redactor } from '../http/redactor.js';
import type { Transport } from '../http/types.js';
import type { CredentialConfig, ResolvedTarget } from '../target/types.js';
import { runConsent } from './consent.js';
import { AUTH_ERROR_CODES, authError, excerpt } from './errors.js';
import { registerTargetSecrets } from './secrets.js';
import { basicAuthorization, requestToken, tokenLabel, type LabelledTransport, type TokenSet } from './token-endpoint.js';
import type { AuthClient, CodeGrant, SpecialAuth, TokenInfo } from './types.js';

const SPECIAL: ReadonlySet<string> = new Set<SpecialAuth>(['none', 'invalid', 'expired', 'basic-only', 'api-key-probe']);
const MIN_MARGIN_MS = 30_000;

interface Cached extends TokenInfo {
  accessToken: string;
}

export interface AuthClientOptions {
  /** Clock for cache expiry (ms since epoch); injectable for tests. */
  now?: () => number;
  /** Credential used by the special modes basic-only and expired. Default "primary". */
  specialCredential?: string;
}

export function createAuthClient(target: ResolvedTarget, transport: Transport, redactor: Redactor, opts: AuthClientOptions = {}): AuthClient {
  const now = opts.now ?? Date.now;
  const specialCredential = opts.specialCredential ?? 'primary';
  const http: LabelledTransport = transport;
  const cache = new Map<string, Cached>();
  const inflight = new Map<string, Promise<Cached>>();
  const refreshTokens = new Map<string, string>();
  registerTargetSecrets(target, redactor);
  for (const cred of Object.values(target.credentials)) if (cred.refreshToken) refreshTokens.set(cred.name, cred.refreshToken);

  const timeoutMs = target.timeouts.requestMs;
  const common = { transport: http, redactor, authUrl: target.authUrl, timeoutMs };

  function credential(name: string): CredentialConfig {
    const cred = target.credentials[name];
    if (!cred) {
      throw authError(AUTH_ERROR_CODES.unknownCredential, `target "${target.name}" has no credential "${name}" (configured: ${Object.keys(target.credentials).join(', ')})`,
        'add it under credentials: in the profile, or skip scenarios that need it');
    }
    return cred;
  }

  function fresh(c: Cached | undefined): c is Cached {
    if (!c) return false;
    const margin = Math.max(MIN_MARGIN_MS, c.expiresIn * 1000 * 0.1);
    return c.expiresAt - now() > margin;
  }

  async function obtain(cred: CredentialConfig): Promise<TokenSet> {
    if (cred.kind === 'client_credentials') {
      return requestToken({ ...common, cred, form: { grant_type: 'client_credentials', client_id: cred.clientId ?? '', client_secret: cred.secret ?? '' } });
    }
    const refresh = refreshTokens.get(cred.name);
    if (refresh) {
      try {
        return await requestToken({ ...common, cred, form: { grant_type: 'refresh_token', client_id: cred.clientId ?? '', refresh_token: refresh } });
      } catch (err) {
        // A used-up or expired refresh token: start over with consent when the profile can.
        if (!cred.consent || (err as { code?: string }).code !== AUTH_ERROR_CODES.token) throw err;
        refreshTokens.delete(cred.name);
      }
    }
    const grant = await runConsent({ ...common, cred });
    return exchangeCode(cred, grant);
  }

  function exchangeCode(cred: CredentialConfig, grant: CodeGrant): Promise<TokenSet> {
    return requestToken({
      ...common,
      cred,
      form: { grant_type: 'authorization_code', client_id: cred.clientId ?? '', code: grant.code, redirect_uri: grant.redirectUri, code_verifier: grant.codeVerifier },
    });
  }

  function remember(cred: CredentialConfig, set: TokenSet): Cached {
    if (set.refreshToken) refreshTokens.set(cred.name, set.refreshToken);
    const obtainedAt = now();
    return { accessToken: set.accessToken, obtainedAt, expiresAt: obtainedAt + set.expiresIn * 1000, expiresIn: set.expiresIn, hasRefreshToken: refreshTokens.has(cred.name) };
  }

  async function token(cred: CredentialConfig): Promise<string> {
    const cached = cache.get(cred.name);
    if (fresh(cached)) return cached.accessToken;
    let pending = inflight.get(cred.name);
    if (!pending) {
      pending = obtain(cred).then((set) => {
        const entry = remember(cred, set);
        cache.set(cred.name, entry);
        return entry;
      });
      inflight.set(cred.name, pending);
      pending.then(() => inflight.delete(cred.name), () => inflight.delete(cred.name));
    }
    return (await pending).accessToken;
  }

  function apiKey(cred: CredentialConfig): string {
    if (target.environment === 'production' || cred.refusalProbe) {
      throw authError(AUTH_ERROR_CODES.apiKeyInProduction, `credential "${cred.name}" is an API key; production requires OAuth (spec, Authentication rule 8)`);
    }
    if (!cred.secret) throw authError(AUTH_ERROR_CODES.unknownCredential, `credential "${cred.name}" has no API key (${cred.secretEnv ?? 'api_key_env'} unset)`);
    return `Bearer ${cred.secret}`;
  }

  /** The production refusal probe: the one request that sends the probe key, expecting a 401. */
  function refusalProbe(): string {
    const probes = Object.values(target.credentials).filter((c) => c.kind === 'api_key' && c.refusalProbe);
    const probe = probes[0];
    if (target.environment !== 'production' || !probe) {
      throw authError(AUTH_ERROR_CODES.capabilityMissing, `auth api-key-probe needs a production profile with an api_key credential marked refusal_probe: true (target "${target.name}" has ${target.environment === 'production' ? 'none' : 'environment sandbox'})`,
        'mark the scenario as needing api-key-probe');
    }
    if (!probe.secret) throw authError(AUTH_ERROR_CODES.unknownCredential, `credential "${probe.name}" has no API key (${probe.secretEnv ?? 'api_key_env'} unset)`);
    return `Bearer ${probe.secret}`;
  }

  async function expired(): Promise<string> {
    if (!target.capabilities.has('clock') || !target.controlUrl) {
      throw authError(AUTH_ERROR_CODES.capabilityMissing, `an expired token needs the clock capability and control_url (target "${target.name}" has ${target.capabilities.has('clock') ? 'no control_url' : 'no clock capability'})`,
        'waiting hours for a real token to expire is not automated; mark the scenario as needing clock');
    }
    const cred = credential(specialCredential);
    const set = await obtain(cred); // fresh and uncached on purpose
    if (set.refreshToken) refreshTokens.set(cred.name, set.refreshToken);
    const res = await http.send(
      { method: 'POST', url: `${target.controlUrl}/clock/advance`, headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ seconds: set.expiresIn + 1 }), timeoutMs },
      'control: advance the clock past token expiry',
    );
    if (res.status < 200 || res.status > 299) {
      throw authError(AUTH_ERROR_CODES.control, `POST ${target.controlUrl}/clock/advance answered HTTP ${res.status}: ${excerpt(res, redactor)}`);
    }
    client.forgetAll(); // the simulated clock moved: every cached token of the same lifetime is stale now
    return `Bearer ${set.accessToken}`;
  }

  const client: AuthClient = {
    async authorization(name) {
      if (SPECIAL.has(name)) {
        switch (name as SpecialAuth) {
          case 'none':
            return undefined;
          case 'invalid':
            return `Bearer ${randomBytes(32).toString('base64url')}`;
          case 'basic-only':
            return basicAuthorization(credential(specialCredential));
          case 'expired':
            return expired();
          case 'api-key-probe':
            return refusalProbe();
        }
      }
      const cred = credential(name);
      if (cred.kind === 'api_key') return apiKey(cred);
      return `Bearer ${await token(cred)}`;
    },
    forget(name) {
      cache.delete(name);
    },
    forgetAll() {
      cache.clear();
    },
    clientAuthorization(name) {
      return basicAuthorization(credential(name));
    },
    authorizeCode(name, o = {}) {
      return runConsent({ ...common, cred: credential(name), ...(o.redirectUri ? { redirectUri: o.redirectUri } : {}) });
    },
    tokenInfo(name) {
      const c = cache.get(name);
      return c ? { obtainedAt: c.obtainedAt, expiresAt: c.expiresAt, expiresIn: c.expiresIn, hasRefreshToken: refreshTokens.has(name) } : undefined;
    },
  };
  return client;
}

export { tokenLabel };

/** Probes of the token, permission and "others" faults (see faults-harness.ts for the contract). */
import { DEFAULT_TOKEN_LIFETIME_SECONDS } from '../../src/reference/app.js';
import { ALT, CALLBACK, ENTITY_FORBIDDEN, type Probe } from './faults-harness.js';

export const AUTH_PROBES: Probe[] = [
  {
    fault: 'token-also-under-base-url',
    checks: 'POST {base_url}/oauth/token with valid client credentials is not 404',
    deviates: async (h) => (await h.tokenRequest({ grant_type: 'client_credentials' }, 'cc-alice', { url: '/api/v1/oauth/token' })).status !== 404,
  },
  {
    fault: 'token-only-under-base-url',
    checks: 'POST {auth_url}/oauth/token is 404',
    deviates: async (h) => (await h.tokenRequest({ grant_type: 'client_credentials' })).status === 404,
  },
  {
    fault: 'client-auth-ignored',
    checks: 'a wrong client secret gets a token',
    deviates: async (h) => (await h.tokenRequest({ grant_type: 'client_credentials' }, 'cc-alice', { secret: 'wrong-secret' })).status === 200,
  },
  {
    fault: 'client-secret-optional',
    checks: 'HTTP Basic with the client_id and the secret left out gets a token (a wrong secret is still refused)',
    deviates: async (h) => (await h.tokenRequest({ grant_type: 'client_credentials' }, 'cc-alice', { secret: '' })).status === 200
      && (await h.tokenRequest({ grant_type: 'client_credentials' }, 'cc-alice', { secret: 'wrong-secret' })).status === 401,
  },
  {
    fault: 'token-no-expires-in',
    checks: 'the token response lacks expires_in',
    deviates: async (h) => !('expires_in' in (await h.tokenRequest({ grant_type: 'client_credentials' })).body),
  },
  {
    fault: 'token-expires-in-string',
    checks: 'expires_in is a string',
    deviates: async (h) => typeof (await h.tokenRequest({ grant_type: 'client_credentials' })).body.expires_in === 'string',
  },
  {
    fault: 'expired-token-accepted',
    checks: 'a token past expires_in still answers 200',
    deviates: async (h) => {
      const token = await h.token();
      await h.sandbox('/clock/advance', { seconds: DEFAULT_TOKEN_LIFETIME_SECONDS + 60 });
      return (await h.raw('GET', '/api/v1/health', { headers: { authorization: `Bearer ${token}` } })).status === 200;
    },
  },
  {
    fault: 'token-expiry-grace-10min',
    checks: 'a token 5 min past expires_in still answers 200 (and 11 min past it, 401)',
    deviates: async (h) => {
      const token = await h.token();
      const get = async (): Promise<number> => (await h.raw('GET', '/api/v1/health', { headers: { authorization: `Bearer ${token}` } })).status;
      await h.sandbox('/clock/advance', { seconds: DEFAULT_TOKEN_LIFETIME_SECONDS + 300 });
      const fiveMinutesAfter = await get();
      await h.sandbox('/clock/advance', { seconds: 360 });
      return fiveMinutesAfter === 200 && (await get()) === 401;
    },
  },
  {
    fault: 'refresh-token-not-rotated',
    checks: 'the refresh grant returns the presented refresh token',
    deviates: async (h) => {
      const { code, verifier } = await h.code();
      const first = await h.tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: verifier }, 'code-app');
      const refreshed = await h.tokenRequest({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token }, 'code-app');
      return refreshed.status === 200 && refreshed.body.refresh_token === first.body.refresh_token;
    },
  },
  {
    fault: 'redirect-uri-not-checked',
    checks: 'a code obtained for one redirect URI is exchanged with another',
    deviates: async (h) => {
      const { code, verifier } = await h.code(CALLBACK);
      return (await h.tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: ALT, code_verifier: verifier }, 'code-app')).status === 200;
    },
  },
  {
    fault: 'pkce-not-checked',
    checks: 'a code is exchanged without its code_verifier',
    deviates: async (h) => {
      const { code } = await h.code();
      return (await h.tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: CALLBACK }, 'code-app')).status === 200;
    },
  },
  {
    fault: 'client-credentials-refresh-token',
    checks: 'client_credentials returns a refresh_token',
    deviates: async (h) => 'refresh_token' in (await h.tokenRequest({ grant_type: 'client_credentials' })).body,
  },
  {
    fault: 'api-key-refused-in-sandbox',
    checks: 'the sandbox answers 401 to the API key',
    deviates: async (h) => {
      const key = h.ref.ctx.secrets.apiKeys['alice@ftf.test'] ?? '';
      return (await h.raw('GET', '/api/v1/health', { headers: { authorization: `Bearer ${key}` } })).status === 401;
    },
  },
  {
    fault: 'api-key-accepted-in-production',
    options: { mode: 'production' },
    checks: 'production answers 200 to an API key',
    deviates: async (h) => {
      const key = h.ref.ctx.secrets.apiKeys['alice@ftf.test'] ?? '';
      return (await h.raw('GET', '/api/v1/health', { headers: { authorization: `Bearer ${key}` } })).status === 200;
    },
  },
  {
    fault: 'unauthorized-body-not-detail',
    checks: 'a 401 body has no string detail',
    deviates: async (h) => {
      const res = await h.raw('GET', '/api/v1/health');
      return res.status === 401 && typeof res.body?.detail !== 'string';
    },
  },
  // ---- permissions ----
  {
    fault: 'entity-403-as-200',
    checks: 'GET /entity/ENT-GAMMA (not on alice\'s list) answers 200',
    deviates: async (h) => (await h.api('GET', '/entity/ENT-GAMMA')).status === 200,
  },
  {
    fault: 'entity-403-as-404',
    checks: 'GET /entity/ENT-GAMMA answers 404',
    deviates: async (h) => (await h.api('GET', '/entity/ENT-GAMMA')).status === 404,
  },
  {
    fault: 'entity-403-detail-changed',
    checks: 'the entity 403 detail is not the spec text',
    deviates: async (h) => {
      const res = await h.api('GET', '/holding/ENT-GAMMA');
      return res.status === 403 && res.body.detail !== ENTITY_FORBIDDEN;
    },
  },
  {
    fault: 'entity-users-not-allow-listed',
    checks: 'GET /entity/ENT-GAMMA/user answers 200 while GET /entity/ENT-GAMMA stays 403',
    deviates: async (h) => (await h.api('GET', '/entity/ENT-GAMMA/user')).status === 200 && (await h.api('GET', '/entity/ENT-GAMMA')).status === 403,
  },
  {
    fault: 'readonly-client-can-write',
    checks: 'the read-only client creates a checkpoint',
    deviates: async (h) => (await h.api('PUT', '/event/checkpoint/ro-probe', { as: 'cc-carol-readonly' })).status !== 403,
  },
  {
    fault: 'readonly-client-can-delete',
    checks: 'the read-only client\'s DELETE /webhook is not 403, while its PUT of a checkpoint still is',
    deviates: async (h) => {
      const del = await h.api('DELETE', '/webhook', { as: 'cc-carol-readonly' });
      const put = await h.api('PUT', '/event/checkpoint/ro-probe', { as: 'cc-carol-readonly' });
      return del.status !== 403 && put.status === 403;
    },
  },
  {
    fault: 'holding-read-skips-allow-list',
    checks: 'alice reads an ENT-GAMMA holding by uid (200), while the ENT-GAMMA holdings list stays 403',
    deviates: async (h) => {
      const gamma = h.ref.domain.holdingsOf('ENT-GAMMA')[0];
      if (!gamma) throw new Error('ENT-GAMMA has no holdings');
      const one = await h.api('GET', `/holding/ENT-GAMMA/${gamma.uid}`);
      const list = await h.api('GET', '/holding/ENT-GAMMA');
      return one.status === 200 && one.body.uid === gamma.uid && list.status === 403 && list.body.detail === ENTITY_FORBIDDEN;
    },
  },
  {
    fault: 'event-stream-leaks-entities',
    checks: 'alice\'s stream contains ENT-GAMMA events',
    deviates: async (h) => (await h.events()).body.events.some((e: { entityCode: string }) => e.entityCode === 'ENT-GAMMA'),
  },
  // ---- others ----
  {
    fault: 'health-body-wrong',
    checks: 'GET /health has no status "OK"',
    deviates: async (h) => (await h.api('GET', '/health')).body?.status !== 'OK',
  },
  {
    fault: 'webhook-delete-shape-wrong',
    checks: 'DELETE /webhook has no email',
    deviates: async (h) => {
      await h.api('POST', '/webhook', { json: { url: 'https://hooks.ftf.test/x' } });
      return typeof (await h.api('DELETE', '/webhook')).body?.email !== 'string';
    },
  },
  {
    fault: 'server-error-on-bad-input',
    checks: 'a malformed JSON body answers 5xx',
    deviates: async (h) => (await h.api('POST', '/webhook', { headers: { 'content-type': 'application/json' }, payload: '{"url": ' })).status >= 500,
  },
  {
    fault: 'unknown-resource-200-null',
    checks: 'an unknown holding uid answers 200',
    deviates: async (h) => (await h.api('GET', '/holding/ENT-ALPHA/no-such-holding')).status === 200,
  },
];

/**
 * A minimal OAuth server for the auth client's self-tests (not the reference server): token endpoint with
 * client_credentials / authorization_code (PKCE S256, redirect_uri match) / refresh_token (rotation),
 * an auto-approving authorize URL, a consent form and a clock-advance control call.
 */
import { createHash, randomBytes } from 'node:crypto';
import { json, startStub, type StubServer } from './http-stub-server.js';

export interface OAuthStub extends StubServer {
  clients: Record<string, string>;
  expiresIn: number;
  issued: string[];
  advanced: number[];
  /** When set, the authorize step answers with this state instead of the one sent. */
  tamperState?: string;
  grants: string[];
  /** Makes a refresh token valid, as if obtained earlier by hand (the "pre-obtained refresh token" path). */
  addRefreshToken(token: string, clientId: string): void;
  /** Invalidates every refresh token (as a target would after revocation or their own expiry). */
  revokeRefreshTokens(): void;
}

export async function startOAuthStub(clients: Record<string, string>, password: string): Promise<OAuthStub> {
  const codes = new Map<string, { clientId: string; redirectUri: string; challenge: string }>();
  const refreshTokens = new Map<string, string>(); // token -> clientId
  const state: Pick<OAuthStub, 'expiresIn' | 'issued' | 'advanced' | 'tamperState' | 'grants'> = { expiresIn: 3600, issued: [], advanced: [], grants: [] };
  const token = (prefix: string) => `${prefix}-${randomBytes(12).toString('hex')}`;

  const redirect = (q: URLSearchParams) => {
    const code = token('code');
    codes.set(code, { clientId: q.get('client_id') ?? '', redirectUri: q.get('redirect_uri') ?? '', challenge: q.get('code_challenge') ?? '' });
    return `${q.get('redirect_uri')}?code=${code}&state=${encodeURIComponent(stub.tamperState ?? q.get('state') ?? '')}`;
  };

  const base = await startStub((req, res) => {
    const [path, query = ''] = req.url.split('?');
    if (path === '/oauth/authorize' && req.method === 'GET') {
      const q = new URLSearchParams(query);
      if (q.get('response_type') !== 'code' || q.get('code_challenge_method') !== 'S256' || q.get('prompt') !== 'none' || !q.get('code_challenge')) {
        return json(res, 400, { detail: 'bad authorize request' });
      }
      res.writeHead(302, { location: redirect(q) });
      return void res.end();
    }
    if (path === '/consent' && req.method === 'POST') {
      const q = new URLSearchParams(req.body);
      if (q.get('password') !== password || q.get('username') !== 'alice') return json(res, 401, { detail: 'bad login' });
      res.writeHead(303, { location: redirect(q) });
      return void res.end();
    }
    if (path === '/_sandbox/clock/advance' && req.method === 'POST') {
      stub.advanced.push((JSON.parse(req.body) as { seconds: number }).seconds);
      return json(res, 200, { now: '2030-01-01T00:00:00Z' });
    }
    if (path === '/oauth/token' && req.method === 'POST') {
      const [scheme, b64 = ''] = (req.headers.authorization ?? '').split(' ');
      const [clientId = '', secret] = Buffer.from(b64, 'base64').toString().split(':');
      if (scheme !== 'Basic' || clients[clientId] === undefined || clients[clientId] !== secret) return json(res, 401, { error: 'invalid_client', echo: secret });
      if (req.headers['content-type'] !== 'application/x-www-form-urlencoded') return json(res, 400, { error: 'form expected' });
      const form = new URLSearchParams(req.body);
      const grant = form.get('grant_type') ?? '';
      stub.grants.push(grant);
      if (form.get('client_id') !== clientId) return json(res, 400, { error: 'client_id mismatch' });
      const issue = (withRefresh: boolean) => {
        const access = token('at');
        stub.issued.push(access);
        const body: Record<string, unknown> = { access_token: access, token_type: 'Bearer', expires_in: stub.expiresIn };
        if (withRefresh) {
          const refresh = token('rt');
          refreshTokens.set(refresh, clientId);
          body.refresh_token = refresh;
        }
        return json(res, 200, body);
      };
      if (grant === 'client_credentials') return form.get('client_secret') === secret ? issue(false) : json(res, 401, { error: 'invalid_client' });
      if (grant === 'authorization_code') {
        const code = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        if (!code || code.clientId !== clientId || code.redirectUri !== form.get('redirect_uri')) return json(res, 400, { error: 'invalid_grant' });
        const challenge = createHash('sha256').update(form.get('code_verifier') ?? '').digest('base64url');
        if (challenge !== code.challenge) return json(res, 400, { error: 'invalid_grant', detail: 'PKCE' });
        return issue(true);
      }
      if (grant === 'refresh_token') {
        const rt = form.get('refresh_token') ?? '';
        if (refreshTokens.get(rt) !== clientId || form.has('redirect_uri')) return json(res, 400, { error: 'invalid_grant' });
        refreshTokens.delete(rt); // rotation: a refresh token works once
        return issue(true);
      }
      return json(res, 400, { error: 'unsupported_grant_type' });
    }
    return json(res, 404, { detail: 'Not Found' });
  });
  const stub: OAuthStub = Object.assign(base, { clients, ...state, addRefreshToken: (t: string, c: string) => void refreshTokens.set(t, c), revokeRefreshTokens: () => refreshTokens.clear() });
  return stub;
}

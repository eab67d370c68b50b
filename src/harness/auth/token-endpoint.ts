/**
 * Talks to {auth_url}/oauth/token (spec, Authentication): form-encoded POST with HTTP Basic client
 * authentication; the response must carry access_token and expires_in. Every value obtained is registered
 * with the redactor before the caller sees it.
 */
import type { Redactor } from '../http/redactor.js';
import type { HttpRequest, HttpResponse } from '../http/types.js';
import type { CredentialConfig } from '../target/types.js';
import { AUTH_ERROR_CODES, authError, excerpt } from './errors.js';

export interface TokenSet {
  accessToken: string;
  expiresIn: number;
  refreshToken?: string;
}

/** A transport that may take a label for the recorder (RecordingTransport does; plain ones ignore it). */
export type LabelledTransport = { send(req: HttpRequest, label?: string): Promise<HttpResponse> };

export function basicAuthorization(cred: CredentialConfig): string {
  if (!cred.clientId || cred.secret === undefined) {
    throw authError(AUTH_ERROR_CODES.unknownCredential, `credential "${cred.name}" has no client_id/client secret for HTTP Basic client authentication`);
  }
  return `Basic ${Buffer.from(`${cred.clientId}:${cred.secret}`, 'utf8').toString('base64')}`;
}

export function tokenLabel(credential: string, kind: 'ACCESS_TOKEN' | 'REFRESH_TOKEN'): string {
  return `FTF_${credential.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_${kind}`;
}

export async function requestToken(args: {
  transport: LabelledTransport;
  redactor: Redactor;
  authUrl: string;
  cred: CredentialConfig;
  form: Record<string, string>;
  timeoutMs: number;
}): Promise<TokenSet> {
  const { transport, redactor, cred, form } = args;
  const url = `${args.authUrl}/oauth/token`;
  const res = await transport.send(
    {
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', authorization: basicAuthorization(cred) },
      body: new URLSearchParams(form).toString(),
      timeoutMs: args.timeoutMs,
    },
    `token: ${form.grant_type} for credential ${cred.name}`,
  );
  const what = `token request (${form.grant_type}) for credential "${cred.name}" to POST ${url}`;
  const body = res.json as Record<string, unknown> | undefined;
  if (res.status < 200 || res.status > 299) {
    throw authError(AUTH_ERROR_CODES.token, `${what} failed: HTTP ${res.status}: ${excerpt(res, redactor)}`,
      `check the client id and the secret in ${cred.secretEnv ?? 'the credential env var'}`);
  }
  const accessToken = body && typeof body === 'object' ? body.access_token : undefined;
  const expiresIn = Number(body && typeof body === 'object' ? body.expires_in : undefined);
  if (typeof accessToken !== 'string' || accessToken === '' || !Number.isFinite(expiresIn) || expiresIn <= 0) {
    throw authError(AUTH_ERROR_CODES.token, `${what} answered HTTP ${res.status} without access_token and a positive expires_in (spec, Authentication rule 3): ${excerpt(res, redactor)}`);
  }
  redactor.addSecret(accessToken, tokenLabel(cred.name, 'ACCESS_TOKEN'));
  const refreshToken = typeof body?.refresh_token === 'string' && body.refresh_token !== '' ? body.refresh_token : undefined;
  if (refreshToken) redactor.addSecret(refreshToken, tokenLabel(cred.name, 'REFRESH_TOKEN'));
  return { accessToken, expiresIn, ...(refreshToken ? { refreshToken } : {}) };
}

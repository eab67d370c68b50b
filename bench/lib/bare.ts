/** The bare side of the benchmarks: the same requests as the harness with `undici.request` and `JSON.parse`, nothing else. */
import { request } from 'undici';
import type { ResolvedTarget } from '../../src/harness/target/types.js';

/** A client_credentials token of the primary credential (one POST, like the auth client's first request). */
export async function bareToken(target: ResolvedTarget): Promise<string> {
  const { clientId = '', secret = '' } = target.credentials.primary ?? {};
  const res = await request(`${target.authUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}` },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret }).toString(),
  });
  return (JSON.parse(await res.body.text()) as { access_token: string }).access_token;
}

/** One GET with the bearer token, its body parsed. */
export async function bareGet(url: string, token: string): Promise<unknown> {
  const res = await request(url, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
  return JSON.parse(await res.body.text()) as unknown;
}

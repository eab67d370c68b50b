/**
 * Client authentication at the token endpoint (spec Authentication rule 1): HTTP Basic is required.
 * Form `client_id` / `client_secret`, when also sent (the spec's grant table lists them), must agree with it.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { OAuthClientRecord } from '../data/types.js';
import { formParam, type FormBody } from './form.js';
import { invalidClient } from './oauth-error.js';
import type { AuthState } from './state.js';

export interface BasicCredentials {
  clientId: string;
  secret: string;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * RFC 6749 2.3.1: id and secret are form-urlencoded before Basic encoding, but many clients skip that step.
 * Both readings are tried (raw first), so a secret containing `+` or `%` works either way.
 */
function readings(value: string): string[] {
  try {
    const decoded = decodeURIComponent(value.replace(/\+/g, '%20'));
    return decoded === value ? [value] : [value, decoded];
  } catch {
    return [value];
  }
}

/** null when there is no Basic header at all; throws invalid_client when it is there but malformed. */
export function parseBasic(authorization: string | undefined): BasicCredentials | null {
  const match = /^basic\s+(\S+)\s*$/i.exec(authorization?.trim() ?? '');
  if (match === null) return null;
  const encoded = match[1] ?? '';
  if (!BASE64.test(encoded)) throw invalidClient('Malformed HTTP Basic credentials.');
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) throw invalidClient('Malformed HTTP Basic credentials.');
  return { clientId: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

/** Constant-time comparison (hashing first makes the lengths equal). */
export function secretMatches(given: string, expected: string | undefined): boolean {
  if (expected === undefined) return false;
  const a = createHash('sha256').update(given, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b);
}

/** The authenticated client, or throws invalid_client (401 with a Basic challenge). */
export function authenticateClient(state: AuthState, authorization: string | undefined, form: FormBody): OAuthClientRecord {
  const { ctx } = state;
  const basic = parseBasic(authorization);
  if (basic === null) throw invalidClient('Client authentication by HTTP Basic (Authorization: Basic) is required.');
  const ids = readings(basic.clientId);
  const client = ctx.data.clients.find((c) => ids.includes(c.clientId));
  const expected = client === undefined ? undefined : ctx.secrets.clients[client.clientId];
  // One message for "unknown client" and "wrong secret": the answer must not reveal which ids exist.
  // The fault client-secret-optional: the secret is checked only when one is presented (`client_id:` passes).
  const secretLeftOut = ctx.faults.on('client-secret-optional') && basic.secret === '' && formParam(form, 'client_secret') === undefined;
  const secretOk = ctx.faults.on('client-auth-ignored') || secretLeftOut || readings(basic.secret).some((s) => secretMatches(s, expected));
  if (client === undefined || !secretOk) {
    throw invalidClient('Client authentication failed.');
  }
  const formClientId = formParam(form, 'client_id');
  if (formClientId !== undefined && formClientId !== client.clientId) {
    throw invalidClient('client_id in the form does not match the client authenticated by HTTP Basic.');
  }
  const formSecret = formParam(form, 'client_secret');
  if (formSecret !== undefined && !ctx.faults.on('client-auth-ignored') && !secretMatches(formSecret, ctx.secrets.clients[client.clientId])) {
    throw invalidClient('Client authentication failed.');
  }
  return client;
}

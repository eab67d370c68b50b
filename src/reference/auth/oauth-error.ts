/**
 * Errors of the OAuth endpoints. The body carries both the RFC 6749 fields (`error`, `error_description`)
 * and the spec's `{detail: string}` failure shape, so OAuth libraries and FTF clients both understand it.
 */
import type { FastifyReply } from 'fastify';

export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type';

export class OAuthError extends Error {
  constructor(
    readonly status: 400 | 401 | 405,
    readonly error: OAuthErrorCode,
    readonly description: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
    this.name = 'OAuthError';
  }
}

export const invalidRequest = (description: string): OAuthError => new OAuthError(400, 'invalid_request', description);
export const invalidGrant = (description: string): OAuthError => new OAuthError(400, 'invalid_grant', description);
/** RFC 6749 5.2: a client that tried (or should have tried) Basic gets 401 with a Basic challenge. */
export const invalidClient = (description: string): OAuthError =>
  new OAuthError(401, 'invalid_client', description, { 'www-authenticate': 'Basic realm="ftf", charset="UTF-8"' });

/** RFC 6749 5.1/5.2: token responses and their errors must not be cached. */
export function noStore(reply: FastifyReply): FastifyReply {
  return reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
}

export function sendOAuthError(reply: FastifyReply, err: OAuthError): FastifyReply {
  noStore(reply).code(err.status).headers(err.headers);
  return reply.send({ error: err.error, error_description: err.description, detail: err.description });
}

/**
 * The ONE error handler and the not-found handler: every failure answers `{detail: string}` or, for
 * schema failures, 422 `{detail: [{loc, msg, type}]}`. Framework errors (malformed JSON, wrong content
 * type, oversized body, bad URL) are 4xx, never 5xx.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, type Faults, type Variants } from '../context.js';
import { NO_FAULTS } from '../faults.js';
import { NO_VARIANTS } from '../variants.js';
import { toValidationDetail, type ValidationProblem } from './validation.js';

export const BODY_LIMIT_BYTES = 64 * 1024;

const FRAMEWORK: Record<string, { status: number; detail: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, detail: `Request body is too large (limit ${BODY_LIMIT_BYTES} bytes).` },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, detail: 'Unsupported Content-Type; send application/json.' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, detail: 'Content-Length does not match the body.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, detail: 'Body is empty but Content-Type is application/json.' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, detail: 'Malformed JSON body.' },
  FST_ERR_BAD_URL: { status: 400, detail: 'Malformed URL.' },
  FST_ERR_MAX_PARAM_LENGTH: { status: 404, detail: 'Not Found' },
  FST_ERR_ASYNC_CONSTRAINT: { status: 400, detail: 'Bad request.' },
};

interface MaybeValidation {
  validation?: unknown;
  validationContext?: string;
}

/**
 * The 401 and 404 detail texts the spec leaves open (Errors rules: "The exact detail text for 401 and 404 on
 * other resources: not shown"): the reference's own, or (variant detail-texts-other) others. The 404 of POST
 * /subscribe is fixed by the Errors table ("Indication not found") and never changes.
 */
export const OTHER_DETAIL_TEXTS: Readonly<Record<401 | 404, string>> = {
  401: 'Authentication credentials were missing or not accepted.',
  404: 'The requested resource could not be found.',
};

export function openDetail(status: number, detail: string, variants: Variants, pathname: string): string {
  if (!variants.is('detail-texts-other') || (status !== 401 && status !== 404)) return detail;
  if (status === 404 && /\/subscribe\/?$/.test(pathname)) return detail;
  return OTHER_DETAIL_TEXTS[status];
}

/** Status and body for any thrown error; `pathname` (of the request) is only consulted by route-scoped faults and variants. */
export function errorResponse(err: unknown, faults: Faults = NO_FAULTS, variants: Variants = NO_VARIANTS, pathname = ''): { status: number; body: Record<string, unknown> } {
  if (err instanceof ApiError) {
    return { status: err.status, body: { detail: typeof err.detail === 'string' ? openDetail(err.status, err.detail, variants, pathname) : err.detail, ...err.extra } };
  }
  const e = err as Partial<FastifyError> & MaybeValidation;
  if (Array.isArray(e.validation)) {
    const detail = toValidationDetail(e.validation, e.validationContext);
    // 422 is "body failed schema validation"; the variant answers a bad query or path value as 400 "invalid request".
    if (variants.is('query-errors-400') && e.validationContext !== 'body') {
      return { status: 400, body: { detail: `Invalid request parameter: ${detail.map((d) => `${d.loc.join('.')}: ${d.msg}`).join('; ')}` } };
    }
    return validationResponse(detail, faults, pathname);
  }
  if (e.code === 'FST_ERR_CTP_INVALID_JSON_BODY' && faults.on('server-error-on-bad-input')) {
    return { status: 500, body: { detail: 'Internal Server Error' } };
  }
  const known = e.code ? FRAMEWORK[e.code] : undefined;
  if (known) return { status: known.status, body: { detail: known.detail } };
  const status = typeof e.statusCode === 'number' ? e.statusCode : 500;
  if (status >= 400 && status < 500) return { status, body: { detail: typeof e.message === 'string' && e.message ? e.message : 'Bad request.' } };
  return { status: 500, body: { detail: 'Internal Server Error' } };
}

/** The checkpoint routes under {base_url} (fault validation-detail-string-checkpoints). */
const CHECKPOINT_ROUTE = /\/event\/checkpoints?(\/|$)/;

/** The ONE place the 422 shape `{detail: [{loc, msg, type}]}` is produced. */
function validationResponse(detail: ValidationProblem[], faults: Faults, pathname: string): { status: number; body: Record<string, unknown> } {
  const notBody = detail.length > 0 && detail.every((d) => d.loc[0] !== 'body');
  if (faults.on('validation-detail-string') || (faults.on('validation-detail-string-checkpoints') && CHECKPOINT_ROUTE.test(pathname)) || (faults.on('validation-detail-string-queries') && notBody)) return { status: 422, body: { detail: detail.map((d) => `${d.loc.join('.')}: ${d.msg}`).join('; ') } };
  return { status: 422, body: { detail } };
}

export function installErrorHandling(app: FastifyInstance, faults: Faults = NO_FAULTS, variants: Variants = NO_VARIANTS): void {
  app.setErrorHandler((err: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const { status, body } = errorResponse(err, faults, variants, request.url.split('?')[0]);
    if (status >= 500) request.log.error({ err }, 'unhandled error');
    return reply.code(status).send(body);
  });
  app.setNotFoundHandler((request, reply) => reply.code(404).send({ detail: openDetail(404, 'Not Found', variants, request.url.split('?')[0] ?? '') }));
}

/** Fastify's `frameworkErrors` option: bad URLs and the like before routing. */
export function frameworkErrors(faults: Faults = NO_FAULTS) {
  return (err: FastifyError, _request: FastifyRequest, reply: FastifyReply): void => {
    const { status, body } = errorResponse(err, faults);
    void reply.code(status).send(body);
  };
}

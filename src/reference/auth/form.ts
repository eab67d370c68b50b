/** Reading form-encoded OAuth parameters (RFC 6749 3.1/3.2 rules for empty and repeated parameters). */
import { invalidRequest } from './oauth-error.js';

export type FormBody = Record<string, unknown>;

const FORM_MEDIA_TYPE = 'application/x-www-form-urlencoded';

/** True when the Content-Type's media type (parameters such as charset ignored) is form-urlencoded. */
export function isFormUrlEncoded(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const mediaType = contentType.split(';', 1)[0]?.trim().toLowerCase();
  return mediaType === FORM_MEDIA_TYPE;
}

export function asFormBody(body: unknown): FormBody {
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as FormBody) : {};
}

/**
 * One parameter: undefined when absent or empty ("sent without a value MUST be treated as if omitted");
 * a repeated parameter is invalid_request ("MUST NOT be included more than once").
 */
export function formParam(body: FormBody, name: string): string | undefined {
  const value = body[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw invalidRequest(`Parameter ${name} must be sent once.`);
  return value;
}

export function requiredParam(body: FormBody, name: string): string {
  const value = formParam(body, name);
  if (value === undefined) throw invalidRequest(`Missing required parameter: ${name}.`);
  return value;
}

/**
 * Transport failures as typed errors. Both transports map their native failures here so that the engine
 * and the reports see one vocabulary. Messages name method + URL and the bound that was hit; URLs are
 * redacted by the recorder before anything is written.
 */
import { FtfError } from '../../shared/errors.js';
import type { HttpRequest } from './types.js';

export const TRANSPORT_ERROR_CODES = {
  timeout: 'FTF_E_TARGET_TIMEOUT',
  unreachable: 'FTF_E_TARGET_UNREACHABLE',
  reset: 'FTF_E_TARGET_RESET',
  bodyTooLarge: 'FTF_E_TARGET_BODY_TOO_LARGE',
  protocol: 'FTF_E_TARGET_PROTOCOL',
  /** The target answered, but its response cannot be read as HTTP within the limits (header overflow). */
  malformed: 'FTF_E_TARGET_MALFORMED',
} as const;

export type TransportFailure = keyof typeof TRANSPORT_ERROR_CODES;

export const DEFAULT_MAX_BODY_BYTES = 5 * 1024 * 1024;

const HINTS: Record<TransportFailure, string> = {
  timeout: 'the target did not answer in time; raise timeouts.request_ms in the profile if it is just slow',
  unreachable: 'check base_url/auth_url in the profile (or FTF_BASE_URL/FTF_AUTH_URL) and that the target is up',
  reset: 'the target closed the connection mid-exchange; retry, then check the target logs',
  bodyTooLarge: 'the response body exceeded the harness limit; the target may be sending garbage',
  protocol: 'the target answered with something that is not valid HTTP',
  malformed: 'the target is reachable and answered, but its response headers exceed the HTTP client limit (about 16 KiB): check the target (or a proxy in front of it) for runaway headers',
};

export function transportError(kind: TransportFailure, req: HttpRequest, detail: string, cause?: unknown): FtfError {
  return new FtfError(TRANSPORT_ERROR_CODES[kind], `${req.method} ${req.url}: ${detail}`, {
    hint: HINTS[kind],
    ...(cause === undefined ? {} : { cause }),
  });
}

/** Classifies a low-level error code (Node errno or undici UND_ERR_*) into a transport failure. */
export function classifyCode(code: string | undefined): TransportFailure | undefined {
  if (!code) return undefined;
  if (/TIMEOUT|ETIMEDOUT/.test(code)) return 'timeout';
  if (/^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|EADDRNOTAVAIL)$/.test(code)) return 'unreachable';
  if (/^(ECONNRESET|EPIPE|UND_ERR_SOCKET|ECONNABORTED|UND_ERR_CLOSED)$/.test(code)) return 'reset';
  if (/^(HPE_HEADER_OVERFLOW|UND_ERR_HEADERS_OVERFLOW)$/.test(code)) return 'malformed';
  if (/^HPE_|UND_ERR_RES_CONTENT_LENGTH_MISMATCH|UND_ERR_INFO/.test(code)) return 'protocol';
  return undefined;
}

/** Playwright names a header overflow only in prose ("Parse Error: Header overflow"), without the code. */
export function classifyMessage(message: string): TransportFailure | undefined {
  return /header overflow|headers overflow/i.test(message) ? 'malformed' : undefined;
}

/** Finds the first `code` along an error's cause chain. */
export function errorCode(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (typeof e.code === 'string') return e.code;
  }
  return undefined;
}

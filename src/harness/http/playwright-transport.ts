/**
 * Transport over Playwright's APIRequestContext (inside the Playwright runner with FTF_TRANSPORT=playwright,
 * so the trace viewer sees the calls). Redirects are never followed; the timeout is Playwright's whole-request timeout. Playwright
 * reads and inflates whole bodies with no bound of its own: playwright-body-bound.ts cuts a response whose
 * Content-Length or streamed size is over the cap before Playwright holds it, and keeps the body encoded; the
 * transport inflates it here under the same cap (bounded-decode.ts), as the undici transport bounds its reads.
 */
import { performance } from 'node:perf_hooks';
import type { APIRequestContext } from '@playwright/test';
import { normaliseHeaders, parseBody } from './body.js';
import { classifyCode, classifyMessage, DEFAULT_MAX_BODY_BYTES, transportError } from './errors.js';
import { raceOverLanes } from './race-lanes.js';
import { decodeBounded } from './bounded-decode.js';
import { watchBody } from './playwright-body-bound.js';
import type { HttpRequest, HttpResponse, Transport } from './types.js';
import { FtfError } from '../../shared/errors.js';

export function createPlaywrightTransport(context: APIRequestContext): Transport {
  return {
    async send(req: HttpRequest): Promise<HttpResponse> {
      const maxBytes = req.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
      const started = performance.now();
      const watch = watchBody(req.method, req.url, maxBytes);
      try {
        const res = await context.fetch(req.url, {
          method: req.method,
          headers: req.headers,
          // A Buffer, not a string: Playwright JSON-encodes a string that is not valid JSON when the
          // content type is JSON, and robustness checks must send malformed JSON byte for byte.
          ...(req.body === undefined ? {} : { data: Buffer.from(req.body, 'utf8') }),
          timeout: req.timeoutMs,
          maxRedirects: 0,
          failOnStatusCode: false,
        });
        try {
          const headers = normaliseHeaders(Object.fromEntries(groupHeaders(res.headersArray())));
          const declared = Number(headers['content-length']);
          if (Number.isFinite(declared) && declared > maxBytes) {
            throw transportError('bodyTooLarge', req, `response body of ${declared} bytes exceeds the ${maxBytes}-byte limit`);
          }
          const raw = await res.body();
          if (raw.length > maxBytes) throw transportError('bodyTooLarge', req, `response body of ${raw.length} bytes exceeds the ${maxBytes}-byte limit`);
          const decoded = decodeBounded(raw, watch.encoding, maxBytes);
          if (!decoded.ok) throw transportError(decoded.tooLarge ? 'bodyTooLarge' : 'protocol', req, decoded.reason);
          const bodyText = decoded.body.toString('utf8');
          return { status: res.status(), headers, bodyText, ...parseBody(bodyText, headers['content-type']), durationMs: performance.now() - started };
        } finally {
          await res.dispose().catch(() => undefined);
        }
      } catch (err) {
        if (watch.refused !== undefined) throw transportError('bodyTooLarge', req, watch.refused);
        throw mapPlaywrightError(err, req);
      } finally {
        watch.done();
      }
    },
    // APIRequestContext cannot hold one warm connection per request and release them together: races use
    // undici lanes to the same origin (http/race-lanes.ts); the recorder still records every exchange.
    race: (lanes) => raceOverLanes(lanes),
  };
}

function groupHeaders(list: Array<{ name: string; value: string }>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const { name, value } of list) out.set(name.toLowerCase(), [...(out.get(name.toLowerCase()) ?? []), value]);
  return out;
}

/** Playwright reports network failures as plain Errors; the errno or "Timeout …" is in the message. */
function mapPlaywrightError(err: unknown, req: HttpRequest): FtfError {
  if (err instanceof FtfError) return err;
  const message = (err as Error)?.message ?? String(err);
  const firstLine = message.split('\n')[0] ?? message;
  if (/Timeout \d+ms exceeded|timed? ?out/i.test(message)) {
    return transportError('timeout', req, `no complete response within ${req.timeoutMs} ms (whole-exchange bound)`);
  }
  const errno = /\b(E[A-Z_]{3,}|HPE_[A-Z_]+|UND_ERR_[A-Z_]+)\b/.exec(message)?.[1];
  const kind = classifyMessage(message) ?? classifyCode(errno) ?? (/socket hang up|other side closed/i.test(message) ? 'reset' : 'protocol');
  const detail = kind === 'unreachable' ? 'cannot connect'
    : kind === 'reset' ? 'connection reset or closed by the target'
      : kind === 'malformed' ? 'the target answered, but its response headers are too large to read' : 'request failed';
  // No `cause`: Playwright's call log in the original message lists request headers (Authorization).
  return transportError(kind, req, `${detail}: ${firstLine}`);
}

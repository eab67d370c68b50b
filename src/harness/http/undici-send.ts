/** One exchange over an undici dispatcher: the body of the undici transport, shared with the race lanes. */
import './wasm-baseline.js';
import { performance } from 'node:perf_hooks';
import type { Dispatcher } from 'undici';
import { request } from './undici-parts.js';
import { normaliseHeaders, parseBody } from './body.js';
import { classifyCode, DEFAULT_MAX_BODY_BYTES, errorCode, transportError } from './errors.js';
import type { HttpRequest, HttpResponse } from './types.js';
import { FtfError } from '../../shared/errors.js';

/**
 * One exchange over `dispatcher`. The request is dispatched before the first await, so a caller looping over
 * several sendOver calls in one synchronous stretch hands every request to its connection in that stretch
 * (the race lanes rely on it). `onHeaders` is told when the response headers arrive.
 */
export async function sendOver(dispatcher: Dispatcher, req: HttpRequest, onHeaders?: () => void): Promise<HttpResponse> {
  const maxBytes = req.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error(`exchange exceeded ${req.timeoutMs} ms`));
  }, req.timeoutMs);
  const started = performance.now();
  try {
    const res = await request(req.url, {
      dispatcher,
      method: req.method as Dispatcher.HttpMethod,
      headers: req.headers,
      ...(req.body === undefined ? {} : { body: req.body }),
      signal: controller.signal,
      headersTimeout: req.timeoutMs,
      bodyTimeout: req.timeoutMs,
    });
    onHeaders?.();
    const headers = normaliseHeaders(res.headers);
    const declared = Number(headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      res.body.destroy();
      throw transportError('bodyTooLarge', req, `response body of ${declared} bytes exceeds the ${maxBytes}-byte limit`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) {
        res.body.destroy();
        throw transportError('bodyTooLarge', req, `response body exceeded the ${maxBytes}-byte limit`);
      }
      chunks.push(chunk);
    }
    const bodyText = Buffer.concat(chunks).toString('utf8');
    return { status: res.statusCode, headers, bodyText, ...parseBody(bodyText, headers['content-type']), durationMs: performance.now() - started };
  } catch (err) {
    throw mapError(err, req, timedOut);
  } finally {
    clearTimeout(timer);
  }
}

function mapError(err: unknown, req: HttpRequest, timedOut: boolean): FtfError {
  if (err instanceof FtfError) return err;
  if (timedOut) return transportError('timeout', req, `no complete response within ${req.timeoutMs} ms (whole-exchange bound)`, err);
  const code = errorCode(err);
  const kind = classifyCode(code);
  const detail = `${(err as Error)?.message ?? String(err)}${code ? ` [${code}]` : ''}`;
  switch (kind) {
    case 'timeout':
      return transportError('timeout', req, `timed out (bound ${req.timeoutMs} ms): ${detail}`, err);
    case 'unreachable':
      return transportError('unreachable', req, `cannot connect: ${detail}`, err);
    case 'reset':
      return transportError('reset', req, `connection reset or closed by the target: ${detail}`, err);
    case 'malformed':
      return transportError('malformed', req, `the target answered, but its response headers are too large to read: ${detail}`, err);
    default:
      return transportError('protocol', req, `request failed: ${detail}`, err);
  }
}

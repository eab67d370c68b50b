/**
 * Exchange sinks provided with the recorder: an in-memory one (tests, engine assertions on traffic) and a
 * HAR 1.2 file written at flush(). Exchanges arrive already redacted; sinks never see raw secrets.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Exchange, ExchangeSink } from './types.js';

export interface MemorySink extends ExchangeSink {
  readonly exchanges: Exchange[];
  clear(): void;
}

export function memorySink(): MemorySink {
  const exchanges: Exchange[] = [];
  return {
    exchanges,
    onExchange(exchange) {
      exchanges.push(exchange);
    },
    clear() {
      exchanges.length = 0;
    },
  };
}

export interface HarSink extends ExchangeSink {
  readonly file: string;
  /** Writes the HAR file (again, with everything recorded so far). */
  flush(): Promise<void>;
}

export function harSink(file: string, creator = { name: 'ftf-conformance', version: '0.1.0' }): HarSink {
  const entries: object[] = [];
  return {
    file,
    onExchange(exchange) {
      entries.push(harEntry(exchange));
    },
    async flush() {
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, `${JSON.stringify({ log: { version: '1.2', creator, entries } }, null, 2)}\n`, 'utf8');
    },
  };
}

const pairs = (h: Record<string, string>) => Object.entries(h).map(([name, value]) => ({ name, value }));

function harEntry(x: Exchange): object {
  let queryString: Array<{ name: string; value: string }> = [];
  try {
    queryString = [...new URL(x.request.url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    // a redacted URL can still be relative or odd; the HAR simply has no query list then
  }
  const reqType = Object.entries(x.request.headers).find(([n]) => n.toLowerCase() === 'content-type')?.[1] ?? 'application/octet-stream';
  const res = x.response;
  return {
    startedDateTime: x.startedAt,
    time: x.durationMs,
    comment: x.label,
    request: {
      method: x.request.method,
      url: x.request.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(x.request.headers),
      queryString,
      ...(x.request.body === undefined ? {} : { postData: { mimeType: reqType, text: x.request.body } }),
      headersSize: -1,
      bodySize: x.request.body === undefined ? 0 : Buffer.byteLength(x.request.body),
    },
    response: {
      status: res?.status ?? 0,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: res ? pairs(res.headers) : [],
      content: { size: res ? Buffer.byteLength(res.bodyText) : 0, mimeType: res?.headers['content-type'] ?? 'x-unknown', text: res?.bodyText ?? '' },
      redirectURL: res?.headers.location ?? '',
      headersSize: -1,
      bodySize: res ? Buffer.byteLength(res.bodyText) : -1,
      ...(x.error ? { _error: x.error } : {}),
    },
    cache: {},
    timings: { send: 0, wait: x.durationMs, receive: 0 },
    _curl: x.curl,
  };
}

/**
 * The size bound for Playwright's APIRequestContext, which has no option for one: it reads a whole response
 * body into memory, inflating gzip/deflate/br as it goes, before `fetch` resolves (a 64 KiB gzip bomb becomes
 * gigabytes; a 2 GB Content-Length is read to the end). Its requests go through node:http in this process, so
 * this module meets each one it was told about on Node's public `http.client.request.start` channel and gets
 * to the response before Playwright does:
 * - a Content-Length over the bound: the response is destroyed at once, nothing of the body is read;
 * - a Content-Encoding: removed from the parsed headers Playwright decides on, so Playwright keeps the encoded
 *   bytes (the transport inflates them itself under the same bound, bounded-decode.ts);
 * - every chunk counted: past the bound the response is destroyed.
 * Playwright then rejects, and the transport reports FTF_E_TARGET_BODY_TOO_LARGE from what was recorded here.
 * The raw header list (what the reports show) keeps the Content-Encoding the target sent.
 */
import { subscribe } from 'node:diagnostics_channel';
import type { ClientRequest, IncomingMessage } from 'node:http';

export interface BodyWatch {
  /** Set when the response was cut: the reason, for the transport's error. */
  refused?: string;
  /** The Content-Encoding the target sent (removed for Playwright, decoded by the transport). */
  encoding?: string;
  done(): void;
}

interface Pending {
  maxBytes: number;
  watch: BodyWatch;
}

const pending = new Map<string, Pending[]>();
let subscribed = false;

const keyOf = (method: string, host: string, path: string): string => `${method.toUpperCase()} ${host.toLowerCase()}${path}`;

function onStart(message: unknown): void {
  const request = (message as { request?: ClientRequest }).request;
  if (!request || pending.size === 0) return;
  const host = request.getHeader('host');
  const list = pending.get(keyOf(request.method, typeof host === 'string' ? host : '', request.path));
  const entry = list?.shift();
  if (!entry) return;
  request.prependListener('response', (res: IncomingMessage) => guard(request, res, entry));
}

function guard(request: ClientRequest, res: IncomingMessage, { maxBytes, watch }: Pending): void {
  const cut = (reason: string): void => {
    watch.refused = reason;
    const error = new Error(`response body cut by the harness: ${reason}`);
    res.destroy(error);
    request.destroy(error);
  };
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    cut(`response body of ${declared} bytes (Content-Length) exceeds the ${maxBytes}-byte limit`);
    return;
  }
  const encoding = res.headers['content-encoding'];
  if (typeof encoding === 'string' && encoding.trim() !== '') {
    watch.encoding = encoding.trim().toLowerCase();
    delete res.headers['content-encoding'];
  }
  let size = 0;
  res.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > maxBytes && watch.refused === undefined) cut(`response body exceeded the ${maxBytes}-byte limit`);
  });
}

/** Registers the next request `method url` Playwright sends; call `done()` when the exchange is over. */
export function watchBody(method: string, url: string, maxBytes: number): BodyWatch {
  if (!subscribed) {
    subscribe('http.client.request.start', onStart);
    subscribed = true;
  }
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  const key = parsed ? keyOf(method, parsed.host, `${parsed.pathname}${parsed.search}`) : undefined;
  const watch: BodyWatch = {
    done() {
      if (!key) return;
      const list = pending.get(key);
      const i = list?.indexOf(entry) ?? -1;
      if (list && i >= 0) list.splice(i, 1);
      if (list?.length === 0) pending.delete(key);
    },
  };
  const entry: Pending = { maxBytes, watch };
  if (key) pending.set(key, [...(pending.get(key) ?? []), entry]);
  return watch;
}

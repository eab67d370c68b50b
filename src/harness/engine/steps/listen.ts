/**
 * `listen`: a bounded HTTP listener on the harness's loopback (127.0.0.1, port 0), for callback checks such
 * as "no events are delivered to a registered webhook URL". Every request is recorded as
 * {method, path, headers, body} and answered 204. `as` gets {url, requests}; `requests` grows while the
 * listener runs, so later expressions (`wait` until, `expect` where) see what has arrived so far.
 *
 * A loopback URL is reachable only by a target on the harness's own host, so the step refuses any other
 * target (FTF_E_CAPABILITY_MISSING) rather than letting a "nothing arrived" check pass vacuously.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ListenStep } from '../../scenario/types.js';
import { ENGINE_ERROR_CODES, StepError } from '../errors.js';
import type { StepHandler } from '../types.js';

const DEFAULT_MAX_MS = 30_000;
/** Bounds of what one listener keeps: callbacks are counted, not archived. */
const MAX_REQUESTS = 1000;
const MAX_BODY_CHARS = 64 * 1024;

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** True when the target's base_url is on this host's loopback, i.e. it can call 127.0.0.1 back. */
export function targetOnLoopback(baseUrl: string): boolean {
  const host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export const listenStep: StepHandler<ListenStep> = {
  kind: 'listen',
  title: (s) => `listen on 127.0.0.1 → ${s.listen.as}`,
  async run(step, ctx) {
    const baseUrl = ctx.engine.target.baseUrl;
    if (!targetOnLoopback(baseUrl)) {
      throw new StepError(ENGINE_ERROR_CODES.capability, `target ${ctx.redact(baseUrl)} is not on the harness's loopback, so it cannot reach a callback listener on 127.0.0.1`, {
        at: ctx.location,
        hint: 'callback checks run only against a target on the same host as the harness (e.g. the embedded reference server)',
      });
    }
    const requests: ReceivedRequest[] = [];
    const server = createServer((req, res) => {
      collect(req, (body) => {
        if (requests.length < MAX_REQUESTS) requests.push({ method: req.method ?? '', path: req.url ?? '', headers: flatHeaders(req), body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const close = once(() => stop(server));
    const timer = setTimeout(() => void close(), step.listen.max_ms ?? DEFAULT_MAX_MS);
    timer.unref();
    ctx.defer(async () => {
      clearTimeout(timer);
      await close();
    });
    const { port } = server.address() as AddressInfo;
    ctx.vars[step.listen.as] = { url: `http://127.0.0.1:${port}/ftf-callback/${encodeURIComponent(ctx.engine.runId)}`, requests };
  },
};

function collect(req: IncomingMessage, done: (body: string) => void): void {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => {
    if (body.length < MAX_BODY_CHARS) body += chunk.slice(0, MAX_BODY_CHARS - body.length);
  });
  req.on('end', () => done(body));
  req.on('error', () => done(body));
}

function flatHeaders(req: IncomingMessage): Record<string, string> {
  return Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => (done ??= fn());
}

function stop(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

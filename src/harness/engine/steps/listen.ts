/**
 * `listen`: a bounded HTTP listener (port 0) for callback checks such as "no events are delivered to a
 * registered webhook URL". It binds and advertises the profile's `callback_host` (an address of the
 * harness's machine that the target can reach), else 127.0.0.1. Every request is recorded as
 * {method, path, headers, body} and answered 204. `as` gets {url, requests}; `requests` grows while the
 * listener runs, so later expressions (`wait` until, `expect` where) see what has arrived so far.
 *
 * A loopback URL is reachable only by a target on the harness's own host, so without callback_host the step
 * refuses any other target (FTF_E_CAPABILITY_MISSING; the `callback` capability, which scenarios declare in
 * `needs`, makes them skip instead) rather than letting a "nothing arrived" check pass vacuously.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ListenStep } from '../../scenario/types.js';
import { isLoopbackUrl } from '../../target/capabilities.js';
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
  return isLoopbackUrl(baseUrl);
}

/** Where the listener binds and what its URL says: the profile's callback_host, else loopback. */
export function callbackAddress(target: { callbackHost?: string }): { bind: string; urlHost: string } {
  const host = target.callbackHost?.trim() || '127.0.0.1';
  const bare = host.replace(/^\[|\]$/g, '');
  return { bind: bare, urlHost: bare.includes(':') ? `[${bare}]` : bare };
}

export const listenStep: StepHandler<ListenStep> = {
  kind: 'listen',
  title: (s) => `listen for callbacks → ${s.listen.as}`,
  async run(step, ctx) {
    const target = ctx.engine.target;
    if (!target.callbackHost && !targetOnLoopback(target.baseUrl)) {
      throw new StepError(ENGINE_ERROR_CODES.capability, `target ${ctx.redact(target.baseUrl)} is not on the harness's loopback and the profile sets no callback_host, so it cannot reach a callback listener`, {
        at: ctx.location,
        hint: 'set callback_host in the target profile to an address of this machine the target can reach (gives the callback capability), or declare needs: [callback] so the scenario is skipped',
      });
    }
    const { bind, urlHost } = callbackAddress(target);
    const requests: ReceivedRequest[] = [];
    const server = createServer((req, res) => {
      collect(req, (body) => {
        if (requests.length < MAX_REQUESTS) requests.push({ method: req.method ?? '', path: req.url ?? '', headers: flatHeaders(req), body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, bind, () => resolve());
    });
    const close = once(() => stop(server));
    const timer = setTimeout(() => void close(), step.listen.max_ms ?? DEFAULT_MAX_MS);
    timer.unref();
    ctx.defer(async () => {
      clearTimeout(timer);
      await close();
    });
    const { port } = server.address() as AddressInfo;
    ctx.vars[step.listen.as] = { url: `http://${urlHost}:${port}/ftf-callback/${encodeURIComponent(ctx.engine.runId)}`, requests };
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

/**
 * The hostile stub: an FTF "target" that misbehaves in one chosen way on every route (token endpoint, API,
 * consent, sandbox control). node:http on 127.0.0.1, port 0. Used by the hostile suite to prove that the
 * harness ends every scenario with a readable failure within its bound, whatever the target does.
 *
 * Modes that need a working token endpoint to reach their misbehaviour (paging-loop) hand out a usable
 * token whose response is still off-spec (expires_in as a string), so no token scenario can pass either.
 * Every other route in those modes answers 503 with a JSON detail.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export const HOSTILE_MODES = [
  'hang-after-headers',
  'never-answers',
  'reset',
  'html-502',
  'non-json-200',
  'huge-body',
  'paging-loop',
  'expires-in-0',
  'slow-drip',
] as const;
export type HostileMode = (typeof HOSTILE_MODES)[number];

export const HUGE_BODY_BYTES = 10 * 1024 * 1024;

export interface HostileStub {
  mode: HostileMode;
  /** http://127.0.0.1:PORT (auth_url); base_url = url + /api/v1; control_url = url + /_sandbox. */
  url: string;
  /** Requests seen, by "METHOD /path" (query left out). */
  readonly seen: Map<string, number>;
  close(): Promise<void>;
}

export interface StubOptions {
  /** Milliseconds between two bytes in slow-drip mode (default 250). */
  dripIntervalMs?: number;
}

const json = (res: ServerResponse, status: number, body: unknown): void => {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
};

export async function startHostileStub(mode: HostileMode, opts: StubOptions = {}): Promise<HostileStub> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const seen = new Map<string, number>();
  const dripMs = opts.dripIntervalMs ?? 250;

  // 503 for every route a mode does not serve: a status no scenario expects, and a 5xx, so "never 5xx" checks fail too.
  const unserved = (res: ServerResponse, path: string): void => json(res, 503, { detail: `hostile stub (${mode}): ${path} is not served` });

  function hugeBody(res: ServerResponse, withLength: boolean): void {
    res.writeHead(200, { 'content-type': 'application/json', ...(withLength ? { 'content-length': HUGE_BODY_BYTES } : {}) });
    const chunk = Buffer.alloc(64 * 1024, 0x61); // 'a': never valid JSON, never a secret
    let sent = 0;
    const pump = (): void => {
      while (sent < HUGE_BODY_BYTES) {
        sent += chunk.length;
        if (!res.write(chunk)) {
          res.once('drain', pump);
          return;
        }
      }
      res.end();
    };
    pump();
  }

  function drip(res: ServerResponse): void {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.flushHeaders();
    const body = Buffer.from(JSON.stringify({ status: 'OK', padding: 'x'.repeat(4096) }));
    let i = 0;
    const timer = setInterval(() => {
      if (i >= body.length || res.destroyed) {
        clearInterval(timer);
        timers.delete(timer);
        if (!res.destroyed) res.end();
        return;
      }
      res.write(body.subarray(i, i + 1));
      i++;
    }, dripMs);
    timers.add(timer);
  }

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const path = new URL(req.url ?? '/', 'http://stub').pathname;
    const key = `${req.method} ${path}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
    const isToken = path === '/oauth/token';
    switch (mode) {
      case 'hang-after-headers':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.flushHeaders();
        return; // the body never comes
      case 'never-answers':
        return; // not even a status line
      case 'reset':
        req.socket.resetAndDestroy();
        return;
      case 'html-502': {
        const page = '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>';
        res.writeHead(502, { 'content-type': 'text/html' });
        res.end(page);
        return;
      }
      case 'non-json-200':
        // The token endpoint says text/plain; the API claims JSON but sends a cut-off document.
        res.writeHead(200, { 'content-type': isToken ? 'text/plain' : 'application/json' });
        res.end(isToken ? 'OK' : '{"events": [{"uid": "e1", ');
        return;
      case 'huge-body':
        hugeBody(res, isToken);
        return;
      case 'slow-drip':
        drip(res);
        return;
      case 'expires-in-0':
        if (isToken) return json(res, 200, { access_token: randomBytes(24).toString('hex'), token_type: 'Bearer', expires_in: 0 });
        return unserved(res, path);
      case 'paging-loop':
        if (isToken) return json(res, 200, { access_token: randomBytes(24).toString('hex'), token_type: 'Bearer', expires_in: '3600' });
        if (req.method === 'GET' && path === '/api/v1/event') {
          const limit = Number(new URL(req.url ?? '/', 'http://stub').searchParams.get('limit') ?? 1000);
          return json(res, 200, {
            events: [],
            pageInfo: { hasNextPage: true, limit: Number.isInteger(limit) ? limit : 1000, startCursor: 'loop', endCursor: 'loop', pageEndCursor: 'loop', totalCount: null },
          });
        }
        return unserved(res, path);
    }
  }

  const server = createServer((req, res) => {
    // Drain request bodies so keep-alive sockets stay usable for the modes that do answer.
    req.resume();
    try {
      handle(req, res);
    } catch {
      req.socket.destroy();
    }
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  // Hanging modes must hang for longer than any harness bound, not be cut by Node's own server timeouts.
  server.requestTimeout = 0;
  server.headersTimeout = 0;
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    mode,
    url: `http://127.0.0.1:${port}`,
    seen,
    async close() {
      for (const t of timers) clearInterval(t);
      timers.clear();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}

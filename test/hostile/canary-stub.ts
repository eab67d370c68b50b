/**
 * The canary stub: a target whose token endpoint issues real-looking tokens (captured here, so the canary
 * search knows them) and whose API answers each request with the next of four failures that make
 * Playwright's request error carry its call log (request headers, Authorization included):
 * a stalled body, an endless chunked body, a gzip bomb, and a redirect to another origin (a second loopback
 * server that records what it receives). Token requests of the `second` and `readonly` clients stall.
 * node:http on 127.0.0.1, port 0.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';

export const API_BEHAVIOURS = ['stalled-body', 'endless-chunked', 'gzip-bomb', 'cross-origin-redirect'] as const;
export type CanaryBehaviour = (typeof API_BEHAVIOURS)[number] | 'token-issued' | 'token-stall';
/** Clients whose token request never gets an answer. */
const STALLED_CLIENTS = new Set(['hostile-second', 'hostile-readonly']);
/** Decompressed size of the bomb: far over any body cap, 64 KiB on the wire. */
export const BOMB_BYTES = 64 * 1024 * 1024;

export interface CanaryStub {
  url: string;
  /** The other origin the redirect points at. */
  otherUrl: string;
  /** Access/refresh tokens issued (the canaries obtained during the run). */
  readonly issued: string[];
  readonly served: Set<CanaryBehaviour>;
  /** Requests the other origin received, with their headers. */
  readonly crossOrigin: Array<{ path: string; headers: Record<string, string | string[] | undefined> }>;
  close(): Promise<void>;
}

interface Tracked {
  server: Server;
  sockets: Set<Socket>;
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Tracked & { url: string }> {
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    req.resume();
    handler(req, res);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.requestTimeout = 0;
  server.headersTimeout = 0;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, sockets, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function clientOf(req: IncomingMessage, body: string): string | undefined {
  const auth = req.headers.authorization ?? '';
  const m = /^Basic\s+(\S+)$/i.exec(auth);
  if (m?.[1]) return Buffer.from(m[1], 'base64').toString('utf8').split(':')[0];
  return new URLSearchParams(body).get('client_id') ?? undefined;
}

export async function startCanaryStub(): Promise<CanaryStub> {
  const issued: string[] = [];
  const served = new Set<CanaryBehaviour>();
  const crossOrigin: CanaryStub['crossOrigin'] = [];
  const timers = new Set<NodeJS.Timeout>();
  const bomb = gzipSync(Buffer.alloc(BOMB_BYTES, 0x20));
  let next = 0;

  const other = await listen((req, res) => {
    crossOrigin.push({ path: req.url ?? '/', headers: { ...req.headers } });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"status":"OK"}');
  });

  function api(req: IncomingMessage, res: ServerResponse): void {
    const behaviour = API_BEHAVIOURS[next++ % API_BEHAVIOURS.length] as (typeof API_BEHAVIOURS)[number];
    served.add(behaviour);
    switch (behaviour) {
      case 'stalled-body':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': 4096 });
        res.write('{"status": "OK", "padding": "');
        return; // the rest never comes
      case 'endless-chunked': {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('[');
        const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write('{"uid": "e1"},')), 20);
        timers.add(timer);
        return;
      }
      case 'gzip-bomb':
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': bomb.length });
        res.end(bomb);
        return;
      case 'cross-origin-redirect':
        res.writeHead(307, { location: `${other.url}${req.url ?? '/'}` });
        res.end();
        return;
    }
  }

  const main = await listen((req, res) => {
    const path = new URL(req.url ?? '/', 'http://stub').pathname;
    if (path !== '/oauth/token') return api(req, res);
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString('utf8')));
    req.on('end', () => {
      if (STALLED_CLIENTS.has(clientOf(req, body) ?? '')) {
        served.add('token-stall');
        return; // never answered
      }
      const access = randomBytes(24).toString('base64url');
      const refresh = randomBytes(24).toString('base64url');
      issued.push(access, refresh);
      served.add('token-issued');
      const text = JSON.stringify({ access_token: access, refresh_token: refresh, token_type: 'Bearer', expires_in: 3600 });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    });
  });

  const close = async (t: Tracked): Promise<void> => {
    const closed = new Promise<void>((r) => t.server.close(() => r()));
    for (const s of t.sockets) s.destroy();
    await closed;
  };
  return {
    url: main.url,
    otherUrl: other.url,
    issued,
    served,
    crossOrigin,
    async close() {
      for (const t of timers) clearInterval(t);
      await Promise.all([close(main), close(other)]);
    },
  };
}

/**
 * A loopback recording proxy for self-tests: forwards every request to `upstream` (an http://127.0.0.1 origin)
 * and hands the raw exchange (method, path, request body, status, response body) to `onExchange`. The
 * guard test counts writes with it; the secret-hygiene test captures the tokens and verifiers of a run with
 * it (the reference keeps only token hashes). Raw exchanges are secrets: callers keep them in memory or in a
 * private (0600) file, never print them. `onExchange` may return a string: the client then gets that body
 * instead (same status and headers), e.g. one broken page in the middle of a long walk.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface RawExchange {
  method: string;
  /** Path with query, as received. */
  url: string;
  requestBody: string;
  status: number;
  responseBody: string;
  responseHeaders: IncomingHttpHeaders;
}

export interface LoopbackProxy {
  url: string;
  close(): Promise<void>;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export async function startLoopbackProxy(upstream: string, onExchange: (x: RawExchange) => void | string): Promise<LoopbackProxy> {
  const target = new URL(upstream);
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readAll(req);
      const headers = { ...req.headers, host: target.host };
      delete headers.connection;
      const out = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (up) => {
        void readAll(up).then((upBody) => {
          const replaced = onExchange({
            method: req.method ?? 'GET',
            url: req.url ?? '/',
            requestBody: body.toString('utf8'),
            status: up.statusCode ?? 0,
            responseBody: upBody.toString('utf8'),
            responseHeaders: up.headers,
          });
          const resBody = typeof replaced === 'string' ? Buffer.from(replaced) : upBody;
          const h = { ...up.headers };
          delete h.connection;
          delete h['transfer-encoding'];
          h['content-length'] = String(resBody.length);
          res.writeHead(up.statusCode ?? 502, h);
          res.end(resBody);
        });
      });
      out.on('error', () => res.destroy());
      out.end(body);
    })().catch(() => res.destroy());
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}

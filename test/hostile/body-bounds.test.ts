/**
 * Bounds on every transport (issue 29 item 4): a gzip bomb (512 MiB of JSON-ish text inflating from ~0.5 MiB on
 * the wire) and a response declaring a 2 GB Content-Length, through the undici transport AND the Playwright
 * transport (APIRequestContext, which has no size option of its own: playwright-body-bound.ts). Each ends with
 * FTF_E_TARGET_BODY_TOO_LARGE (or, for undici, which never inflates, a body that is not JSON), the process's
 * memory grows by far less than the bomb, the oversized Content-Length is refused on its headers (long before the
 * request bound), and the same transport then serves a normal gzip-encoded answer: the run goes on.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createGzip, gzipSync } from 'node:zlib';
import { request as playwrightRequest, type APIRequestContext } from '@playwright/test';
import { createPlaywrightTransport } from '../../src/harness/http/playwright-transport.js';
import { createUndiciTransport } from '../../src/harness/http/undici-transport.js';
import type { HttpRequest, Transport } from '../../src/harness/http/types.js';
import { FtfError } from '../../src/shared/errors.js';

const BOMB_BYTES = 512 * 1024 * 1024;
const REQUEST_MS = 20_000;
/** Far below the bomb: a transport that holds the inflated body (or half of it) cannot stay under it. */
const RSS_GROWTH_LIMIT = 192 * 1024 * 1024;

async function gzipBomb(): Promise<Buffer> {
  const gzip = createGzip({ level: 9 });
  const chunks: Buffer[] = [];
  gzip.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise((resolve) => gzip.on('end', resolve));
  const block = Buffer.alloc(1024 * 1024, 0x20);
  gzip.write('{"padding": "');
  for (let i = 0; i < BOMB_BYTES / block.length; i++) if (!gzip.write(block)) await new Promise((r) => gzip.once('drain', r));
  gzip.end('"}');
  await done;
  return Buffer.concat(chunks);
}

let server: Server;
let url: string;
const sockets = new Set<Socket>();
let bomb: Buffer;

before(async () => {
  bomb = await gzipBomb();
  const ok = gzipSync(JSON.stringify({ status: 'OK' }));
  server = createServer((req, res) => {
    req.resume();
    if (req.url === '/bomb') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': bomb.length });
      res.end(bomb);
    } else if (req.url === '/declared') {
      // 2 GB announced, 1 KiB sent, then nothing: a reader that waits for the body waits for its whole bound.
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(2 * 1024 ** 3) });
      res.write(Buffer.alloc(1024, 0x20));
    } else {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': ok.length });
      res.end(ok);
    }
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => server.close(r));
});

const get = (path: string): HttpRequest => ({ method: 'GET', url: `${url}${path}`, headers: { accept: 'application/json' }, timeoutMs: REQUEST_MS });

/** Peak RSS growth while `fn` runs (sampled every 10 ms). */
async function peakGrowth<T>(fn: () => Promise<T>): Promise<{ result: PromiseSettledResult<T>; growth: number }> {
  global.gc?.();
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const result = await Promise.allSettled([fn()]).then((r) => r[0] as PromiseSettledResult<T>);
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  return { result, growth: peak - base };
}

const transports: Array<{ name: string; open: () => Promise<{ transport: Transport; close: () => Promise<void> }> }> = [
  { name: 'undici', open: async () => {
    const transport = createUndiciTransport();
    return { transport, close: async () => transport.dispose?.() };
  } },
  { name: 'playwright', open: async () => {
    const context: APIRequestContext = await playwrightRequest.newContext();
    return { transport: createPlaywrightTransport(context), close: () => context.dispose() };
  } },
];

describe('body bounds on both transports', () => {
  for (const t of transports) {
    it(`${t.name}: a gzip bomb is bounded, an oversized Content-Length refused up front, and the transport goes on`, { timeout: 120_000 }, async () => {
      const { transport, close } = await t.open();
      try {
        const bombed = await peakGrowth(() => transport.send(get('/bomb')));
        assert.ok(bombed.growth < RSS_GROWTH_LIMIT, `memory grew by ${Math.round(bombed.growth / 2 ** 20)} MiB for a ${BOMB_BYTES / 2 ** 20} MiB bomb (limit ${RSS_GROWTH_LIMIT / 2 ** 20} MiB)`);
        if (bombed.result.status === 'rejected') {
          const e = bombed.result.reason as unknown;
          assert.ok(e instanceof FtfError && e.code === 'FTF_E_TARGET_BODY_TOO_LARGE', `a typed body-size error (got ${String(e)})`);
          assert.match(e.message, /^GET http:\/\/127\.0\.0\.1:\d+\/bomb: .*limit/, 'the message names the request and the limit');
        } else {
          // undici never inflates: the encoded bytes arrive as they are, bounded by the wire size, and are no JSON.
          assert.equal(t.name, 'undici', 'only a transport that does not inflate may answer');
          assert.ok(bombed.result.value.bodyText.length <= bomb.length + 16 && bombed.result.value.json === undefined);
        }

        const started = Date.now();
        await assert.rejects(transport.send(get('/declared')), (e: unknown) => e instanceof FtfError && e.code === 'FTF_E_TARGET_BODY_TOO_LARGE' && /2147483648 bytes/.test(e.message), 'refused on its Content-Length');
        assert.ok(Date.now() - started < REQUEST_MS / 2, `refused up front (${Date.now() - started} ms), not after waiting for the body`);

        const ok = await transport.send(get('/ok'));
        assert.equal(ok.status, 200);
        if (t.name === 'playwright') assert.deepEqual(ok.json, { status: 'OK' }, 'a normal gzip answer is decoded');
      } finally {
        await close();
      }
    });
  }
});

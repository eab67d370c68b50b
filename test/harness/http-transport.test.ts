import assert from 'node:assert/strict';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { request as playwrightRequest, type APIRequestContext } from '@playwright/test';
import { reach } from '../../src/cli/target.js';
import { FtfError } from '../../src/shared/errors.js';
import { createPlaywrightTransport } from '../../src/harness/http/playwright-transport.js';
import { createUndiciTransport } from '../../src/harness/http/undici-transport.js';
import type { HttpRequest, Transport } from '../../src/harness/http/types.js';
import { startStub, type StubServer } from './http-stub-server.js';

let stub: StubServer;
let garbageUrl: string;
let closeGarbage: () => Promise<void>;
let closedPortUrl: string;
let overflowUrl: string;
let closeOverflow: () => Promise<void>;

before(async () => {
  stub = await startStub((req, res, raw) => {
    const path = req.url.split('?')[0];
    switch (path) {
      case '/json':
        res.writeHead(200, { 'content-type': 'application/json', 'X-Custom': 'yes' });
        return void res.end('{"a":1,"b":"x"}');
      case '/array-no-type':
        res.writeHead(200);
        return void res.end('[1,2]');
      case '/html':
        res.writeHead(200, { 'content-type': 'text/html' });
        return void res.end('<html>hi</html>');
      case '/bad-json':
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end('{"a":');
      case '/echo':
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify({ method: req.method, body: req.body, type: req.headers['content-type'] ?? null }));
      case '/redirect':
        res.writeHead(302, { location: '/target' });
        return void res.end();
      case '/hang':
        return; // never answers
      case '/stall':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"partial":');
        return; // headers and some body, then nothing
      case '/reset':
        return void raw.socket.destroy();
      case '/big': {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = 'x'.repeat(16 * 1024);
        for (let i = 0; i < 20; i++) res.write(chunk);
        return void res.end();
      }
      case '/big-declared':
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(300 * 1024) });
        return void res.end('x'.repeat(300 * 1024));
      default:
        res.writeHead(404, { 'content-type': 'application/json' });
        return void res.end('{"detail":"Not Found"}');
    }
  });
  const garbage = track(createNetServer((socket) => socket.end('THIS IS NOT HTTP\r\n\r\n')));
  await new Promise<void>((r) => garbage.listen(0, '127.0.0.1', r));
  garbageUrl = `http://127.0.0.1:${(garbage.address() as AddressInfo).port}/`;
  closeGarbage = () => closeNetServer(garbage);
  // Answers at once, with a status line and a header too large for any HTTP client (200 KB).
  const overflow = track(createNetServer((socket) => {
    socket.on('error', () => undefined);
    socket.once('data', () => socket.end(`HTTP/1.1 200 OK\r\nX-Runaway: ${'a'.repeat(200_000)}\r\nContent-Length: 2\r\n\r\n{}`));
  }));
  await new Promise<void>((r) => overflow.listen(0, '127.0.0.1', r));
  overflowUrl = `http://127.0.0.1:${(overflow.address() as AddressInfo).port}/`;
  closeOverflow = () => closeNetServer(overflow);
  const closed = createNetServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  closedPortUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/`;
  await new Promise<void>((r) => closed.close(() => r()));
});

after(async () => {
  await stub.close();
  await closeGarbage();
  await closeOverflow();
});

/** Closes a raw server without waiting for clients that keep a half-closed connection open. */
function closeNetServer(server: NetServer): Promise<void> {
  return new Promise((r) => {
    server.close(() => r());
    for (const socket of sockets.get(server) ?? []) socket.destroy();
  });
}
const sockets = new WeakMap<NetServer, Set<Socket>>();
function track(server: NetServer): NetServer {
  const set = new Set<Socket>();
  sockets.set(server, set);
  server.on('connection', (socket: Socket) => {
    set.add(socket);
    socket.on('close', () => set.delete(socket));
  });
  return server;
}

const get = (url: string, extra: Partial<HttpRequest> = {}): HttpRequest => ({ method: 'GET', url, headers: {}, timeoutMs: 5000, ...extra });

async function failure(p: Promise<unknown>): Promise<FtfError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof FtfError, `expected FtfError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected the exchange to fail');
}

function transportSuite(name: string, make: () => Promise<{ transport: Transport; close: () => Promise<void> }>) {
  describe(`${name} transport`, () => {
    let transport: Transport;
    let close: () => Promise<void>;
    before(async () => ({ transport, close } = await make()));
    after(async () => close());

    it('parses JSON and lower-cases header names', async () => {
      const res = await transport.send(get(`${stub.url}/json`));
      assert.equal(res.status, 200);
      assert.deepEqual(res.json, { a: 1, b: 'x' });
      assert.equal(res.headers['x-custom'], 'yes');
      assert.equal(res.jsonError, undefined);
      assert.ok(res.durationMs >= 0);
    });

    it('parses a body that starts like JSON even without content-type', async () => {
      assert.deepEqual((await transport.send(get(`${stub.url}/array-no-type`))).json, [1, 2]);
    });

    it('non-JSON body: json undefined and jsonError set', async () => {
      const res = await transport.send(get(`${stub.url}/html`));
      assert.equal(res.json, undefined);
      assert.equal(res.bodyText, '<html>hi</html>');
      assert.match(res.jsonError ?? '', /not JSON.*text\/html/);
      const bad = await transport.send(get(`${stub.url}/bad-json`));
      assert.equal(bad.json, undefined);
      assert.match(bad.jsonError ?? '', /invalid JSON/);
    });

    it('sends method, headers and body as given', async () => {
      const res = await transport.send({ method: 'POST', url: `${stub.url}/echo`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=1&b=2', timeoutMs: 5000 });
      assert.deepEqual(res.json, { method: 'POST', body: 'a=1&b=2', type: 'application/x-www-form-urlencoded' });
    });

    it('sends a JSON-typed body byte for byte, even when it is not valid JSON', async () => {
      for (const body of ['{"amount": ', 'plain text', '"quoted"']) {
        const res = await transport.send({ method: 'POST', url: `${stub.url}/echo`, headers: { 'content-type': 'application/json' }, body, timeoutMs: 5000 });
        assert.equal((res.json as { body: string }).body, body);
      }
    });

    it('never follows redirects', async () => {
      const before = stub.requests.filter((r) => r.url === '/target').length;
      const res = await transport.send(get(`${stub.url}/redirect`));
      assert.equal(res.status, 302);
      assert.equal(res.headers.location, '/target');
      assert.equal(stub.requests.filter((r) => r.url === '/target').length, before);
    });

    it('times out within the bound when no response comes', async () => {
      const started = Date.now();
      const err = await failure(transport.send(get(`${stub.url}/hang`, { timeoutMs: 300 })));
      assert.equal(err.code, 'FTF_E_TARGET_TIMEOUT');
      assert.match(err.message, new RegExp(`^GET ${stub.url}/hang: .*300 ms`));
      assert.ok(Date.now() - started < 4000, 'bounded');
    });

    it('times out when the body stalls after the headers', async () => {
      const err = await failure(transport.send(get(`${stub.url}/stall`, { timeoutMs: 300 })));
      assert.equal(err.code, 'FTF_E_TARGET_TIMEOUT');
    });

    it('maps a connection reset', async () => {
      const err = await failure(transport.send(get(`${stub.url}/reset`)));
      assert.equal(err.code, 'FTF_E_TARGET_RESET');
      assert.match(err.message, /\/reset/);
    });

    it('maps a refused connection to unreachable', async () => {
      const err = await failure(transport.send(get(closedPortUrl)));
      assert.equal(err.code, 'FTF_E_TARGET_UNREACHABLE');
      assert.ok(err.hint?.includes('base_url'));
    });

    it('refuses bodies over maxBodyBytes (streamed and declared)', async () => {
      const streamed = await failure(transport.send(get(`${stub.url}/big`, { maxBodyBytes: 100 * 1024 })));
      assert.equal(streamed.code, 'FTF_E_TARGET_BODY_TOO_LARGE');
      assert.match(streamed.message, /102400-byte limit/);
      const declared = await failure(transport.send(get(`${stub.url}/big-declared`, { maxBodyBytes: 100 * 1024 })));
      assert.equal(declared.code, 'FTF_E_TARGET_BODY_TOO_LARGE');
      // under the limit it is fine
      const ok = await transport.send(get(`${stub.url}/big`, { maxBodyBytes: 1024 * 1024 }));
      assert.equal(ok.bodyText.length, 20 * 16 * 1024);
    });

    it('maps a non-HTTP answer to a protocol error', async () => {
      const err = await failure(transport.send(get(garbageUrl)));
      assert.equal(err.code, 'FTF_E_TARGET_PROTOCOL');
    });

    it('a header overflow is the target answering malformed, not unreachable', async () => {
      const err = await failure(transport.send(get(overflowUrl)));
      assert.equal(err.code, 'FTF_E_TARGET_MALFORMED');
      assert.match(err.message, /^GET http:\/\/127\.0\.0\.1:\d+\/: the target answered, but its response headers are too large to read/);
      assert.doesNotMatch(err.hint ?? '', /base_url/);
    });
  });
}

describe('reachability probe (ftf-conformance run / doctor)', () => {
  it('a target whose headers overflow answered: reachable, named malformed, not unreachable', async () => {
    const r = await reach(overflowUrl);
    assert.equal(r.ok, true, r.error);
    assert.equal(r.malformed, 'UND_ERR_HEADERS_OVERFLOW');
  });

  it('any answer is reachable (a 404, a redirect not followed); a refused port, a silent server and non-HTTP bytes are not', async () => {
    const notFound = await reach(`${stub.url}/nothing-here`);
    assert.deepEqual([notFound.ok, notFound.status, typeof notFound.date], [true, 404, 'string']);
    const redirect = await reach(`${stub.url}/redirect`);
    assert.deepEqual([redirect.ok, redirect.status], [true, 302]);
    const refused = await reach(closedPortUrl);
    assert.deepEqual([refused.ok, refused.error], [false, 'ECONNREFUSED']);
    const silent = await reach(`${stub.url}/hang`, 300);
    assert.deepEqual([silent.ok, silent.error], [false, 'no answer within 300 ms']);
    const garbage = await reach(garbageUrl);
    assert.equal(garbage.ok, false);
    assert.match(garbage.error ?? '', /HTTP/, 'named as not HTTP');
  });
});

transportSuite('undici', async () => {
  const transport = createUndiciTransport();
  return { transport, close: async () => transport.dispose?.() };
});

transportSuite('playwright', async () => {
  const context: APIRequestContext = await playwrightRequest.newContext();
  return { transport: createPlaywrightTransport(context), close: () => context.dispose() };
});

/**
 * src/harness/http/undici-parts.ts: undici's Agent, Client and request loaded by file are undici's own (the same
 * classes its index exports), `request` sends what undici's `request` sends, and loading them leaves fetch,
 * WebSocket and the mocks unloaded.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createServer, type IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { after, test } from 'node:test';
import type * as Undici from 'undici';
import { Agent, Client, request } from '../../src/harness/http/undici-parts.js';

const undici = createRequire(import.meta.url)('undici') as typeof Undici;

const seen: Array<{ method?: string; url?: string; body: string; header?: string }> = [];
const server = createServer((req: IncomingMessage, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    seen.push({ method: req.method, url: req.url, body, header: req.headers['x-probe'] as string | undefined });
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ ok: true }));
  });
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const agent = new Agent();
after(async () => {
  await agent.close();
  server.close();
});

test("the parts are undici's own classes", () => {
  assert.equal(Agent, undici.Agent);
  assert.equal(Client, undici.Client);
});

test("request sends what undici's request sends: method, path and query, headers, body", async () => {
  for (const send of [request, undici.request] as const) {
    const res = await send(`${base}/api/v1/events?after=a%2Fb&limit=2`, { dispatcher: agent, method: 'POST', headers: { 'x-probe': 'p' }, body: '{"a":1}' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(await res.body.json(), { ok: true });
  }
  assert.deepEqual(seen[0], seen[1]);
  assert.deepEqual(seen[0], { method: 'POST', url: '/api/v1/events?after=a%2Fb&limit=2', body: '{"a":1}', header: 'p' });
});

test("loading the parts leaves undici's index (fetch, WebSocket, mocks) unloaded", () => {
  const parts = new URL('../../src/harness/http/undici-parts.ts', import.meta.url).href;
  const script = `import { createRequire } from 'node:module'; await import(${JSON.stringify(parts)});
    const loaded = Object.keys(createRequire(import.meta.url).cache).filter((f) => f.includes('/undici/'));
    console.log(JSON.stringify({ count: loaded.length, index: loaded.some((f) => f.endsWith('/undici/index.js')), fetch: loaded.some((f) => f.includes('/lib/web/')) }));`;
  const out = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(out.status, 0, out.stderr);
  const loaded = JSON.parse(out.stdout) as { count: number; index: boolean; fetch: boolean };
  assert.equal(loaded.index, false);
  assert.equal(loaded.fetch, false);
  assert.ok(loaded.count < 40, `${loaded.count} modules`);
});

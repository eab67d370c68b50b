import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { FtfError } from '../../src/shared/errors.js';
import { RecordingTransport } from '../../src/harness/http/recorder.js';
import { Redactor } from '../../src/harness/http/redactor.js';
import { harSink, memorySink } from '../../src/harness/http/sinks.js';
import type { Exchange, HttpRequest, Transport } from '../../src/harness/http/types.js';
import { createUndiciTransport } from '../../src/harness/http/undici-transport.js';
import { json, startStub, type StubServer } from './http-stub-server.js';

const CLIENT_SECRET = 'client-secret-canary-7f3a';
const ISSUED_TOKEN = 'issued-access-token-canary-91b2';
const ISSUED_REFRESH = 'issued-refresh-token-canary-55c0';
const BASIC = Buffer.from(`cc-alice:${CLIENT_SECRET}`).toString('base64');

let stub: StubServer;
let inner: Transport;
const dir = mkdtempSync(join(tmpdir(), 'ftf-rec-'));

before(async () => {
  stub = await startStub((req, res) => {
    if (req.url === '/oauth/token') return json(res, 200, { access_token: ISSUED_TOKEN, refresh_token: ISSUED_REFRESH, expires_in: 3600 });
    if (req.url === '/big') return json(res, 200, { blob: 'y'.repeat(5000), token: ISSUED_TOKEN });
    if (req.url.startsWith('/hang')) return;
    // echoes the caller's Authorization back in the body: a careless target leaking it
    return json(res, 200, { seen: req.headers.authorization ?? null }, { 'set-cookie': 'session=abcdef123456' });
  });
  inner = createUndiciTransport();
});
after(async () => {
  await inner.dispose?.();
  await stub.close();
  rmSync(dir, { recursive: true, force: true });
});

function tokenRequest(): HttpRequest {
  return {
    method: 'POST',
    url: `${stub.url}/oauth/token`,
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${BASIC}` },
    body: `grant_type=client_credentials&client_id=cc-alice&client_secret=${CLIENT_SECRET}`,
    timeoutMs: 5000,
  };
}

function setup(extraSinks: Array<{ onExchange(x: Exchange): void | Promise<void> }> = []) {
  const redactor = new Redactor();
  redactor.addBasicCredentials('cc-alice', CLIENT_SECRET, 'FTF_PRIMARY_CLIENT_SECRET');
  const mem = memorySink();
  const recorder = new RecordingTransport(inner, redactor, [...extraSinks, mem]);
  return { redactor, mem, recorder };
}

describe('RecordingTransport', () => {
  it('returns the real response but records a redacted exchange with timing and label', async () => {
    const { mem, recorder } = setup();
    const res = await recorder.send(tokenRequest(), 'token for primary');
    assert.equal((res.json as { access_token: string }).access_token, ISSUED_TOKEN, 'the caller gets the raw token');
    const [x] = mem.exchanges;
    assert.ok(x);
    assert.equal(x.id, 1);
    assert.equal(x.label, 'token for primary');
    assert.ok(x.durationMs >= 0 && !Number.isNaN(Date.parse(x.startedAt)));
    assert.equal(x.request.headers.authorization, 'Basic [REDACTED:BASIC(FTF_PRIMARY_CLIENT_SECRET)]');
    assert.equal(x.request.body, 'grant_type=client_credentials&client_id=cc-alice&client_secret=[REDACTED:FTF_PRIMARY_CLIENT_SECRET]');
    // learned from the response before anything was written
    assert.deepEqual(x.response?.json, { access_token: '[REDACTED:ACCESS_TOKEN]', refresh_token: '[REDACTED:REFRESH_TOKEN]', expires_in: 3600 });
    const serialized = JSON.stringify(x);
    for (const secret of [CLIENT_SECRET, ISSUED_TOKEN, ISSUED_REFRESH, BASIC]) assert.ok(!serialized.includes(secret), `leaked ${secret.slice(0, 6)}…`);
  });

  it('builds a reproducing curl with $VARS instead of secrets', async () => {
    const { mem, recorder } = setup();
    await recorder.send(tokenRequest());
    await recorder.send({ method: 'GET', url: `${stub.url}/api/v1/health`, headers: { authorization: `Bearer ${ISSUED_TOKEN}` }, timeoutMs: 5000 });
    const [tokenX, apiX] = mem.exchanges;
    assert.equal(tokenX?.curl, `curl -sS -i -X POST "${stub.url}/oauth/token" -H "content-type: application/x-www-form-urlencoded" -u "cc-alice:\${FTF_PRIMARY_CLIENT_SECRET}" --data-raw "grant_type=client_credentials&client_id=cc-alice&client_secret=\${FTF_PRIMARY_CLIENT_SECRET}" --max-time 5`);
    assert.equal(apiX?.curl, `curl -sS -i "${stub.url}/api/v1/health" -H "authorization: Bearer \${FTF_ACCESS_TOKEN}" --max-time 5`);
    // the careless echo of the token in the body and the cookie are redacted too
    assert.deepEqual(apiX?.response?.json, { seen: 'Bearer [REDACTED:ACCESS_TOKEN]' });
    assert.equal(apiX?.response?.headers['set-cookie'], '[REDACTED:SET_COOKIE]');
  });

  it('escapes shell metacharacters in literal parts of the curl line', async () => {
    const { mem, recorder } = setup();
    await recorder.send({ method: 'POST', url: `${stub.url}/echo`, headers: { 'content-type': 'application/json' }, body: '{"a":"$HOME `x` \\\\"}', timeoutMs: 5000 });
    assert.match(mem.exchanges[0]?.curl ?? '', /--data-raw "\{\\"a\\":\\"\\\$HOME \\`x\\` \\\\\\\\\\"\}"/);
  });

  it('a throwing or rejecting sink never breaks the request, and the other sinks still get the exchange', async () => {
    const errors: unknown[] = [];
    const redactor = new Redactor();
    const mem = memorySink();
    const recorder = new RecordingTransport(inner, redactor, [
      { onExchange: () => { throw new Error('sink exploded'); } },
      { onExchange: async () => Promise.reject(new Error('async sink exploded')) },
      mem,
    ], { onSinkError: (e) => errors.push(e) });
    const res = await recorder.send({ method: 'GET', url: `${stub.url}/x`, headers: {}, timeoutMs: 5000 });
    assert.equal(res.status, 200);
    assert.equal(mem.exchanges.length, 1);
    assert.deepEqual(errors.map((e) => (e as Error).message), ['sink exploded', 'async sink exploded']);
  });

  it('records failures and rethrows them redacted', async () => {
    const { mem, recorder, redactor } = setup();
    redactor.addSecret('query-secret-123', 'FTF_QS');
    await assert.rejects(recorder.send({ method: 'GET', url: `${stub.url}/hang?k=query-secret-123`, headers: {}, timeoutMs: 200 }), (e: unknown) => {
      return e instanceof FtfError && e.code === 'FTF_E_TARGET_TIMEOUT' && e.message.includes('[REDACTED:FTF_QS]') && !e.message.includes('query-secret-123');
    });
    const x = mem.exchanges[0];
    assert.equal(x?.error?.code, 'FTF_E_TARGET_TIMEOUT');
    assert.equal(x?.response, undefined);
    assert.ok(!JSON.stringify(x).includes('query-secret-123'));
  });

  it('caps report bodies after redaction', async () => {
    const redactor = new Redactor();
    const mem = memorySink();
    const recorder = new RecordingTransport(inner, redactor, [mem], { maxReportBodyChars: 1000 });
    const res = await recorder.send({ method: 'GET', url: `${stub.url}/big`, headers: {}, timeoutMs: 5000 });
    assert.ok(res.bodyText.length > 5000, 'the caller gets everything');
    const body = mem.exchanges[0]?.response?.bodyText ?? '';
    assert.match(body, /…\[truncated \d+ chars\]$/);
    assert.ok(body.length < 1100);
    assert.equal(mem.exchanges[0]?.response?.json, undefined);
    assert.equal(mem.exchanges[0]?.response?.jsonError, 'body truncated for the report');
  });

  it('writes a HAR 1.2 file that contains no secret', async () => {
    const file = join(dir, 'sub', 'run.har');
    const har = harSink(file);
    const { recorder } = setup([har]);
    await recorder.send(tokenRequest(), 'token');
    await recorder.send({ method: 'GET', url: `${stub.url}/api/v1/health?x=1`, headers: { authorization: `Bearer ${ISSUED_TOKEN}`, cookie: 'sid=cookie-value-1' }, timeoutMs: 5000 });
    await har.flush();
    const text = readFileSync(file, 'utf8');
    for (const secret of [CLIENT_SECRET, ISSUED_TOKEN, ISSUED_REFRESH, BASIC, 'cookie-value-1', 'abcdef123456']) {
      assert.ok(!text.includes(secret), `HAR leaks ${secret.slice(0, 6)}…`);
    }
    const log = (JSON.parse(text) as { log: { version: string; entries: Array<{ request: { method: string; queryString: unknown[]; postData?: { text: string } }; response: { status: number }; comment: string }> } }).log;
    assert.equal(log.version, '1.2');
    assert.equal(log.entries.length, 2);
    assert.equal(log.entries[0]?.comment, 'token');
    assert.match(log.entries[0]?.request.postData?.text ?? '', /client_secret=\[REDACTED:FTF_PRIMARY_CLIENT_SECRET\]/);
    assert.deepEqual(log.entries[1]?.request.queryString, [{ name: 'x', value: '1' }]);
    assert.equal(log.entries[1]?.response.status, 200);
  });
});

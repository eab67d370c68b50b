/**
 * The production guard decides on URLs as the target sees them: percent-encoded unreserved characters,
 * dot segments (plain and encoded), scheme/host case, default ports and repeated slashes must not let a
 * write under base_url pass as "not the API"; method names are compared case-insensitively.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createUndiciTransport } from '../../src/harness/http/undici-transport.js';
import type { HttpRequest, Transport } from '../../src/harness/http/types.js';
import { guardProductionWrites, isApiWrite } from '../../src/harness/target/guard.js';
import { isUnder, normaliseUrl } from '../../src/harness/target/url-normalise.js';
import { startReferenceServer } from '../../src/reference/server.js';
import { FtfError } from '../../src/shared/errors.js';

const BASE = 'https://p.test/api/v1';
const req = (method: string, url: string): HttpRequest => ({ method, url, headers: {}, timeoutMs: 5000 });

describe('normaliseUrl', () => {
  const path = (u: string): string | undefined => normaliseUrl(u)?.path;

  it('decodes percent-encoded unreserved characters and upper-cases the escapes it keeps', () => {
    assert.equal(path('https://p.test/api/%76%31/subscribe'), '/api/v1/subscribe');
    assert.equal(path('https://p.test/%61pi/v%31/%7Euser%2d%5F.x'), '/api/v1/~user-_.x');
    assert.equal(path('https://p.test/api/v1/caf%c3%a9%20x'), '/api/v1/caf%C3%A9%20x');
  });

  it('resolves dot segments, plain and encoded, also those revealed by an encoded slash', () => {
    assert.equal(path('https://p.test/api/v2/../v1/./subscribe'), '/api/v1/subscribe');
    assert.equal(path('https://p.test/api/v1/%2e%2E/v1/%2e/subscribe'), '/api/v1/subscribe');
    assert.equal(path('https://p.test/x/..%2F..%2Fapi/v1/subscribe'), '/api/v1/subscribe');
  });

  it('folds scheme and host case, default ports, repeated and trailing slashes; keeps other ports apart', () => {
    assert.deepEqual(normaliseUrl('HTTPS://P.Test:443//api///v1/subscribe/'), { origin: 'https://p.test', path: '/api/v1/subscribe' });
    assert.deepEqual(normaliseUrl('Http://127.0.0.1:80/api/v1'), { origin: 'http://127.0.0.1', path: '/api/v1' });
    assert.equal(normaliseUrl('https://p.test:8443/api/v1')?.origin, 'https://p.test:8443');
    assert.equal(normaliseUrl('/api/v1/subscribe'), undefined, 'not absolute');
  });

  it('isUnder respects segment boundaries', () => {
    const base = normaliseUrl(BASE)!;
    assert.equal(isUnder(normaliseUrl('https://p.test/api/v1')!, base), true);
    assert.equal(isUnder(normaliseUrl('https://p.test/api/v1/x')!, base), true);
    assert.equal(isUnder(normaliseUrl('https://p.test/api/v1evil/x')!, base), false);
    assert.equal(isUnder(normaliseUrl('https://p.test:8443/api/v1/x')!, base), false);
  });
});

describe('isApiWrite on other spellings of base_url', () => {
  it('every spelling of a write under base_url is a write, whatever the method case', () => {
    for (const url of [
      'https://p.test/api/%76%31/subscribe',
      'https://p.test/api/v1/../v1/subscribe',
      'https://p.test/api/./v1/subscribe',
      'https://p.test/api/v2/%2e%2e/v1/subscribe',
      'HTTPS://P.TEST/api/v1/subscribe',
      'https://p.test:443/api/v1/subscribe',
      'https://p.test//api//v1//subscribe',
      'https://p.test/api/v1%2Fsubscribe',
      'https://p.test/api/v1?x=1',
    ]) {
      for (const method of ['POST', 'post', 'Put', 'pAtCh', 'delete']) assert.equal(isApiWrite(req(method, url), BASE), true, `${method} ${url}`);
    }
  });

  it('the base itself may be spelt oddly too; reads, other origins and look-alikes are not writes', () => {
    assert.equal(isApiWrite(req('POST', 'https://p.test/api/v1/subscribe'), 'HTTPS://P.TEST:443/api/%76%31/'), true);
    assert.equal(isApiWrite(req('get', 'https://p.test/api/%76%31/subscribe'), BASE), false);
    assert.equal(isApiWrite(req('POST', 'https://p.test:8443/api/v1/subscribe'), BASE), false);
    assert.equal(isApiWrite(req('POST', 'https://p.test/api/v1evil/subscribe'), BASE), false);
    assert.equal(isApiWrite(req('POST', 'not a url'), BASE), true, 'the guard cannot tell where it goes: refuse');
  });

  it('the token request exemption holds only for the token path itself, however spelt', () => {
    assert.equal(isApiWrite(req('post', 'https://P.TEST/api/%76%31/oauth/token?x=1'), BASE), false);
    assert.equal(isApiWrite(req('POST', 'https://p.test/api/v1/oauth/token/../../subscribe'), BASE), true);
    assert.equal(isApiWrite(req('POST', 'https://p.test/api/v1/oauth/%74oken/x'), BASE), true);
  });
});

describe('through the guarded transport, against a target that decodes', () => {
  let server: Awaited<ReturnType<typeof startReferenceServer>>;
  let inner: Transport;
  const sent: HttpRequest[] = [];
  before(async () => {
    server = await startReferenceServer({ port: 0, host: '127.0.0.1', mode: 'production' });
    const undici = createUndiciTransport();
    inner = { send: (r) => (sent.push(r), undici.send(r)), dispose: () => undici.dispose?.() ?? Promise.resolve() };
  });
  after(async () => {
    await inner.dispose?.();
    await server.close();
  });

  it('an encoded spelling reaches the same resource (the threat is real), and its writes are refused before sending', async () => {
    const encoded = server.baseUrl.replace(/\/api\/v1$/, '/api/%76%31');
    assert.notEqual(encoded, server.baseUrl);
    const plain = await inner.send(req('GET', `${server.baseUrl}/health`));
    const viaEncoded = await inner.send(req('GET', `${encoded}/health`));
    assert.notEqual(plain.status, 404);
    assert.equal(viaEncoded.status, plain.status, 'the reference routes the encoded path like the plain one');
    const guarded = guardProductionWrites(inner, { environment: 'production', allowMutations: false, baseUrl: server.baseUrl, name: 'ref' }, false);
    sent.length = 0;
    const upper = server.baseUrl.replace('http://127.0.0.1', 'HTTP://127.0.0.1');
    for (const url of [`${encoded}/subscribe`, `${server.baseUrl}/x/../subscribe`, `${upper}/subscribe`, `${server.baseUrl.replace('/api/v1', '//api/v1')}/subscribe`]) {
      await assert.rejects(guarded.send(req('post', url)), (e: unknown) => e instanceof FtfError && e.code === 'FTF_E_PRODUCTION_MUTATIONS_REFUSED', url);
    }
    assert.deepEqual(sent, [], 'no refused write reached the wire');
    assert.equal((await guarded.send(req('GET', `${encoded}/health`))).status, plain.status);
  });
});

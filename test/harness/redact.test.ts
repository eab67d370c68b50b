import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { envNameFor, MIN_SECRET_LENGTH, Redactor } from '../../src/harness/http/redactor.js';

describe('Redactor', () => {
  it('replaces registered secrets everywhere, in raw, URL-encoded and JSON-escaped spellings', () => {
    const r = new Redactor();
    r.addSecret('s3cr3t/with+odd"chars', 'FTF_PRIMARY_CLIENT_SECRET');
    const raw = 's3cr3t/with+odd"chars';
    const text = `a=${raw} b=${encodeURIComponent(raw)} c=${new URLSearchParams({ v: raw }).toString().slice(2)} d=${JSON.stringify(raw)}`;
    const out = r.redactText(text);
    assert.ok(!out.includes('s3cr3t'), out);
    assert.equal(out.match(/\[REDACTED:FTF_PRIMARY_CLIENT_SECRET\]/g)?.length, 4);
  });

  it(`ignores values shorter than ${MIN_SECRET_LENGTH} characters`, () => {
    const r = new Redactor();
    assert.equal(r.addSecret('abc12', 'SHORT'), false);
    assert.equal(r.redactText('abc12 stays'), 'abc12 stays');
    assert.equal(r.addSecret('abc123', 'LONG_ENOUGH'), true);
    assert.equal(r.redactText('abc123'), '[REDACTED:LONG_ENOUGH]');
  });

  it('redacts sensitive headers whatever their value, keeping the auth scheme', () => {
    const r = new Redactor();
    r.addSecret('token-abcdef-123', 'FTF_PRIMARY_ACCESS_TOKEN');
    const out = r.redactHeaders({
      Authorization: 'Bearer token-abcdef-123',
      'proxy-authorization': 'Basic Zm9vOmJhcg==',
      cookie: 'sid=1',
      'Set-Cookie': 'sid=2; HttpOnly',
      'x-api-key': 'whatever-key',
      'content-type': 'application/json',
      'x-echo': 'token-abcdef-123',
    });
    assert.deepEqual(out, {
      Authorization: 'Bearer [REDACTED:FTF_PRIMARY_ACCESS_TOKEN]',
      'proxy-authorization': 'Basic [REDACTED:PROXY_AUTHORIZATION]',
      cookie: '[REDACTED:COOKIE]',
      'Set-Cookie': '[REDACTED:SET_COOKIE]',
      'x-api-key': '[REDACTED:X_API_KEY]',
      'content-type': 'application/json',
      'x-echo': '[REDACTED:FTF_PRIMARY_ACCESS_TOKEN]',
    });
  });

  it('redacts the Basic base64 of client:secret and labels it with the secret', () => {
    const r = new Redactor();
    r.addBasicCredentials('cc-alice', 'alice-secret-1', 'FTF_PRIMARY_CLIENT_SECRET');
    const b64 = Buffer.from('cc-alice:alice-secret-1').toString('base64');
    assert.equal(r.redactHeaders({ authorization: `Basic ${b64}` }).authorization, 'Basic [REDACTED:BASIC(FTF_PRIMARY_CLIENT_SECRET)]');
    assert.ok(!r.redactText(`log ${b64}`).includes(b64));
  });

  it('learns token values from JSON token responses (not API "code" fields)', () => {
    const r = new Redactor();
    r.learnFromBody({ access_token: 'learned-access-1', refresh_token: 'learned-refresh-1', expires_in: 3600, nested: { id_token: 'learned-id-token-1' } });
    r.learnFromBody({ code: 'FTF-FIX-1M', name: 'an indication' });
    const out = r.redactText('learned-access-1 learned-refresh-1 learned-id-token-1 FTF-FIX-1M');
    assert.equal(out, '[REDACTED:ACCESS_TOKEN] [REDACTED:REFRESH_TOKEN] [REDACTED:ID_TOKEN] FTF-FIX-1M');
  });

  it('learns from form bodies and JSON text bodies', () => {
    const r = new Redactor();
    r.learnFromBody('grant_type=authorization_code&code=form-code-123&code_verifier=verifier-abcdef&redirect_uri=x');
    r.learnFromBody('{"client_secret":"json-text-secret"}');
    assert.equal(r.redactText('form-code-123 verifier-abcdef json-text-secret authorization_code'), '[REDACTED:CODE] [REDACTED:CODE_VERIFIER] [REDACTED:CLIENT_SECRET] authorization_code');
  });

  it('learns codes from Location query strings and credentials from request headers', () => {
    const r = new Redactor();
    r.learnFromHeaders({ location: 'https://app.test/cb?code=redirect-code-1&state=st' });
    r.learnFromHeaders({ authorization: `Basic ${Buffer.from('client-x:header-secret-1').toString('base64')}` });
    r.learnFromHeaders({ Authorization: 'Bearer engine-made-token-1' });
    assert.equal(r.redactText('redirect-code-1 header-secret-1 engine-made-token-1'), '[REDACTED:CODE] [REDACTED:CLIENT_SECRET] [REDACTED:ACCESS_TOKEN]');
  });

  it('a Basic header with the secret left out ("cc-alice:") learns nothing: the client id and its base64 are public', () => {
    const r = new Redactor();
    const idOnly = Buffer.from('cc-alice:').toString('base64');
    r.learnFromHeaders({ authorization: `Basic ${idOnly}` });
    assert.equal(r.size, 0);
    // A curl line naming the client id, base64-encoded as an attachment is: not a secret at any alignment.
    const curl = Buffer.from('-u "cc-alice:${FTF_PRIMARY_CLIENT_SECRET}"').toString('base64');
    assert.equal(r.redactText(`${idOnly} ${curl} cc-alice`), `${idOnly} ${curl} cc-alice`);
  });

  it('an explicit label replaces a learned one, but not the other way round', () => {
    const r = new Redactor();
    r.learnFromBody({ access_token: 'tok-123456' });
    r.addSecret('tok-123456', 'FTF_PRIMARY_ACCESS_TOKEN');
    r.learnFromBody({ access_token: 'tok-123456' });
    assert.equal(r.redactText('tok-123456'), '[REDACTED:FTF_PRIMARY_ACCESS_TOKEN]');
  });

  it('prefers the longest secret when one contains another', () => {
    const r = new Redactor();
    r.addSecret('abcdef', 'SHORT_ONE');
    r.addSecret('abcdefghij', 'LONG_ONE');
    assert.equal(r.redactText('xabcdefghijx abcdef'), 'x[REDACTED:LONG_ONE]x [REDACTED:SHORT_ONE]');
  });

  it('segments carry the env var a curl line should use: the profile name, or FTF_<KIND> for learned values', () => {
    const r = new Redactor();
    r.addSecret('vendor-secret-1', 'VENDOR_SECRET');
    r.learnFromBody({ access_token: 'learned-token-1' });
    assert.deepEqual(r.segments('a vendor-secret-1 b learned-token-1'), [
      { text: 'a ' }, { label: 'VENDOR_SECRET', env: 'VENDOR_SECRET' }, { text: ' b ' }, { label: 'ACCESS_TOKEN', env: 'FTF_ACCESS_TOKEN' },
    ]);
    assert.equal(envNameFor('FTF_CODE'), 'FTF_CODE');
    assert.equal(envNameFor('code_verifier'), 'FTF_CODE_VERIFIER');
  });
});

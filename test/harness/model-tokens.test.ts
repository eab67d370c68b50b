/**
 * The token endpoint's model (src/harness/properties/model/tokens.ts): each grant's answer judged by its clause,
 * the fields a form may leave out served or refused, tokens reused before and after their expires_in, and no token
 * value in any message.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { judgeIssued, judgeRefused, judgeReuse, judgeServedOrRefused, showToken, stillValid, TokenModel } from '../../src/harness/properties/model/tokens.js';
import type { Answer } from '../../src/harness/properties/model/state.js';

const ans = (status: number, json: unknown): Answer => ({ status, json, text: JSON.stringify(json) });
const cc = ans(200, { access_token: 'AT-secret-1', token_type: 'Bearer', expires_in: 28800 });
const code = ans(200, { access_token: 'AT-secret-2', expires_in: 28800, refresh_token: 'RT-secret-2' });

describe('token grants judged by their clause', () => {
  it('passes the answers the spec shows for each grant', () => {
    assert.equal(judgeIssued('x', 'client_credentials', cc), undefined);
    assert.equal(judgeIssued('x', 'client_credentials', ans(200, { access_token: 'a', expires_in: 1, refresh_token: null })), undefined);
    assert.equal(judgeIssued('x', 'authorization_code', code), undefined);
    assert.equal(judgeIssued('x', 'refresh_token', code, 'RT-old'), undefined);
  });
  it('names the clause each deviation breaks', () => {
    assert.equal(judgeIssued('x', 'client_credentials', ans(401, { detail: 'no' }))?.clause, 'AUTH-CLIENT-CREDENTIALS');
    assert.equal(judgeIssued('x', 'refresh_token', ans(400, { error: 'invalid_request' }), 'RT')?.clause, 'AUTH-REFRESH-ROTATION');
    assert.equal(judgeIssued('x', 'authorization_code', ans(400, {}))?.clause, 'AUTH-TOKEN-REQUEST');
    assert.equal(judgeIssued('x', 'client_credentials', ans(200, { access_token: 'a' }))?.clause, 'AUTH-TOKEN-RESPONSE');
    assert.equal(judgeIssued('x', 'client_credentials', ans(200, { access_token: 'a', expires_in: '28800' }))?.clause, 'AUTH-TOKEN-RESPONSE');
    assert.equal(judgeIssued('x', 'client_credentials', code)?.clause, 'AUTH-CLIENT-CREDENTIALS');
    assert.equal(judgeIssued('x', 'authorization_code', cc)?.clause, 'AUTH-REFRESH-ROTATION');
    assert.equal(judgeIssued('x', 'refresh_token', code, 'RT-secret-2')?.clause, 'AUTH-REFRESH-ROTATION');
  });
  it('a request that must be refused: any 4xx without a token passes; a token fails with the clause given', () => {
    assert.equal(judgeRefused('x', 'AUTH-TOKEN-REQUEST', ans(401, { error: 'invalid_client' }), 'why'), undefined);
    assert.equal(judgeRefused('x', 'AUTH-CODE-PKCE', ans(400, { error: 'invalid_grant' }), 'why'), undefined);
    assert.equal(judgeRefused('x', 'AUTH-TOKEN-REQUEST', cc, 'why')?.clause, 'AUTH-TOKEN-REQUEST');
    assert.equal(judgeRefused('x', 'AUTH-CODE-REDIRECT', ans(500, {}), 'why')?.clause, 'AUTH-CODE-REDIRECT');
  });
  it('a form without fields the grant table lists: refused, or served as the full form', () => {
    assert.deepEqual(judgeServedOrRefused('x', 'client_credentials', ans(400, { error: 'invalid_request' })), { served: false });
    assert.deepEqual(judgeServedOrRefused('x', 'client_credentials', cc), { served: true });
    assert.equal(judgeServedOrRefused('x', 'refresh_token', code, 'RT-secret-2').violation?.clause, 'AUTH-REFRESH-ROTATION');
  });
  it('no token value in any message', () => {
    const messages = [judgeIssued('x', 'client_credentials', code), judgeRefused('x', 'AUTH-TOKEN-REQUEST', code, 'w'), judgeIssued('x', 'refresh_token', code, 'RT-secret-2')].map((x) => x?.message ?? '');
    for (const m of messages) assert.ok(!/secret-2/.test(m), m);
    assert.equal(showToken(code), '200 {access_token, expires_in, refresh_token}');
  });
});

describe('tokens reused on the simulated clock', () => {
  const model = new TokenModel();
  model.remember('primary', 'client_credentials', cc, 0);
  const t = model.issued[0]!;
  it('valid well within expires_in, expired well past it, no call near it', () => {
    assert.equal(stillValid(t, 7), true);
    assert.equal(stillValid(t, 8), undefined);
    assert.equal(stillValid(t, 14), false);
  });
  it('counts real seconds too: a token of a few seconds is never called valid, and is expired once they pass', () => {
    const short = new TokenModel().remember('short_lived', 'client_credentials', { status: 200, text: '', json: { access_token: 'x', expires_in: 3 } }, 0, 1_000);
    assert.equal(stillValid(short, 0, 1_000), undefined);
    assert.equal(stillValid(short, 0, 1_000 + 400_000), false);
    assert.equal(stillValid(t, 0, t.atMs + 8 * 3600_000), undefined);
  });
  it('judges the reuse: 200 while valid (AUTH-TOKEN-RESPONSE), 401 once expired (AUTH-BEARER)', () => {
    assert.equal(judgeReuse('x', true, ans(200, {})), undefined);
    assert.equal(judgeReuse('x', true, ans(401, {}))?.clause, 'AUTH-TOKEN-RESPONSE');
    assert.equal(judgeReuse('x', false, ans(401, { detail: 'expired' })), undefined);
    assert.equal(judgeReuse('x', false, ans(200, {}))?.clause, 'AUTH-BEARER');
  });
  it('keeps the code credential\'s current refresh token, and at most six tokens', () => {
    model.remember('code', 'authorization_code', code, 0);
    assert.equal(model.refresh.get('code'), 'RT-secret-2');
    for (let i = 0; i < 8; i++) model.remember('primary', 'client_credentials', cc, 0);
    assert.equal(model.issued.length, 6);
    assert.equal(model.refresh.has('primary'), false);
  });
});

/**
 * Issue 13: the reference as a sandbox without the control API (`simulation: false`, `reference --no-control`,
 * a profile without control_url) and its real-time parameter, the test client cc-alice-short whose tokens live
 * 3 s (its own lifetime; every other client keeps the server's). Expiry is shown on the simulated clock
 * (advanced in-process), never by waiting.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildReferenceApp } from '../../src/reference/app.js';
import { parseCli, UsageError } from '../../src/reference/cli-args.js';
import { launchEmbedded } from '../../src/embedded/launch.js';
import { readProfile } from '../../src/harness/target/profile.js';
import { REPO_ROOT } from '../../src/harness/repo-root.js';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { ReferenceOptions } from '../../src/reference/context.js';
import type { RunningReference } from '../../src/reference/server.js';

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

describe('short-lived test client', () => {
  it('cc-alice-short gets expires_in 3 and its token is refused once 3 s have passed; cc-alice keeps the server lifetime', async () => {
    const { app, ctx, domain } = await buildReferenceApp({ tokenLifetimeSeconds: 600 });
    try {
      const token = async (clientId: string) => {
        const res = await app.inject({
          method: 'POST', url: '/oauth/token', payload: 'grant_type=client_credentials',
          headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(clientId, ctx.secrets.clients[clientId] ?? '') },
        });
        assert.equal(res.statusCode, 200, res.body);
        return res.json() as { access_token: string; expires_in: number };
      };
      const short = await token('cc-alice-short');
      const long = await token('cc-alice');
      assert.equal(short.expires_in, 3);
      assert.equal(long.expires_in, 600);
      const health = (t: string) => app.inject({ url: '/api/v1/health', headers: { authorization: `Bearer ${t}` } });
      assert.equal((await health(short.access_token)).statusCode, 200);
      domain.clock.advance(3_001);
      assert.equal((await health(short.access_token)).statusCode, 401);
      assert.equal((await health(long.access_token)).statusCode, 200);
    } finally {
      await app.close();
    }
  });
});

describe('test product with a rotating uid', () => {
  it('FTF-FIX-ROTATE changes uid every 3 s; the old uid is then refused with 400 "no longer available", the fresh one works; FTF-FIX-1M keeps its daily uid', async () => {
    const { app, ctx, domain } = await buildReferenceApp({});
    try {
      const res = await app.inject({
        method: 'POST', url: '/oauth/token', payload: 'grant_type=client_credentials',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic('cc-alice', ctx.secrets.clients['cc-alice'] ?? '') },
      });
      const auth = { authorization: `Bearer ${(res.json() as { access_token: string }).access_token}` };
      const uid = async (code: string) => ((await app.inject({ url: `/api/v1/indication/${code}`, headers: auth })).json() as { uid: string }).uid;
      const subscribe = (indicationUid: string) => app.inject({
        method: 'POST', url: '/api/v1/subscribe', headers: { ...auth, 'idempotency-key': randomUUID() },
        payload: { indicationUid, entityCode: 'ENT-ALPHA', amount: 1_000_000 },
      });
      const [old, daily] = [await uid('FTF-FIX-ROTATE'), await uid('FTF-FIX-1M')];
      domain.clock.advance(3_000);
      const fresh = await uid('FTF-FIX-ROTATE');
      assert.notEqual(fresh, old);
      assert.equal(await uid('FTF-FIX-1M'), daily);
      const refused = await subscribe(old);
      assert.equal(refused.statusCode, 400, refused.body);
      assert.equal((refused.json() as { detail: string }).detail, 'Indication is no longer available for subscription.');
      assert.equal((await subscribe(fresh)).statusCode, 200);
    } finally {
      await app.close();
    }
  });
});

describe('sandbox without the control API', () => {
  it('simulation: false answers 404 under /_sandbox but serves the API', async () => {
    const { app } = await buildReferenceApp({ simulation: false });
    try {
      assert.equal((await app.inject({ url: '/_sandbox/clock' })).statusCode, 404);
      assert.equal((await app.inject({ method: 'POST', url: '/_sandbox/clock/advance', payload: { days: 1 } })).statusCode, 404);
    } finally {
      await app.close();
    }
  });

  it('`reference --no-control` starts a sandbox without it; with production it is a usage error', () => {
    assert.equal(parseCli(['--no-control']).options.simulation, false);
    assert.equal(parseCli([]).options.simulation, undefined);
    assert.throws(() => parseCli(['--no-control', '--mode', 'production']), UsageError);
  });

  it('the launcher starts the server without the control API exactly when the profile has no control_url', async () => {
    const seen: ReferenceOptions[] = [];
    const start = async (options: ReferenceOptions): Promise<RunningReference> => {
      seen.push(options);
      return { baseUrl: 'http://127.0.0.1:1/api/v1', authUrl: 'http://127.0.0.1:1', controlUrl: options.simulation ? 'http://127.0.0.1:1/_sandbox' : undefined,
        secrets: { clients: {}, apiKeys: {}, passwords: {} }, close: async () => undefined };
    };
    for (const name of ['reference-no-control.yaml', 'reference.yaml']) {
      const launched = await launchEmbedded(readProfile(join(REPO_ROOT, 'fixtures/targets', name)), { start, env: {} }).catch((e: unknown) => e);
      if (launched && typeof launched === 'object' && 'close' in launched) await (launched as { close(): Promise<void> }).close();
    }
    assert.deepEqual(seen.map((o) => o.simulation), [false, true]);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { embeddedLaunchCount, embeddedStartBoundMs, launchEmbedded, DEFAULT_START_BOUND_MS } from '../../src/embedded/launch.js';
import type { RunningReference, StartHooks } from '../../src/reference/server.js';
import { REFERENCE_PROFILE } from '../../src/harness/target/load.js';
import { readProfile } from '../../src/harness/target/profile.js';
import { FtfError } from '../../src/shared/errors.js';

const profile = readProfile(REFERENCE_PROFILE);

/** A stand-in server whose start the test controls; records whether it was closed. */
function fakeServer(secrets: RunningReference['secrets']): RunningReference & { closed: number } {
  const s = {
    baseUrl: 'http://127.0.0.1:9/api/v1',
    authUrl: 'http://127.0.0.1:9',
    controlUrl: 'http://127.0.0.1:9/_sandbox',
    secrets,
    closed: 0,
    close: async () => {
      s.closed++;
    },
  };
  return s;
}

const isTimeout = (phase: string) => (e: unknown) =>
  e instanceof FtfError && e.code === 'FTF_E_TARGET_START_TIMEOUT' && e.message.includes(`phase "${phase}"`) && e.message.includes('within 20 ms');

describe('launchEmbedded: bounded start, close always runs', () => {
  it('a start that outlives the bound is FTF_E_TARGET_START_TIMEOUT naming the phase; the late server is closed', async () => {
    let finish: (s: RunningReference) => void = () => undefined;
    const late = fakeServer({ clients: {}, apiKeys: {}, passwords: {} });
    await assert.rejects(
      launchEmbedded(profile, {
        startBoundMs: 20,
        start: (_options, hooks: StartHooks) => {
          hooks.onPhase?.('build');
          hooks.onPhase?.('listen');
          return new Promise((resolve) => (finish = resolve));
        },
      }),
      isTimeout('listen'),
    );
    finish(late);
    await new Promise((r) => setImmediate(r));
    assert.equal(late.closed, 1, 'a server that comes up after the bound is closed');
  });

  it('names the phase that was running (build)', async () => {
    await assert.rejects(launchEmbedded(profile, { startBoundMs: 20, start: (_o, hooks) => (hooks.onPhase?.('build'), new Promise(() => undefined)) }), isTimeout('build'));
  });

  it('a server the profile cannot be bound to is closed and the binding error names the field', async () => {
    const server = fakeServer({ clients: {}, apiKeys: {}, passwords: {} });
    await assert.rejects(launchEmbedded(profile, { start: async () => server }), (e: unknown) => e instanceof FtfError && e.code === 'FTF_E_PROFILE_EMBEDDED_UNRESOLVED' && e.location?.field === 'credentials.primary.client_id');
    assert.equal(server.closed, 1);
  });

  it('passes the profile mode and the caller options to the server; close is idempotent', async () => {
    const server = fakeServer({ clients: { 'cc-alice': 'g1', 'cc-bob': 'g2', 'cc-carol-readonly': 'g3', 'code-app': 'g4' }, apiKeys: { 'alice@ftf.test': 'g5' }, passwords: {} });
    let seen: unknown;
    const launch = await launchEmbedded(profile, { server: { fault: 'x', events: 3 }, start: async (options) => ((seen = options), server) });
    assert.deepEqual(seen, { port: 0, host: '127.0.0.1', fault: 'x', events: 3, mode: 'sandbox', simulation: true }, 'the profile has a control_url: the server gets the control API');
    assert.equal(launch.target.credentials.api_key?.secret, 'g5');
    assert.equal(launch.env.FTF_PRIMARY_CLIENT_SECRET, 'g1', 'the child environment uses the names the profile declares');
    await Promise.all([launch.close(), launch.close()]);
    assert.equal(server.closed, 1);
  });

  it('launches the real reference server: secrets stay out of process.env, the target answers', async () => {
    const before = embeddedLaunchCount();
    const launch = await launchEmbedded(profile);
    try {
      assert.equal(embeddedLaunchCount(), before + 1);
      assert.equal(process.env.FTF_PRIMARY_CLIENT_SECRET, undefined);
      assert.ok(launch.target.credentials.primary?.secret);
      assert.ok(launch.secrets.includes(launch.target.credentials.primary!.secret!));
      const res = await fetch(`${launch.target.authUrl}/oauth/token`, { method: 'POST', body: 'grant_type=client_credentials', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`cc-alice:${launch.target.credentials.primary!.secret!}`).toString('base64')}` } });
      assert.equal(res.status, 200);
    } finally {
      await launch.close();
    }
  });
});

describe('embeddedStartBoundMs', () => {
  it('comes from FTF_EMBEDDED_START_MS, else the default; garbage is a usage error', () => {
    assert.equal(embeddedStartBoundMs({}), DEFAULT_START_BOUND_MS);
    assert.equal(embeddedStartBoundMs({ FTF_EMBEDDED_START_MS: '1500' }), 1500);
    assert.throws(() => embeddedStartBoundMs({ FTF_EMBEDDED_START_MS: '-5' }), (e: unknown) => e instanceof FtfError && e.code === 'FTF_E_USAGE');
  });
});

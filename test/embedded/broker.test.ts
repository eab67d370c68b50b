/**
 * The launch broker (src/embedded/broker.ts): every request gets a server of its own (planned or launched on
 * demand), whose target resolves as an in-process launch's does; a failed launch reaches the worker as its error;
 * no broker means "launch your own"; close() closes every server.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { requestServer, startLaunchBroker, type LaunchRequest } from '../../src/embedded/broker.js';
import { embeddedLaunchCount, targetOfBinding } from '../../src/embedded/launch.js';
import { REFERENCE_PRODUCTION_PROFILE, REFERENCE_PROFILE } from '../../src/harness/target/load.js';
import { readProfile } from '../../src/harness/target/profile.js';
import { FtfError } from '../../src/shared/errors.js';

const BOUND_MS = 60_000;
const sandbox: LaunchRequest = { profile: REFERENCE_PROFILE, mode: 'sandbox', events: 0 };

/** The server answers: GET /indication/{primary} with a token of the target's primary credential. */
async function answers(baseUrl: string): Promise<boolean> {
  try {
    const r = await fetch(`${baseUrl.replace(/\/api\/v1$/, '')}/health`, { signal: AbortSignal.timeout(5000) });
    return r.status < 500;
  } catch {
    return false;
  }
}

describe('launch broker', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ftf-broker-test-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('hands each request a server of its own, planned or on demand, and closes them all', { timeout: BOUND_MS }, async () => {
    const broker = (await startLaunchBroker([sandbox]))!;
    const path = broker.path;
    const first = await requestServer(path, sandbox, BOUND_MS);
    const second = await requestServer(path, sandbox, BOUND_MS);
    const production = await requestServer(path, { profile: REFERENCE_PRODUCTION_PROFILE, mode: 'production', events: 0 }, BOUND_MS);
    assert.ok(first && second && production);
    const urls = [first.overrides.baseUrl, second.overrides.baseUrl, production.overrides.baseUrl];
    assert.equal(new Set(urls).size, 3, 'three requests, three servers');
    // The worker's target: the same resolution as launchEmbedded's, the secrets under the profile's names.
    const target = targetOfBinding(readProfile(REFERENCE_PROFILE), first);
    assert.equal(target.baseUrl, first.overrides.baseUrl);
    const secret = Object.values(target.credentials).find((c) => c.secret)?.secret;
    assert.ok(secret && first.secrets.includes(secret), 'the credentials carry the server\'s generated secrets');
    assert.ok(first.secrets.every((s) => broker.secrets().includes(s)), 'the CLI knows every secret it handed out (leak scan)');
    for (const url of urls) assert.equal(await answers(url), true, `${url} answers`);
    await broker.close();
    for (const url of urls) assert.equal(await answers(url), false, `${url} is closed`);
  });

  it('a launch that fails reaches the worker as its error', { timeout: BOUND_MS }, async () => {
    const broker = (await startLaunchBroker([]))!;
    try {
      await assert.rejects(requestServer(broker.path, { ...sandbox, fault: 'no-such-fault' }, BOUND_MS), (e: unknown) => e instanceof FtfError && /no-such-fault/.test(e.message));
    } finally {
      await broker.close();
    }
  });

  it('no broker where a socket path would be too long (a long TMPDIR): nothing created, nothing launched', async () => {
    const long = join(dir, 'x'.repeat(60), 'y'.repeat(60));
    mkdirSync(long, { recursive: true });
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = long;
    const before = embeddedLaunchCount();
    try {
      assert.equal(await startLaunchBroker([sandbox]), undefined);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
    assert.equal(embeddedLaunchCount(), before, 'the plan is not launched');
    assert.deepEqual(readdirSync(long), [], 'no private folder left');
  });

  it('no broker at the path: undefined, the worker launches its own', async () => {
    assert.equal(await requestServer(join(dir, 'nobody-listens'), sandbox, BOUND_MS), undefined);
  });
});

/**
 * The paging properties end to end against the embedded reference server (undici, 127.0.0.1:0): they hold
 * on the correct server and fail, with a readable shrunk counterexample naming the right clause, under the
 * reference's paging faults. No secret ever appears in the failure text.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { EventsApi } from '../../src/harness/properties/events-api.js';
import { MIN_STREAM, preparePagingProperty, type PreparedProperty } from '../../src/harness/properties/paging-property.js';
import { propertySettings } from '../../src/harness/properties/runner.js';
import { RunLog } from '../../src/harness/properties/run-log.js';
import { createAuthClient } from '../../src/harness/auth/client.js';
import { RecordingTransport } from '../../src/harness/http/recorder.js';
import { Redactor } from '../../src/harness/http/redactor.js';
import { createUndiciTransport } from '../../src/harness/http/undici-transport.js';
import { schemaRegistry } from '../../src/harness/schemas/registry.js';
import { loadTargetProfile, REFERENCE_PROFILE } from '../../src/harness/target/load.js';
import { startReferenceServer } from '../../src/reference/server.js';
import { FtfError } from '../../src/shared/errors.js';
import { assertNoSecrets, knownSecrets } from './property-secrets.js';

const transports: Array<{ dispose?: () => Promise<void> }> = [];
after(async () => {
  for (const t of transports) await t.dispose?.();
});

interface Outcome {
  error: FtfError | undefined;
  secrets: string[];
  prepared: PreparedProperty;
}

async function runAgainstReference(fence: 'event' | 'head', fault?: string, runs = '12', opts: { noControl?: boolean } = {}): Promise<Outcome> {
  const server = await startReferenceServer({ ...(fault ? { fault } : {}) });
  try {
    const { clients, apiKeys } = server.secrets;
    const env = {
      FTF_PRIMARY_CLIENT_SECRET: clients['cc-alice'],
      FTF_SECOND_CLIENT_SECRET: clients['cc-bob'],
      FTF_READONLY_CLIENT_SECRET: clients['cc-carol-readonly'],
      FTF_CODE_CLIENT_SECRET: clients['code-app'],
      FTF_API_KEY: apiKeys['alice@ftf.test'],
    };
    const target = loadTargetProfile(REFERENCE_PROFILE, {
      env,
      overrides: { baseUrl: server.baseUrl, authUrl: server.authUrl, ...(server.controlUrl ? { controlUrl: server.controlUrl } : {}) },
    });
    if (opts.noControl) target.capabilities.delete('clock');
    const redactor = new Redactor();
    const log = new RunLog();
    const inner = createUndiciTransport();
    transports.push(inner);
    const transport = new RecordingTransport(inner, redactor, [log]);
    const auth = createAuthClient(target, transport, redactor);
    const api = new EventsApi({ target, schemas: schemaRegistry({ paths: target.paths, fields: target.fields }), transport, auth, redact: (t) => redactor.redactText(t) });
    const prepared = await preparePagingProperty(api, log, target, {
      title: `${fence} property`,
      fence,
      settings: propertySettings({ FTF_FC_RUNS: runs, FTF_FC_SEED: '20260302' }, 1),
      timeLimitMs: 600_000, // never the limiting factor here: a loaded machine must not turn a failure into a pass
      command: 'npx playwright test specs/properties',
    });
    let error: FtfError | undefined;
    try {
      await prepared.run();
    } catch (e) {
      if (!(e instanceof FtfError)) throw e;
      error = e;
    }
    const token = await auth.authorization('primary');
    return { error, prepared, secrets: knownSecrets(clients, apiKeys, token) };
  } finally {
    await server.close();
  }
}


describe('paging properties against the embedded reference', () => {
  it('hold on the correct server (event fences and head fences, with appends)', async () => {
    const ev = await runAgainstReference('event');
    assert.equal(ev.error, undefined, ev.error?.message);
    assert.equal(ev.prepared.skip, undefined);
    assert.ok(ev.prepared.snapshot.events.length >= MIN_STREAM, 'the short seeded stream is padded');
    const head = await runAgainstReference('head');
    assert.equal(head.error, undefined, head.error?.message);
  });

  it('run without the control API too: no padding, no appends, and still catch an ignored fence', async () => {
    const ok = await runAgainstReference('event', undefined, '12', { noControl: true });
    assert.equal(ok.error, undefined, ok.error?.message);
    assert.ok(ok.prepared.snapshot.events.length < MIN_STREAM, 'the seeded stream is not padded');
    const bad = await runAgainstReference('event', 'fence-ignored', '40', { noControl: true });
    assert.match(bad.error?.message ?? '', /\[EP-EVENT-FENCE\] .*lies beyond the fence/);
    assert.doesNotMatch(bad.error?.message ?? '', /_sandbox|control_url/);
  });

  const faults: Array<[string, 'event' | 'head', RegExp]> = [
    ['paging-overlap', 'event', /\[EP-EVENT-PAGING\] walk page 2: .*already returned on page 1: a duplicate/],
    ['fence-exclusive', 'event', /\[EP-EVENT-FENCE\] .*end_cursor must include the fence event/],
    ['start-cursor-inclusive', 'event', /\[EP-EVENT-PAGING\] .*is at or before the start_cursor/],
    ['fence-ignored', 'event', /\[EP-EVENT-FENCE\] .*lies beyond the fence/],
    ['total-count-page-only', 'event', /\[EP-EVENT-TOTAL\] walk page 1: totalCount is 1, but the range/],
    ['page-limit-exceeded', 'event', /\[EP-EVENT-PAGE-LIMIT\] walk page 1: holds 2 events, more than pageInfo.limit 1/],
    ['has-next-page-false-early', 'event', /\[EP-EVENT-PAGING\] .*hasNextPage is false after .* but reading on from pageEndCursor returns/],
    ['end-cursor-is-page-end', 'head', /\[EP-EVENT-FENCE\] .*endCursor must be the head of the stream/],
  ];
  it('fail under events-out-of-order already at the snapshot, with the requests that showed it', async () => {
    await assert.rejects(runAgainstReference('event', 'events-out-of-order'), (e: FtfError) => {
      assert.equal(e.code, 'FTF_E_PROPERTY_VIOLATION');
      assert.match(e.message, /failed while taking the snapshot: \[EVS-ORDER\] snapshot: the start of the stream read with limit 2 is #\d+ #\d+, with the default page size #0\.\.#3…/);
      assert.match(e.message, /GET \/event\?limit=2 → 200: 2 events/);
      return true;
    });
  });

  for (const [fault, fence, expected] of faults) {
    it(`fail under ${fault} with a shrunk, replayable counterexample`, async () => {
      const { error, secrets } = await runAgainstReference(fence, fault, '40');
      assert.ok(error, `the property held under ${fault}`);
      assert.equal(error.code, 'FTF_E_PROPERTY_VIOLATION');
      assert.match(error.message, expected);
      assert.match(error.message, /seed 20260302, path [\d:]+/);
      assert.match(error.message, /counterexample \(shrunk\): start_cursor .*, limit \d+/);
      assert.match(error.message, /replay: FTF_FC_SEED=20260302 FTF_FC_PATH=[\d:]+ /);
      assert.match(error.message, /\n\s+1\. GET \/event\?/);
      assertNoSecrets(error.message, secrets);
    });
  }
});

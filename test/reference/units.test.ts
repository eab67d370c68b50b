/** Unit tests: data determinism and secrets, faults registry, dates, cursors, the event store vs a naive model. */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseCli, UsageError } from '../../src/reference/cli-args.js';
import { DEFAULT_DATA_DIR, loadReferenceData } from '../../src/reference/data/load.js';
import { generateSecrets } from '../../src/reference/data/secrets.js';
import { EVENT_TYPES } from '../../src/reference/data/types.js';
import { isoWithOffset, offsetMinutes, zonedToUtc } from '../../src/reference/domain/dates.js';
import { CursorCodec } from '../../src/reference/domain/events/cursor.js';
import { EventStore } from '../../src/reference/domain/events/store.js';
import { createFaults } from '../../src/reference/faults.js';
import { FtfError } from '../../src/shared/errors.js';
import { startReferenceServer } from '../../src/reference/server.js';

describe('reference data', () => {
  it('is deterministic for a seed and differs across seeds', () => {
    const a = loadReferenceData(DEFAULT_DATA_DIR, 7);
    const b = loadReferenceData(DEFAULT_DATA_DIR, 7);
    const c = loadReferenceData(DEFAULT_DATA_DIR, 8);
    assert.deepEqual(a, b);
    assert.notEqual(a.holdings[0]?.holding.uid, c.holdings[0]?.holding.uid);
  });

  it('has the identities of docs/architecture.md', () => {
    const d = loadReferenceData(DEFAULT_DATA_DIR, 1);
    const users = Object.fromEntries(d.users.map((u) => [u.email, u.entities]));
    assert.deepEqual(users, {
      'alice@ftf.test': ['ENT-ALPHA', 'ENT-BETA'], 'bob@ftf.test': ['ENT-ALPHA'], 'carol@ftf.test': ['ENT-ALPHA'], 'dave@ftf.test': ['ENT-GAMMA'],
    });
    assert.deepEqual(d.clients.map((c) => c.clientId), ['cc-alice', 'cc-bob', 'cc-carol-readonly', 'cc-alice-short', 'code-app', 'code-app-single']);
    assert.equal(d.clients.find((c) => c.clientId === 'cc-carol-readonly')?.readOnly, true);
    assert.deepEqual(d.clients.find((c) => c.clientId === 'code-app')?.redirectUris, ['https://app.ftf.test/callback', 'https://app.ftf.test/alt']);
    assert.deepEqual(d.apiKeyUsers, ['alice@ftf.test']);
  });

  it('secrets are fresh per start and appear in no fixture file', () => {
    const d = loadReferenceData(DEFAULT_DATA_DIR, 1);
    const s1 = generateSecrets(d);
    const s2 = generateSecrets(d);
    assert.notEqual(s1.clients['cc-alice'], s2.clients['cc-alice']);
    assert.equal(Object.keys(s1.clients).length, 6);
    assert.ok(s1.apiKeys['alice@ftf.test']);
    assert.equal(Object.keys(s1.passwords).length, 4);
    const fixtures = readdirSync(DEFAULT_DATA_DIR).map((f) => readFileSync(join(DEFAULT_DATA_DIR, f), 'utf8')).join('\n');
    for (const v of [...Object.values(s1.clients), ...Object.values(s1.apiKeys), ...Object.values(s1.passwords)]) assert.ok(!fixtures.includes(v));
  });
});

describe('faults', () => {
  it('starts empty-but-working: null is fine, unknown names are refused with the known list', () => {
    const f = createFaults(null);
    assert.equal(f.active, null);
    assert.equal(f.on('anything'), false);
    assert.throws(() => createFaults('no-such-fault'), (e: unknown) => e instanceof FtfError && e.code === 'FTF_E_UNKNOWN_FAULT' && /no-such-fault/.test(e.message));
  });
});

describe('dates', () => {
  it('offsets change exactly at a transition (kept per quarter hour, so never across one)', () => {
    const t = Date.parse('2026-03-29T01:00:00Z'); // Europe/London: GMT -> BST
    assert.equal(offsetMinutes(t - 1, 'Europe/London'), 0);
    assert.equal(offsetMinutes(t, 'Europe/London'), 60);
    assert.equal(offsetMinutes(t - 1, 'Europe/London'), 0, 'the second read (from the kept value) agrees');
    const lh = Date.parse('2026-04-04T15:00:00Z'); // Australia/Lord_Howe: +11:00 -> +10:30 (a half-hour step)
    assert.equal(offsetMinutes(lh - 1, 'Australia/Lord_Howe'), 660);
    assert.equal(offsetMinutes(lh, 'Australia/Lord_Howe'), 630);
    assert.equal(offsetMinutes(Date.parse('2026-01-01T00:00:00Z'), 'Asia/Kathmandu'), 345);
  });

  it('converts wall-clock cut-offs across DST', () => {
    assert.equal(new Date(zonedToUtc('2026-03-02', '11:00', 'Europe/London')).toISOString(), '2026-03-02T11:00:00.000Z');
    assert.equal(new Date(zonedToUtc('2026-04-01', '11:00', 'Europe/London')).toISOString(), '2026-04-01T10:00:00.000Z');
    assert.equal(new Date(zonedToUtc('2026-03-06', '14:00', 'America/New_York')).toISOString(), '2026-03-06T19:00:00.000Z');
    assert.equal(new Date(zonedToUtc('2026-03-09', '14:00', 'America/New_York')).toISOString(), '2026-03-09T18:00:00.000Z');
    assert.equal(isoWithOffset(zonedToUtc('2026-03-02', '10:00', 'Europe/Luxembourg'), 'Europe/Luxembourg'), '2026-03-02T10:00:00+01:00');
  });
});

describe('event store and cursors', () => {
  it('cursors round-trip and refuse forgeries, foreign seeds and positions beyond the head', () => {
    const c = new CursorCodec(1);
    fc.assert(fc.property(fc.integer({ min: 0, max: 2_000_000 }), (seq) => c.decode(c.encode(seq), 2_000_000) === seq));
    assert.equal(c.decode(c.encode(11), 10), null);
    assert.equal(new CursorCodec(2).decode(c.encode(5), 10), null);
    assert.equal(c.decode('ev1.' + Buffer.from('5.abc').toString('base64url'), 10), null);
  });

  it('range/count/last agree with a naive filter for any selection and cursor range', () => {
    const codes = ['A', 'B', 'C'];
    fc.assert(fc.property(
      fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 9 })), { maxLength: 300 }),
      fc.subarray([0, 1, 2]), fc.option(fc.integer({ min: 0, max: 9 }), { nil: null }),
      fc.nat(320), fc.nat(320), fc.integer({ min: 1, max: 50 }),
      (events, entities, type, a, b, limit) => {
        const store = new EventStore(1, codes, () => 'GBP');
        for (const [e, t] of events) store.append(codes[e] ?? 'A', EVENT_TYPES[t] ?? 'ISSUED', null);
        const after = Math.min(a, events.length);
        const upTo = Math.min(b, events.length);
        const naive = events.map(([e, t], i) => ({ seq: i + 1, e, t }))
          .filter((x) => entities.includes(x.e) && (type === null || x.t === type) && x.seq > after && x.seq <= upTo).map((x) => x.seq);
        const sel = { entities, type };
        assert.deepEqual(store.range(sel, after, upTo, limit), naive.slice(0, limit));
        assert.equal(store.count(sel, after, upTo), naive.length);
        const lastNaive = events.map(([e, t], i) => ({ seq: i + 1, e, t })).filter((x) => entities.includes(x.e) && (type === null || x.t === type) && x.seq <= upTo).pop();
        assert.equal(store.last(sel, upTo), lastNaive?.seq ?? 0);
      },
    ), { numRuns: 200 });
  });
});

describe('server and CLI flags', () => {
  it('startReferenceServer answers on 127.0.0.1 with base, auth and control URLs', async () => {
    const s = await startReferenceServer();
    try {
      assert.match(s.baseUrl, /^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
      assert.equal(s.baseUrl, `${s.authUrl}/api/v1`);
      assert.equal(s.controlUrl, `${s.authUrl}/_sandbox`);
      const res = await fetch(`${s.controlUrl}/clock`);
      assert.equal(res.status, 200);
    } finally {
      await s.close();
    }
    const p = await startReferenceServer({ mode: 'production' });
    try {
      assert.equal(p.controlUrl, undefined);
    } finally {
      await p.close();
    }
  });

  it('parses flags and refuses bad ones with a UsageError', () => {
    const ok = parseCli(['--port', '9000', '--mode', 'production', '--seed', '3', '--events', '10', '--token-lifetime', '60']);
    assert.deepEqual(ok.options, { port: 9000, mode: 'production', seed: 3, events: 10, tokenLifetimeSeconds: 60, fault: undefined });
    assert.equal(ok.printSecrets, false);
    assert.equal(parseCli(['--print-secrets']).printSecrets, true);
    for (const bad of [['--port', 'x'], ['--mode', 'prod'], ['--nope'], ['--fault', 'nope'], ['--events', '-1'], ['positional']]) {
      assert.throws(() => parseCli(bad), UsageError, bad.join(' '));
    }
  });
});

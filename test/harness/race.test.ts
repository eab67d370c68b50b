/**
 * The race barrier (issue 13): warm lanes, one synchronous release, the overlap measurement, and the
 * parallel step's `race` option with its rounds and its verdict on a weak run. The loopback stub holds every
 * racing request until all of them have arrived (or a configured bound passes), so "all in flight together"
 * is a property of the protocol, not of how fast the machine is.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { after, before, beforeEach, describe, it } from 'node:test';
import { measureOverlap } from '../../src/harness/http/overlap.js';
import { raceOverLanes } from '../../src/harness/http/race-lanes.js';
import { RecordingTransport } from '../../src/harness/http/recorder.js';
import { Redactor } from '../../src/harness/http/redactor.js';
import { memorySink } from '../../src/harness/http/sinks.js';
import type { HttpRequest, RaceLane, RaceSettled, Transport } from '../../src/harness/http/types.js';
import { createUndiciTransport } from '../../src/harness/http/undici-transport.js';
import { makeTarget, run, scenarioFromYaml } from './engine-helpers.js';

/** How long the stub waits for the whole fan-out before it gives up and answers what it has (a bound, never reached when the barrier works). */
const GATHER_BOUND_MS = 5_000;
/** The stub answers this long after the last racing request arrived: the shortest answer cannot be shorter. */
const HOLD_MS = 30;

interface Arrival { socket: number; at: number; method: string }

/**
 * GETs (warm-ups) are answered at once with the checkpoint; PATCHes (the race) are gathered until `expect`
 * of them are there, then checked and written one by one: a correct compare-and-set (exactly one 200) or,
 * with `atomic: false`, the check of all of them before any write (what a check-then-await-then-write does
 * when the requests really overlap).
 */
class RaceStub {
  url = '';
  connections = 0;
  arrivals: Arrival[] = [];
  expect = 0;
  atomic = true;
  version = 1;
  private held: Array<{ res: ServerResponse; v: number }> = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly sockets = new Map<Socket, number>();
  private readonly server = createServer((req, res) => this.handle(req, res));

  async start(): Promise<void> {
    this.server.on('connection', (s: Socket) => this.sockets.set(s, ++this.connections));
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  reset(expect: number, atomic = true): void {
    Object.assign(this, { connections: 0, arrivals: [], expect, atomic, version: 1 });
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      this.arrivals.push({ socket: this.sockets.get(req.socket) ?? 0, at: performance.now(), method: req.method ?? '' });
      if (req.method === 'GET') return this.send(res, 200, { v: this.version });
      this.held.push({ res, v: Number((JSON.parse(body) as { v: unknown }).v) });
      this.timer ??= setTimeout(() => this.release(), GATHER_BOUND_MS);
      if (this.held.length >= this.expect) this.release();
    });
  }

  private release(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const held = this.held.splice(0);
    const seen = this.version;
    const answers = held.map(({ res, v }) => {
      const ok = v === (this.atomic ? this.version : seen);
      if (ok) this.version = seen + 1;
      return { res, status: ok ? 200 : 409 };
    });
    setTimeout(() => answers.forEach(({ res, status }) => this.send(res, status, { v: this.version })), HOLD_MS);
  }

  private send(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }
}

const stub = new RaceStub();
before(() => stub.start());
after(() => stub.close());

function lanes(n: number, version: number): RaceLane[] {
  const request = (i: number): HttpRequest => ({
    method: 'PATCH', url: `${stub.url}/api/v1/cp`, headers: { 'content-type': 'application/json', authorization: 'Bearer race-token-canary' },
    body: JSON.stringify({ v: version, i }), timeoutMs: GATHER_BOUND_MS * 2,
  });
  return Array.from({ length: n }, (_, i) => ({ warm: { method: 'GET', url: `${stub.url}/api/v1/cp`, headers: {}, timeoutMs: GATHER_BOUND_MS }, request: request(i) }));
}

describe('measureOverlap', () => {
  it('all sent before the first answer: conclusive, peak = n', () => {
    const o = measureOverlap([{ sentAt: 0, answeredAt: 10 }, { sentAt: 1, answeredAt: 12 }, { sentAt: 2, answeredAt: 11 }]);
    assert.deepEqual(o, { requests: 3, spreadMs: 2, shortestAnswerMs: 9, peakInFlight: 3, inFlightFraction: 1, conclusive: true });
  });

  it('one after the other: peak 1, not conclusive', () => {
    const o = measureOverlap([{ sentAt: 0, answeredAt: 5 }, { sentAt: 5, answeredAt: 9 }, { sentAt: 9, answeredAt: 12 }]);
    assert.equal(o.peakInFlight, 1);
    assert.equal(o.conclusive, false);
    assert.equal(o.spreadMs, 9);
    assert.equal(o.shortestAnswerMs, 3);
  });

  it('a request answered before the last was sent: partial overlap', () => {
    const o = measureOverlap([{ sentAt: 0, answeredAt: 3 }, { sentAt: 1, answeredAt: 8 }, { sentAt: 4, answeredAt: 9 }, { sentAt: 4, answeredAt: 9 }]);
    assert.equal(o.peakInFlight, 3);
    assert.equal(o.inFlightFraction, 0.75);
    assert.equal(o.conclusive, false);
  });

  it('no requests: nothing to conclude', () => {
    assert.equal(measureOverlap([]).conclusive, false);
  });
});

describe('raceOverLanes (the barrier)', () => {
  beforeEach(() => stub.reset(12));

  it('warms one connection per lane, then sends every request on its warm connection before any answer', async () => {
    const settled = await raceOverLanes(lanes(12, 1));
    const warm = stub.arrivals.filter((a) => a.method === 'GET');
    const racing = stub.arrivals.filter((a) => a.method === 'PATCH');
    assert.equal(stub.connections, 12, 'one connection per lane, no more');
    assert.equal(new Set(warm.map((a) => a.socket)).size, 12);
    assert.deepEqual(new Set(racing.map((a) => a.socket)), new Set(warm.map((a) => a.socket)), 'racing requests reuse the warm connections');
    assert.ok(Math.min(...racing.map((a) => a.at)) > Math.max(...warm.map((a) => a.at)), 'every warm-up ends before the first racing request');
    assert.deepEqual(settled.map((s) => s.response?.status).sort(), [200, ...Array<number>(11).fill(409)]);
    const o = measureOverlap(settled);
    assert.equal(o.conclusive, true, `all ${o.requests} in flight together`);
    // The stub answers HOLD_MS after the last arrival, so no answer can come sooner (timers may fire 1 ms early).
    assert.ok(o.shortestAnswerMs >= HOLD_MS - 1, `shortest answer ${o.shortestAnswerMs} ms`);
  });

  it('the RecordingTransport records every warm-up and racing exchange, redacted, and returns the lanes in order', async () => {
    const mem = memorySink();
    const redactor = new Redactor();
    redactor.learnFromHeaders({ authorization: 'Bearer race-token-canary' });
    const inner = createUndiciTransport();
    try {
      const settled = await new RecordingTransport(inner, redactor, [mem]).race(lanes(12, 1), 'race step');
      assert.equal(settled.length, 12);
      assert.equal(mem.exchanges.length, 24);
      assert.equal(mem.exchanges.filter((x) => x.label === 'race step (warm-up)').length, 12);
      assert.ok(!JSON.stringify(mem.exchanges).includes('race-token-canary'));
    } finally {
      await inner.dispose?.();
    }
  });
});

const RACE_SCENARIO = (rounds: number): string => `
id: t.race
title: race
covers: [T-ONE]
vars: { ver: 1 }
steps:
  - parallel:
      count: 10
      request: { method: PATCH, path: /cp, json: { v: '\${ver}', i: '\${i}', round: '\${round}' } }
      as: patches
      expect_count: { status: 200, equals: 1 }
      race:
        rounds: ${rounds}
        next: { ver: '\${select(results, "/status", 200)[0].body.v}' }
`;

describe('parallel with race', () => {
  it('a correct compare-and-set passes every round; each round races on the version the last winner left', async () => {
    stub.reset(10);
    const r = await run(scenarioFromYaml(RACE_SCENARIO(3)), makeTarget(stub.url));
    assert.equal(r.error, undefined, r.error?.message);
    assert.equal(r.outcome?.vars.ver, 4);
    const overlap = r.checks.find((c) => c.check === 'race.overlap');
    assert.equal(overlap?.passed, true, overlap?.message);
    assert.match(overlap?.message ?? '', /round 3: 10 of 10 in flight together/);
    assert.equal(stub.arrivals.filter((a) => a.method === 'PATCH').length, 30);
  });

  it('a check-then-write that lets overlapping requests through fails in round 1 with the statuses', async () => {
    stub.reset(10, false);
    const r = await run(scenarioFromYaml(RACE_SCENARIO(3)), makeTarget(stub.url));
    assert.match(r.error?.message ?? '', /round 1: expected exactly 1 of 10 results with status 200, got 10/);
  });

  it('rounds in which requests did not overlap: none -> errored (FTF_E_RACE_INCONCLUSIVE), some -> a should warning', async () => {
    // A transport whose barrier leaks: in the rounds listed, each lane is answered before the next is sent.
    const serialRounds = (which: Set<number>): Transport => {
      const inner = createUndiciTransport();
      let round = 0;
      return {
        send: (req) => inner.send(req),
        async race(ls): Promise<RaceSettled[]> {
          const settled = await raceOverLanes(ls);
          const serial = which.has(round++);
          return serial ? settled.map((s, i) => ({ ...s, sentAt: i * 10, answeredAt: i * 10 + 5 })) : settled;
        },
        dispose: () => inner.dispose?.() ?? Promise.resolve(),
      };
    };
    stub.reset(10);
    const none = serialRounds(new Set([0, 1]));
    const r1 = await run(scenarioFromYaml(RACE_SCENARIO(2)), makeTarget(stub.url), { transport: none });
    await none.dispose?.();
    assert.equal((r1.error as { code?: string } | undefined)?.code, 'FTF_E_RACE_INCONCLUSIVE');
    assert.match(r1.error?.message ?? '', /no race round overlapped fully.*round 1: 1 of 10 in flight together/s);

    stub.reset(10);
    const some = serialRounds(new Set([1]));
    const r2 = await run(scenarioFromYaml(RACE_SCENARIO(2)), makeTarget(stub.url), { transport: some });
    await some.dispose?.();
    assert.equal(r2.error, undefined, r2.error?.message);
    const warning = r2.checks.find((c) => c.check === 'race.overlap');
    assert.equal(warning?.passed, false);
    assert.equal(warning?.severity, 'should');
    assert.equal(warning?.actual, '1 of 2');
  });

  it('rounds outside 1..20 are refused by the scenario schema', () => {
    assert.throws(() => scenarioFromYaml(RACE_SCENARIO(21)), /rounds|20/);
  });
});

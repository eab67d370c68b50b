/**
 * The executable model of the stateful property (src/harness/properties/model/state.ts), pure: it accepts
 * correct traces (every layout the spec leaves open) and rejects wrong ones naming the broken clause; and the
 * runner's handling of command sequences: shrunk to the shortest failing sequence, printed with seed, path
 * and replayPath, and replayed from them.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { CheckpointModel, IdempotencyModel, StreamModel, checkpointIn, subscriptionUid, type Answer } from '../../src/harness/properties/model/state.js';
import { modelSettings } from '../../src/harness/properties/model/property.js';
import { checkProperty, propertySettings } from '../../src/harness/properties/runner.js';
import { RunLog } from '../../src/harness/properties/run-log.js';
import { PropertyViolation } from '../../src/harness/properties/types.js';
import { FtfError } from '../../src/shared/errors.js';

const ans = (status: number, json: unknown): Answer => ({ status, json, text: JSON.stringify(json) });
const sub = (uid: string) => ans(200, { uid, status: 'Pending', amount: 1000000 });
const below = ans(400, { detail: 'Amount is below the indication minimum.' });

describe('IdempotencyModel', () => {
  it('accepts a correct trace: new keys, same and changed-body retries, concurrent retries, rejections replayed', () => {
    const m = new IdempotencyModel();
    assert.equal(m.expectNewKey('k1', 'valid', [sub('s1')]), undefined);
    assert.equal(m.expectReplay('k1', [sub('s1')], 'same body'), undefined);
    assert.equal(m.expectReplay('k1', [sub('s1'), sub('s1'), sub('s1')], 'changed body'), undefined);
    assert.equal(m.expectNewKey('k2', 'below-minimum', [below, below]), undefined);
    assert.equal(m.expectReplay('k2', [below], 'changed body: valid'), undefined);
    assert.equal(m.expectNewKey('k3', 'unknown-uid', [ans(404, { detail: 'Indication not found' })]), undefined);
    assert.equal(m.expectNewKey('k4', 'valid', [ans(200, { subscription: { uid: 's4' } })]), undefined);
    assert.equal(m.expectNewKey('k5', 'valid', [ans(200, { subscriptionUid: 's5', status: 'Pending' })]), undefined);
    assert.deepEqual(m.keys, ['k1', 'k2', 'k3', 'k4', 'k5']);
    assert.equal(IdempotencyModel.expectMissingKey(ans(400, { detail: 'Idempotency-Key header is required.' })), undefined);
  });

  it("judges another user's request with a used key: anything but the primary user's subscription back", () => {
    const m = new IdempotencyModel();
    m.expectNewKey('k1', 'valid', [sub('s1')]);
    m.expectNewKey('k2', 'below-minimum', [below]);
    assert.equal(m.expectOtherUsersKey('k1', sub('s9')), undefined, 'a new subscription of its own');
    assert.equal(m.expectOtherUsersKey('k1', ans(403, { detail: 'Not authorised for this entity' })), undefined, 'an allow-list refusal');
    assert.equal(m.expectOtherUsersKey('k2', below), undefined, 'the same rejection, byte for byte, is its own answer');
    assert.equal(m.expectOtherUsersKey('k1', sub('s1'))?.clause, 'EP-SUBSCRIBE-REPLAY', "the primary user's subscription replayed");
  });

  it('rejects a retry that is not the first answer byte for byte (a new subscription, a status lost, a rejection not cached)', () => {
    const m = new IdempotencyModel();
    m.expectNewKey('k1', 'valid', [sub('s1')]);
    assert.equal(m.expectReplay('k1', [sub('s2')], 'same body')?.clause, 'EP-SUBSCRIBE-REPLAY');
    m.expectNewKey('k2', 'below-minimum', [below]);
    assert.equal(m.expectReplay('k2', [ans(200, below.json)], 'same body')?.clause, 'EP-SUBSCRIBE-REPLAY');
    assert.equal(m.expectReplay('k2', [sub('s9')], 'changed body: valid')?.clause, 'EP-SUBSCRIBE-REPLAY');
    // Same JSON, other bytes: not a replay of the cached answer.
    assert.equal(m.expectReplay('k1', [{ ...sub('s1'), text: JSON.stringify(sub('s1').json, null, 1) }], 'same body')?.clause, 'EP-SUBSCRIBE-REPLAY');
  });

  it('rejects different answers to one new key sent together, an old uid for a new key, and wrong first answers', () => {
    const m = new IdempotencyModel();
    assert.equal(m.expectNewKey('k1', 'valid', [sub('s1'), sub('s2')])?.clause, 'EP-SUBSCRIBE-REPLAY');
    assert.equal(m.expectNewKey('k1', 'valid', [sub('s1')]), undefined);
    assert.equal(m.expectNewKey('k2', 'valid', [sub('s1')])?.clause, 'EP-SUBSCRIBE-NEW-KEY');
    // The valid body's amount is the minimum itself: refused as below it, the minimum rule broke (issue 24).
    assert.equal(m.expectNewKey('k3', 'valid', [below])?.clause, 'ERR-AMOUNT-MIN');
    assert.equal(m.expectNewKey('k3b', 'valid', [ans(500, { detail: 'oops' })])?.clause, 'EP-SUBSCRIBE-NEW-KEY');
    assert.equal(m.expectNewKey('k4', 'below-minimum', [sub('s4')])?.clause, 'ERR-AMOUNT-MIN');
    assert.equal(m.expectNewKey('k5', 'unknown-uid', [ans(400, { detail: 'Bad uid' })])?.clause, 'ERR-INDICATION-UID');
    assert.equal(IdempotencyModel.expectMissingKey(sub('s6'))?.clause, 'EP-SUBSCRIBE-IDEMPOTENCY-KEY');
    assert.equal(m.keys.includes('k2'), false, 'a rejected first answer is not recorded');
  });

  it('finds the subscription uid in each layout the spec allows', () => {
    assert.equal(subscriptionUid({ uid: 'a' }), 'a');
    assert.equal(subscriptionUid({ subscription: { uid: 'b' } }), 'b');
    assert.equal(subscriptionUid({ subscriptionUid: 'c' }), 'c');
    assert.equal(subscriptionUid([{ uid: 'd' }]), undefined);
  });
});

const data = (cursor: string, version: string) => ({ uid: 'cp1', name: 'n', cursor, checkpointVersion: version, updatedAt: '2026-03-02T00:00:00Z' });

function created(): CheckpointModel {
  const c = CheckpointModel.expectCreated('n', ans(201, data('ev1.a', 'ec1.1')));
  assert.ok('model' in c);
  return c.model;
}

describe('CheckpointModel', () => {
  it('accepts a correct cycle: create, GET, PATCH (wrapped or bare), stale 409 with the current state, one winner of concurrent PATCHes', () => {
    const m = created();
    assert.equal(m.expectGet(ans(200, { checkpoint: data('ev1.a', 'ec1.1') })), undefined);
    assert.equal(m.expectFreshPatch('ev1.b', ans(200, { checkpoint: data('ev1.b', 'ec1.2') })), undefined);
    assert.equal(m.expectFreshPatch('ev1.c', ans(200, data('ev1.c', 'ec1.3'))), undefined);
    assert.deepEqual(m.stale, ['ec1.1', 'ec1.2']);
    assert.equal(m.expectStalePatch('ec1.1', ans(409, { detail: 'conflict', checkpoint: data('ev1.c', 'ec1.3') })), undefined);
    assert.equal(m.expectStalePatch('ec1.2', ans(409, { detail: 'conflict', ...data('ev1.c', 'ec1.3') })), undefined);
    const c409 = ans(409, { detail: 'conflict', checkpoint: data('ev1.e', 'ec1.4') });
    assert.equal(m.expectConcurrentPatches(['ev1.d', 'ev1.e', 'ev1.f'], [c409, ans(200, { checkpoint: data('ev1.e', 'ec1.4') }), c409]), undefined);
    assert.equal(m.current.cursor, 'ev1.e');
    assert.equal(m.expectGet(ans(200, { checkpoint: data('ev1.e', 'ec1.4') })), undefined);
    assert.equal(m.expectOtherUsersPut(ans(201, { ...data('ev1.z', 'ec1.9'), uid: 'cp2' })), undefined);
  });

  it('rejects a stale version that wins, a 409 without the current state, a kept version, two winners and a shared checkpoint', () => {
    const fresh = (): CheckpointModel => {
      const m = created();
      m.expectFreshPatch('ev1.b', ans(200, { checkpoint: data('ev1.b', 'ec1.2') }));
      return m;
    };
    assert.equal(fresh().expectStalePatch('ec1.1', ans(200, { checkpoint: data('ev1.c', 'ec1.3') }))?.clause, 'EP-CHECKPOINT-CONFLICT');
    assert.equal(fresh().expectStalePatch('ec1.1', ans(409, { detail: 'conflict' }))?.clause, 'EP-CHECKPOINT-CONFLICT');
    assert.equal(fresh().expectStalePatch('ec1.1', ans(409, { checkpoint: data('ev1.a', 'ec1.1') }))?.clause, 'EP-CHECKPOINT-CONFLICT');
    assert.equal(created().expectFreshPatch('ev1.b', ans(200, { checkpoint: data('ev1.b', 'ec1.1') }))?.clause, 'EP-CHECKPOINT-CYCLE');
    assert.equal(created().expectFreshPatch('ev1.b', ans(200, { checkpoint: data('ev1.x', 'ec1.2') }))?.clause, 'EP-CHECKPOINT-CYCLE');
    // A PATCH to the cursor already held changes no state: keeping the version (a token of the state) is allowed, and
    // a stale version is still refused after it.
    const noop = created();
    assert.equal(noop.expectFreshPatch('ev1.a', ans(200, { checkpoint: data('ev1.a', 'ec1.1') })), undefined);
    assert.deepEqual(noop.stale, [], 'a kept version is still the current one, not a stale one');
    assert.equal(created().expectFreshPatch('ev1.a', ans(200, { checkpoint: data('ev1.a', 'ec1.2') })), undefined);
    const after = created();
    after.expectFreshPatch('ev1.b', ans(200, { checkpoint: data('ev1.b', 'ec1.2') }));
    assert.equal(after.expectStalePatch('ec1.1', ans(200, { checkpoint: data('ev1.b', 'ec1.2') }))?.clause, 'EP-CHECKPOINT-CONFLICT', 'a stale version to the cursor held is refused');
    const two = [ans(200, { checkpoint: data('ev1.b', 'ec1.2') }), ans(200, { checkpoint: data('ev1.c', 'ec1.3') })];
    assert.equal(created().expectConcurrentPatches(['ev1.b', 'ev1.c'], two)?.clause, 'EP-CHECKPOINT-CONFLICT');
    const keptVersion = [ans(200, { checkpoint: data('ev1.b', 'ec1.1') }), ans(200, { checkpoint: data('ev1.c', 'ec1.1') })];
    assert.equal(created().expectConcurrentPatches(['ev1.b', 'ev1.c'], keptVersion)?.clause, 'EP-CHECKPOINT-CYCLE');
    const wrongLoser = [ans(200, { checkpoint: data('ev1.b', 'ec1.2') }), ans(409, { checkpoint: data('ev1.a', 'ec1.1') })];
    assert.equal(created().expectConcurrentPatches(['ev1.b', 'ev1.c'], wrongLoser)?.clause, 'EP-CHECKPOINT-CONFLICT');
    assert.equal(created().expectGet(ans(200, { checkpoint: data('ev1.q', 'ec1.1') }))?.clause, 'EP-CHECKPOINT-CYCLE');
    assert.equal(created().expectOtherUsersPut(ans(200, data('ev1.a', 'ec1.1')))?.clause, 'EP-CHECKPOINT-SCOPE');
    const no = CheckpointModel.expectCreated('n', ans(200, data('ev1.a', 'ec1.1')));
    assert.ok('violation' in no && no.violation.clause === 'EP-CHECKPOINT-CREATE');
    assert.equal(checkpointIn({ detail: 'x' }), undefined);
  });
});

describe('StreamModel', () => {
  const ev = (n: number) => ({ uid: `u${n}`, cursor: `ev1.${n}` });

  it('learns appended events in order, slices ranges and records fences at the head', () => {
    const s = new StreamModel('ev1.anchor');
    assert.equal(s.cursorAt(-1), 'ev1.anchor');
    assert.equal(s.extend([ev(1), ev(2)]), undefined);
    assert.equal(s.headKnown, true);
    s.recordFence('ev1.2');
    s.wrote();
    assert.equal(s.headKnown, false);
    assert.equal(s.extend([ev(3)]), undefined);
    s.recordFence('ev1.3');
    assert.deepEqual(s.range(-1).map((e) => e.uid), ['u1', 'u2', 'u3']);
    assert.deepEqual(s.range(0, 1).map((e) => e.uid), ['u2']);
    assert.deepEqual(s.fences, [{ token: 'ev1.2', index: 1 }, { token: 'ev1.3', index: 2 }]);
  });

  it('rejects an event read again as new (the stream is append-only)', () => {
    const s = new StreamModel('ev1.anchor');
    s.extend([ev(1), ev(2)]);
    assert.equal(s.extend([ev(2), ev(3)])?.clause, 'EVS-ORDER');
    assert.equal(s.extend([ev(4), ev(4)])?.clause, 'EVS-ORDER');
  });

  it('rejects an endCursor that names an event before the known head (or the anchor once events follow it)', () => {
    const s = new StreamModel('ev1.anchor');
    assert.equal(s.recordFence('ev1.anchor'), undefined);
    s.extend([ev(1), ev(2), ev(3)]);
    assert.equal(s.recordFence('ev1.2')?.clause, 'EP-EVENT-FENCE');
    assert.equal(s.recordFence('ev1.anchor')?.clause, 'EP-EVENT-FENCE');
    assert.equal(s.recordFence('opaque-head-token'), undefined);
    assert.equal(s.recordFence(null), undefined);
    assert.deepEqual(s.fences.map((f) => f.index), [-1, 2]);
  });
});

describe('command sequences in the runner', () => {
  interface M { n: number }
  interface R { n: number }
  class Inc implements fc.AsyncCommand<M, R, false> {
    check = (): boolean => true;
    run = async (m: M, r: R): Promise<void> => {
      m.n++;
      r.n++;
      if (r.n >= 3) throw new PropertyViolation({ clause: 'EP-CHECKPOINT-CYCLE', message: `counter reached ${r.n}` });
    };
    toString = (): string => 'inc';
  }
  class Noop implements fc.AsyncCommand<M, R, false> {
    check = (): boolean => true;
    run = async (): Promise<void> => undefined;
    toString = (): string => 'noop';
  }

  async function failure(env: Record<string, string>): Promise<string> {
    const replayPath = env.FTF_FC_REPLAY_PATH;
    try {
      await checkProperty({
        title: 'toy',
        arbitrary: fc.commands([fc.constant(new Inc()), fc.constant(new Noop())], { maxCommands: 20, ...(replayPath ? { replayPath } : {}) }),
        predicate: (cmds) => fc.asyncModelRun(() => ({ model: { n: 0 }, real: { n: 0 } }), cmds),
        settings: propertySettings(env, 50),
        log: new RunLog(),
        bases: { baseUrl: 'http://127.0.0.1:1/api/v1' },
        describe: (cmds) => String(cmds),
        extraEnv: (cmds) => {
          const m = /replayPath="([^"]+)"/.exec(String(cmds));
          return m ? [`FTF_FC_REPLAY_PATH=${m[1] as string}`] : [];
        },
        command: 'npx playwright test specs/properties/model.spec.ts',
        timeLimitMs: 600_000,
      });
    } catch (e) {
      assert.ok(e instanceof FtfError);
      return e.message;
    }
    assert.fail('the toy property passed');
  }

  it('shrinks to the shortest failing sequence and prints seed, path and replayPath; those replay it', async () => {
    const text = await failure({ FTF_FC_SEED: '42' });
    assert.match(text, /\[EP-CHECKPOINT-CYCLE\] counter reached 3/);
    assert.match(text, /counterexample \(shrunk\): inc,inc,inc \/\*replayPath="[^"]+"\*\//);
    const replay = /replay: FTF_FC_SEED=(-?\d+) FTF_FC_PATH=([\d:]+) FTF_FC_REPLAY_PATH=(\S+) npx playwright test specs\/properties\/model\.spec\.ts/.exec(text);
    assert.ok(replay, text);
    const again = await failure({ FTF_FC_SEED: replay[1] as string, FTF_FC_PATH: replay[2] as string, FTF_FC_REPLAY_PATH: replay[3] as string });
    assert.match(again, /failed after 1 run\(s\)/);
    assert.match(again, /counterexample \(shrunk\): inc,inc,inc /);
  });
});

describe('modelSettings', () => {
  it('reads FTF_FC_COMMANDS and FTF_FC_REPLAY_PATH, refusing bad values', () => {
    assert.deepEqual(modelSettings({}), { maxCommands: 25, replayPath: undefined });
    assert.deepEqual(modelSettings({ FTF_FC_COMMANDS: '40', FTF_FC_REPLAY_PATH: 'AABDG:V' }), { maxCommands: 40, replayPath: 'AABDG:V' });
    assert.throws(() => modelSettings({ FTF_FC_COMMANDS: '0' }), /FTF_FC_COMMANDS/);
    assert.throws(() => modelSettings({ FTF_FC_REPLAY_PATH: 'a b' }), /FTF_FC_REPLAY_PATH/);
  });
});

/**
 * The fast-check commands of the model property: each one makes its requests through the APIs (recorded
 * transport) and hands the answers to the model (state.ts), which judges them and moves on. Parameters are
 * drawn as selectors (small integers) and resolved against the model when the command runs, so a shrunk
 * sequence stays meaningful. A command that breaks the model throws PropertyViolation naming the clause.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { TraversalOracle } from '../oracle.js';
import { walk } from '../paging-case.js';
import { CHANGED, subscribeBody } from './api.js';
import { FilterModel, WebhookModel } from './access.js';
import { ClockMovesThenRetry, OtherUserFilteredRead, WebhookOtherUser, WebhookReregister, DeregisterWebhook, FilteredRead, OtherUserReads, ReadonlyWrite, ReadSubscriptions, RegisterWebhook, WRITES, type EntityPick } from './commands-access.js';
import { DeleteCheckpoint, PutCheckpoint, SecondUserDelete } from './commands-checkpoint.js';
import { ApiKeyRead, ClientCredentialsGrant, CodeGrant, RefreshGrant, ReuseToken, TokenExpires, type ClientForm, type CodeForm, type RefreshForm } from './commands-token.js';
import { ReadIndication, type IndicationCredential } from './commands-indication.js';
import { TokenModel } from './tokens.js';
import { fail, judge, keyName, learnHead, oracleContext, pick, position, type Can, type Cmd, type Model, type Real } from './command-kit.js';
import { CheckpointModel, checkpointIn, IdempotencyModel, StreamModel, type BodyKind } from './state.js';

export type { Model, Real } from './command-kit.js';

class Subscribe implements Cmd {
  private shown = '';
  /** entitySel: which allowed entity a valid (or rejected) body names (Endpoints rule 7: the request states it). */
  constructor(readonly kind: BodyKind, readonly together: number, readonly entitySel = 0) {}
  check = (m: Readonly<Model>): boolean => this.kind !== 'forbidden-entity' || m.can.forbidden !== undefined;
  async run(m: Model, r: Real): Promise<void> {
    const key = randomUUID();
    const entity = pick(m.can.entities, this.entitySel);
    this.shown = this.kind === 'forbidden-entity' ? `${m.can.forbidden ?? ''}` : entity;
    const body = subscribeBody(r.target, r.product, this.kind, r.unknownUid, entity);
    const role = this.toString();
    const answers = this.together > 1 ? await r.api.subscribeTogether(key, body, this.together, role) : [await r.api.subscribe(key, body, role)];
    m.stream.wrote();
    judge(m.idem.expectNewKey(key, this.kind, answers), answers, role);
    m.kinds.set(key, this.kind);
    m.entityOf.set(key, entity);
    const uid = this.kind === 'valid' ? m.idem.uidOf(key) : undefined;
    if (uid !== undefined) m.subs.push({ uid, entity });
  }
  toString = (): string => `subscribe(new key, ${this.kind}${this.shown ? ` for ${this.shown}` : ''}${this.together > 1 ? `, ${this.together} together` : ''})`;
}

class Retry implements Cmd {
  private shown = '';
  constructor(readonly keySel: number, readonly changed: boolean, readonly together: number) {}
  check = (m: Readonly<Model>): boolean => m.idem.keys.length > 0;
  async run(m: Model, r: Real): Promise<void> {
    const key = pick(m.idem.keys, this.keySel);
    const first = m.kinds.get(key) as BodyKind;
    const kind = this.changed ? CHANGED[first] : first;
    this.shown = `${keyName(m, key)} (first body ${first})`;
    const body = subscribeBody(r.target, r.product, kind, r.unknownUid, m.entityOf.get(key));
    const role = this.toString();
    const answers = this.together > 1 ? await r.api.subscribeTogether(key, body, this.together, role) : [await r.api.subscribe(key, body, role)];
    m.stream.wrote();
    judge(m.idem.expectReplay(key, answers, this.changed ? `changed body: ${kind}` : 'same body'), answers, role);
  }
  toString = (): string => `retry(used key #${this.keySel}${this.shown ? ` = ${this.shown}` : ''}, ${this.changed ? 'changed' : 'same'} body${this.together > 1 ? `, ${this.together} together` : ''})`;
}

class OtherUsersKey implements Cmd {
  private shown = '';
  constructor(readonly keySel: number) {}
  check = (m: Readonly<Model>): boolean => m.can.second && m.idem.keys.length > 0;
  async run(m: Model, r: Real): Promise<void> {
    const key = pick(m.idem.keys, this.keySel);
    const kind = m.kinds.get(key) as BodyKind;
    this.shown = `${keyName(m, key)} (body ${kind})`;
    const a = await r.api.subscribe(key, subscribeBody(r.target, r.product, kind, r.unknownUid, m.entityOf.get(key)), this.toString(), 'second');
    m.stream.wrote();
    judge(m.idem.expectOtherUsersKey(key, a), [a], this.toString());
  }
  toString = (): string => `subscribe by the second user with the primary user's key #${this.keySel}${this.shown ? ` = ${this.shown}` : ''}`;
}

class SubscribeWithoutKey implements Cmd {
  check = (): boolean => true;
  async run(m: Model, r: Real): Promise<void> {
    const a = await r.api.subscribe(undefined, subscribeBody(r.target, r.product, 'valid', r.unknownUid), this.toString());
    m.stream.wrote();
    judge(IdempotencyModel.expectMissingKey(a), [a], this.toString());
  }
  toString = (): string => 'subscribe(no Idempotency-Key)';
}

class GetCheckpoint implements Cmd {
  check = (): boolean => true;
  async run(m: Model, r: Real): Promise<void> {
    const a = await r.api.getCheckpoint(r.name, this.toString());
    judge(m.cp.deleted ? m.cp.expectGone('GET', a) : m.cp.expectGet(a), [a], this.toString());
  }
  toString = (): string => 'checkpoint GET';
}

class Patch implements Cmd {
  private shown = '';
  /** stale: with a version this checkpoint had before (picked by staleSel); before any success, with the current one. */
  constructor(readonly cursorSel: number, readonly stale: boolean, readonly staleSel: number) {}
  check = (): boolean => true;
  async run(m: Model, r: Real): Promise<void> {
    const at = position(m, this.cursorSel);
    const cursor = m.stream.cursorAt(at);
    const version = this.stale && m.cp.stale.length > 0 ? pick(m.cp.stale, this.staleSel) : m.cp.current.version;
    // A target may hand out a version it used before (a version derived from the state): then it is current, not stale.
    const stale = version !== m.cp.current.version;
    this.shown = `${stale ? `stale version ${version}` : 'current version'} → ${at < 0 ? 'the anchor' : `#${at}`}${m.cp.deleted ? ', after its DELETE' : ''}`;
    const a = await r.api.patchCheckpoint(r.name, version, cursor, this.toString());
    m.stream.wrote();
    if (m.cp.deleted) judge(m.cp.expectGone('PATCH', a), [a], this.toString());
    else judge(stale ? m.cp.expectStalePatch(version, a) : m.cp.expectFreshPatch(cursor, a), [a], this.toString());
  }
  toString = (): string => `checkpoint PATCH(${this.shown || (this.stale ? `stale version #${this.staleSel}` : 'current version')})`;
}

class PatchTogether implements Cmd {
  private shown = '';
  constructor(readonly cursorSels: readonly number[]) {}
  check = (m: Readonly<Model>): boolean => !m.cp.deleted;
  async run(m: Model, r: Real): Promise<void> {
    // Only PATCHes that move the checkpoint: to the cursor it holds, a PATCH changes no state, so a target may keep the
    // version and let the next PATCH with it win as well (state.ts, applyWin); "exactly one wins" is a claim about moves.
    const ats = this.cursorSels.map((s) => position(m, s)).filter((at) => m.stream.cursorAt(at) !== m.cp.current.cursor);
    const cursors = ats.map((at) => m.stream.cursorAt(at));
    this.shown = ats.map((at) => (at < 0 ? 'anchor' : `#${at}`)).join(', ') || 'every cursor is the one held: nothing sent';
    if (cursors.length === 0) return;
    const answers = await r.api.patchTogether(r.name, m.cp.current.version, cursors, this.toString());
    m.stream.wrote();
    judge(m.cp.expectConcurrentPatches(cursors, answers), answers, this.toString());
  }
  toString = (): string => `checkpoint PATCH ×${this.cursorSels.length} together with the current version (${this.shown || 'cursors by position'})`;
}

class SecondUserPut implements Cmd {
  check = (m: Readonly<Model>): boolean => m.can.second && m.secondCp === undefined;
  async run(m: Model, r: Real): Promise<void> {
    const a = await r.api.putCheckpoint(r.name, 'second', this.toString());
    m.secondPut = true;
    m.stream.wrote();
    judge(m.cp.expectOtherUsersPut(a), [a], this.toString());
    m.secondCp = checkpointIn(a.json)?.uid;
  }
  toString = (): string => 'checkpoint PUT of the same name by the second user';
}

class Append implements Cmd {
  constructor(readonly count: number) {}
  check = (m: Readonly<Model>): boolean => m.can.append;
  async run(m: Model, r: Real): Promise<void> {
    await r.events.append(this.count, undefined, this.toString());
    m.stream.wrote();
  }
  toString = (): string => `append ${this.count} event(s) (control API)`;
}

class ReadToHead implements Cmd {
  private shown = '';
  /** limit undefined = the target's default page size. */
  constructor(readonly startSel: number, readonly limit: number | undefined) {}
  check = (): boolean => true;
  async run(m: Model, r: Real): Promise<void> {
    await learnHead(m, r, this.toString());
    const start = position(m, this.startSel);
    this.shown = start < 0 ? 'the anchor' : `#${start}`;
    const oracle = new TraversalOracle(m.stream.range(start), oracleContext(m.stream, start));
    const pages = await walk(r.events, { startCursor: m.stream.cursorAt(start), limit: this.limit }, oracle, this.toString(), { maxPages: r.maxPages });
    pages.forEach((p, i) => fail(m.stream.recordFence(p.pageInfo.endCursor), `${this.toString()} page ${i + 1}`));
  }
  toString = (): string => `read to the head(from ${this.shown || `position #${this.startSel}`}, limit ${this.limit ?? 'default'})`;
}

class FencedWalk implements Cmd {
  private shown = '';
  constructor(readonly startSel: number, readonly fenceSel: number, readonly useToken: boolean, readonly limit: number | undefined) {}
  check = (m: Readonly<Model>): boolean => m.stream.known.length > 0 || m.stream.fences.length > 0;
  async run(m: Model, r: Real): Promise<void> {
    const s = m.stream;
    const token = this.useToken || s.known.length === 0 ? (s.fences.length ? pick(s.fences, this.fenceSel) : undefined) : undefined;
    const fence = token?.index ?? this.fenceSel % s.known.length;
    const endCursor = token?.token ?? s.cursorAt(fence);
    const start = (this.startSel % (fence + 2)) - 1;
    this.shown = `from ${start < 0 ? 'the anchor' : `#${start}`} to ${token ? `the endCursor fence taken at #${fence}` : `the event fence #${fence}`}`;
    const oracle = new TraversalOracle(s.range(start, fence), oracleContext(s, start, fence));
    await walk(r.events, { startCursor: s.cursorAt(start), endCursor, limit: this.limit }, oracle, this.toString(), { maxPages: r.maxPages });
  }
  toString = (): string => `fenced walk(${this.shown || `start #${this.startSel}, ${this.useToken ? 'endCursor' : 'event'} fence #${this.fenceSel}`}, limit ${this.limit ?? 'default'})`;
}

export interface CommandBounds {
  maxCommands: number;
  /** Most requests released together by one command. */
  maxTogether: number;
  /** fast-check's replayPath of a commands counterexample (FTF_FC_REPLAY_PATH). */
  replayPath?: string | undefined;
}

const sel = fc.nat({ max: 1000 });
const limit = fc.option(fc.integer({ min: 1, max: 5 }), { freq: 5, nil: undefined });

type Credential = 'primary' | 'second';

/** The command mix: subscribes and retries, checkpoint reads and writes, event reads, appends, and every other operation. */
export function commandsArbitrary(b: CommandBounds): fc.Arbitrary<Iterable<Cmd>> {
  const together = fc.oneof({ arbitrary: fc.constant(1), weight: 3 }, { arbitrary: fc.integer({ min: 2, max: b.maxTogether }), weight: 1 });
  const kind = fc.constantFrom<BodyKind>('valid', 'below-minimum', 'unknown-uid');
  const read = fc.tuple(sel, limit).map(([s, l]) => new ReadToHead(s, l));
  const fenced = fc.tuple(sel, sel, fc.boolean(), limit).map(([s, f, t, l]) => new FencedWalk(s, f, t, l));
  const append = fc.integer({ min: 1, max: 6 }).map((n) => new Append(n));
  // fc.commands draws uniformly from the list: the event reads are listed more than once (they check the most per request).
  const arbs: Array<fc.Arbitrary<Cmd>> = [
      fc.tuple(kind, together).map(([k, n]) => new Subscribe(k, n)),
      // Rejections to replay later (a cached rejection must come back as it was, also for a corrected body).
      fc.constantFrom<BodyKind>('below-minimum', 'unknown-uid', 'negative').map((k) => new Subscribe(k, 1)),
      // The minimum negated: a sign dropped anywhere turns it into an accepted minimum (amount-sign-dropped).
      fc.constant(null).map(() => new Subscribe('negative', 1)),
      // A valid body under a new key sent several times at once: the duplicate-subscription race (EP-SUBSCRIBE-REPLAY).
      fc.integer({ min: 2, max: b.maxTogether }).map((n) => new Subscribe('valid', n)),
      fc.tuple(sel, fc.boolean(), together).map(([k, c, n]) => new Retry(k, c, n)),
      // A retry with a changed body is the only one that tells a cached rejection from a re-processed one.
      sel.map((k) => new Retry(k, true, 1)),
      fc.constant(null).map(() => new SubscribeWithoutKey()),
      // Keys are per user: the second user's request with a used key is not a retry (idempotency-key-not-user-scoped).
      sel.map((k) => new OtherUsersKey(k)),
      fc.constant(null).map(() => new GetCheckpoint()),
      fc.tuple(sel, fc.boolean(), sel).map(([c, stale, s]) => new Patch(c, stale, s)),
      fc.array(sel, { minLength: 2, maxLength: b.maxTogether }).map((cs) => new PatchTogether(cs)),
      fc.constant(null).map(() => new SecondUserPut()),
      // The checkpoint's lifecycle: DELETE, every operation after it (404), PUT again (a creation), PUT of the existing name.
      // Each DELETE is followed at once by a PATCH with the version the checkpoint had (404); half of them by a PUT again.
      fc.constant(null).map(() => new DeleteCheckpoint(false)),
      fc.constant(null).map(() => new DeleteCheckpoint(true)),
      fc.constant(null).map(() => new PutCheckpoint()),
      fc.constant(null).map(() => new SecondUserDelete()),
      // Every other operation, with each credential kind the profile has (commands-access.ts).
      fc.constantFrom<Credential>('primary', 'primary', 'second').map((c) => new RegisterWebhook(c)),
      fc.constantFrom<Credential>('primary', 'primary', 'second').map((c) => new DeregisterWebhook(c)),
      fc.constantFrom(...WRITES).map((w) => new ReadonlyWrite(w)),
      fc.constantFrom<'second' | 'readonly'>('second', 'readonly').map((c) => new OtherUserReads(c)),
      fc.tuple(fc.constantFrom<'primary' | 'second' | 'readonly'>('primary', 'primary', 'second', 'readonly'), fc.constantFrom<EntityPick>('allowed', 'allowed', 'forbidden', 'unknown'), sel)
        .map(([c, e, s]) => new ReadSubscriptions(c, e, s)),
      fc.constantFrom<BodyKind>('valid', 'forbidden-entity').chain((k) => sel.map((s) => new Subscribe(k, 1, s))),
      fc.tuple(fc.option(fc.constantFrom<EntityPick>('allowed', 'allowed', 'forbidden', 'unknown'), { nil: undefined }), sel, fc.option(sel, { nil: undefined }), sel, limit)
        .map(([e, es, t, s, l]) => new FilteredRead(e, es, t, s, l)),
      sel.map((k) => new ClockMovesThenRetry(k)),
      sel.map((k) => new ClockMovesThenRetry(k)),
      fc.constant(null).map(() => new WebhookOtherUser()),
      // Operations repeated after a delete, and a filter combined with another credential's permission.
      fc.constantFrom<Credential>('primary', 'second').map((c) => new WebhookReregister(c)),
      fc.tuple(fc.constantFrom<'second' | 'readonly'>('readonly', 'readonly', 'second'), fc.option(sel, { nil: undefined }), limit).map(([c, t, l]) => new OtherUserFilteredRead(c, t, l)),
      // The token endpoint: every grant with each credential kind, the forms with fields left out, tokens used again.
      fc.tuple(sel, fc.constantFrom<ClientForm>('full', 'basic-only', 'secret-left-out', 'wrong-secret')).map(([c, f]) => new ClientCredentialsGrant(c, f)),
      fc.tuple(sel, fc.constantFrom<CodeForm>('full', 'full', 'no-verifier', 'wrong-verifier', 'other-redirect', 'no-redirect')).map(([c, f]) => new CodeGrant(c, f)),
      // PKCE on its own draw: the verifier left out or another one (AUTH-CODE-PKCE).
      fc.tuple(sel, fc.constantFrom<CodeForm>('no-verifier', 'wrong-verifier')).map(([c, f]) => new CodeGrant(c, f)),
      // Expiry needs the clock (control API): a new token used 60 s before and a few minutes past its expires_in.
      sel.map((s) => new TokenExpires(s)),
      // GET /indication/{code} by each credential kind, and an unknown code.
      fc.tuple(fc.constantFrom<IndicationCredential>('primary', 'second', 'readonly'), fc.boolean()).map(([c, u]) => new ReadIndication(c, u)),
      fc.tuple(sel, fc.constantFrom<RefreshForm>('full', 'full', 'client-id-left-out')).map(([c, f]) => new RefreshGrant(c, f)),
      sel.map((s) => new ReuseToken(s)),
      sel.map((s) => new ApiKeyRead(s)),
      append, append,
      read, read, read,
      fenced, fenced, fenced,
    ];
  // size 'max': sequences up to maxCommands long (the default size keeps most of them at a handful of commands).
  return fc.commands(arbs, { maxCommands: b.maxCommands, size: 'max', ...(b.replayPath ? { replayPath: b.replayPath } : {}) });
}

/** Events appended after the anchor when a run starts (when the target has the control API). */
export const SETUP_APPENDS = 6;

/** Every run starts here: a fresh checkpoint (201, its cursor the current end of the stream) is the anchor of the stream model. */
export async function setupRun(r: Real, can: Can): Promise<Model> {
  const role = `setup: PUT checkpoint ${r.name}`;
  const put = await r.api.putCheckpoint(r.name, 'primary', role);
  const created = CheckpointModel.expectCreated(r.name, put);
  if ('violation' in created) fail(created.violation, role);
  fail(put.schema, role);
  const cp = (created as { model: CheckpointModel }).model;
  const stream = new StreamModel(cp.current.cursor);
  // Nothing was written since the PUT: a read from its cursor must be empty (the cursor is the end of the stream).
  const after = await r.events.page({ startCursor: cp.current.cursor }, 'setup: read from the new checkpoint cursor');
  if (after.events.length > 0 || after.pageInfo.hasNextPage) {
    const own = after.events[0]?.cursor === cp.current.cursor;
    fail({
      clause: own ? 'EP-EVENT-PAGING' : 'EP-CHECKPOINT-CREATE',
      message: own
        ? 'reading from the new checkpoint cursor returns the event of that cursor itself: start_cursor must return only events after it'
        : `reading from the new checkpoint's cursor returns ${after.events.length} event(s)${after.pageInfo.hasNextPage ? ' and hasNextPage true' : ''} with no write in between: a new checkpoint's cursor is the current end of the stream`,
    }, 'setup: read from the new checkpoint cursor');
  }
  stream.extend([]);
  fail(stream.recordFence(after.pageInfo.endCursor), 'setup: read from the new checkpoint cursor');
  if (can.append) {
    // Events after the anchor from the start, so that small page sizes make walks of several pages.
    await r.events.append(SETUP_APPENDS, undefined, `setup: append ${SETUP_APPENDS} events (control API)`);
    stream.wrote();
  }
  return {
    idem: new IdempotencyModel(), kinds: new Map(), entityOf: new Map(), cp, stream, secondPut: false, secondCp: undefined,
    subs: [], hooks: new WebhookModel(), filters: new FilterModel(), clockSeconds: 0, tokens: new TokenModel(), can,
  };
}

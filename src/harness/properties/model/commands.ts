/**
 * The fast-check commands of the model property: each one makes its requests through the APIs (recorded
 * transport) and hands the answers to the model (state.ts), which judges them and moves on. Parameters are
 * drawn as selectors (small integers) and resolved against the model when the command runs, so a shrunk
 * sequence stays meaningful. A command that breaks the model throws PropertyViolation naming the clause.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { EventsApi } from '../events-api.js';
import { snapshotLabeller, TraversalOracle, type OracleContext } from '../oracle.js';
import { collect, walk } from '../paging-case.js';
import { PropertyViolation, type Violation } from '../types.js';
import { CHANGED, subscribeBody, type ModelApi, type Product } from './api.js';
import { CheckpointModel, IdempotencyModel, StreamModel, type Answer, type BodyKind } from './state.js';
import type { ResolvedTarget } from '../../target/types.js';

/** The model: the three parts of state.ts plus what the target offers. */
export interface Model {
  idem: IdempotencyModel;
  /** Body kind of each used key (a retry sends the same or the changed body). */
  kinds: Map<string, BodyKind>;
  cp: CheckpointModel;
  stream: StreamModel;
  secondPut: boolean;
  can: { append: boolean; second: boolean };
}

/** The system under test: the APIs and the per-run names. */
export interface Real {
  api: ModelApi;
  events: EventsApi;
  target: ResolvedTarget;
  product: Product;
  /** This run's checkpoint name (fresh per run: runs must not see each other's state). */
  name: string;
  /** An indication uid that does not exist (the rejected body). */
  unknownUid: string;
  maxPages: number;
}

type Cmd = fc.AsyncCommand<Model, Real, false>;

function fail(v: Violation | undefined, role: string): void {
  if (v) throw new PropertyViolation({ ...v, role: v.role ?? role });
}

/** The model's judgement first (the more specific diagnosis), then the answers' schema mismatches. */
function judge(v: Violation | undefined, answers: readonly Answer[], role: string): void {
  fail(v, role);
  fail(answers.find((a) => a.schema)?.schema, role);
}

const pick = <T>(xs: readonly T[], sel: number): T => xs[sel % xs.length] as T;
/** Positions -1 (the anchor) .. known-1. */
const position = (m: Model, sel: number): number => (sel % (m.stream.known.length + 1)) - 1;
const keyName = (m: Model, key: string): string => `k${m.idem.keys.indexOf(key) + 1}`;

class Subscribe implements Cmd {
  constructor(readonly kind: BodyKind, readonly together: number) {}
  check = (): boolean => true;
  async run(m: Model, r: Real): Promise<void> {
    const key = randomUUID();
    const body = subscribeBody(r.target, r.product, this.kind, r.unknownUid);
    const role = this.toString();
    const answers = this.together > 1 ? await r.api.subscribeTogether(key, body, this.together, role) : [await r.api.subscribe(key, body, role)];
    m.stream.wrote();
    judge(m.idem.expectNewKey(key, this.kind, answers), answers, role);
    m.kinds.set(key, this.kind);
  }
  toString = (): string => `subscribe(new key, ${this.kind}${this.together > 1 ? `, ${this.together} together` : ''})`;
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
    const body = subscribeBody(r.target, r.product, kind, r.unknownUid);
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
    const a = await r.api.subscribe(key, subscribeBody(r.target, r.product, kind, r.unknownUid), this.toString(), 'second');
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
    judge(m.cp.expectGet(a), [a], this.toString());
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
    this.shown = `${stale ? `stale version ${version}` : 'current version'} → ${at < 0 ? 'the anchor' : `#${at}`}`;
    const a = await r.api.patchCheckpoint(r.name, version, cursor, this.toString());
    m.stream.wrote();
    judge(stale ? m.cp.expectStalePatch(version, a) : m.cp.expectFreshPatch(cursor, a), [a], this.toString());
  }
  toString = (): string => `checkpoint PATCH(${this.shown || (this.stale ? `stale version #${this.staleSel}` : 'current version')})`;
}

class PatchTogether implements Cmd {
  private shown = '';
  constructor(readonly cursorSels: readonly number[]) {}
  check = (): boolean => true;
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
  check = (m: Readonly<Model>): boolean => m.can.second && !m.secondPut;
  async run(m: Model, r: Real): Promise<void> {
    const a = await r.api.putCheckpoint(r.name, 'second', this.toString());
    m.secondPut = true;
    m.stream.wrote();
    judge(m.cp.expectOtherUsersPut(a), [a], this.toString());
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

function oracleContext(s: StreamModel, start: number, fence?: number): OracleContext {
  const index = new Map(s.known.map((e, i) => [e.uid, i]));
  return {
    label: snapshotLabeller(s.known),
    snapshotIndex: (uid) => index.get(uid),
    ...(start >= 0 ? { startIndex: start } : {}),
    ...(fence !== undefined && fence >= 0 ? { fenceIndex: fence } : {}),
  };
}

/** Reads on from the last known event (default page size) when a write may have added events. */
async function learnHead(m: Model, r: Real, role: string): Promise<void> {
  if (m.stream.headKnown) return;
  const last = m.stream.known.length - 1;
  const what = `${role} (reading on from the last known event)`;
  const pages = await collect(r.events, { startCursor: m.stream.cursorAt(last) }, snapshotLabeller(m.stream.known));
  const fresh = pages.flatMap((p) => p.events);
  fail(m.stream.extend(fresh), what);
  const fenceProblem = pages.map((p) => m.stream.recordFence(p.pageInfo.endCursor)).find((x) => x !== undefined);
  if (fenceProblem) {
    // An endCursor naming an earlier event may as well be events out of order on the page: ONE probe, reading
    // the new events again one per page, tells them apart (an order that differs is the better diagnosis).
    const oracle = new TraversalOracle(fresh, oracleContext(m.stream, last));
    await walk(r.events, { startCursor: m.stream.cursorAt(last), limit: 1 }, oracle, `${what}, probe: one event per page`, { maxPages: r.maxPages });
    fail(fenceProblem, what);
  }
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

/** The command mix: subscribes and retries, checkpoint reads and writes, event reads, appends. */
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
      fc.constantFrom<BodyKind>('below-minimum', 'unknown-uid').map((k) => new Subscribe(k, 1)),
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
export async function setupRun(r: Real, can: Model['can']): Promise<Model> {
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
  return { idem: new IdempotencyModel(), kinds: new Map(), cp, stream, secondPut: false, can };
}

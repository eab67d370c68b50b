/**
 * The executable model of what the spec promises for POST /subscribe, checkpoints and the event stream
 * (pure: no I/O). Each `expect…` method judges the answers of one command against the model, returns the
 * first violation (naming its clause) or undefined, and on success moves the model to the new state.
 *
 * - Idempotency (Endpoints rule 5, Errors rules): a used key replays the FIRST answer byte for byte (status and
 *   body text), a rejection included, whatever body the retry carries; answers to one new key sent
 *   concurrently are one answer; a new key with a valid body is a new subscription (a uid not seen before).
 * - Checkpoints (Endpoints table and rule 4, Errors 409): PATCH with the current version moves the cursor and
 *   changes the version; any other version is 409 with the current state; of concurrent PATCHes with one
 *   version exactly one wins and every 409 carries the winner's state; GET answers the current state.
 * - Stream (Endpoints rules 1-2, Events): append-only and ordered; what was read once stays in place, so every
 *   later range is a slice of what the model knows; fences taken from endCursor stay where they were.
 *
 * Where the spec leaves a choice open the model takes whatever comes (layout of PATCH and 409 bodies: wrapped
 * `{checkpoint}` or bare; the subscribe response layout; 400 or 404 for an unknown uid; page sizes; ids).
 */
import type { EventRef, ModelClause, PagingClause, Violation } from '../types.js';

/** An HTTP answer as the model sees it: the status, the body text byte for byte, and the parsed JSON. */
export interface Answer {
  status: number;
  text: string;
  json: unknown;
  /** The answer's schema mismatch (operation map), judged after the model: the model's diagnosis is the more specific one. */
  schema?: Violation;
}

/** 'negative': the minimum negated (a sign dropped anywhere makes it the minimum itself). */
export type BodyKind = 'valid' | 'below-minimum' | 'unknown-uid' | 'forbidden-entity' | 'negative';

export const v = (clause: ModelClause | PagingClause, message: string): Violation => ({ clause, message });

export const short = (text: string, max = 160): string => (text.length > max ? `${text.slice(0, max)}…` : text);
export const show = (a: Answer): string => `${a.status} ${short(a.text)}`;

/** The subscription uid in a subscribe answer: at the root, under `subscription`, or as `subscriptionUid` (layout not shown). */
export function subscriptionUid(json: unknown): string | undefined {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  const o = json as Record<string, unknown>;
  const nested = typeof o.subscription === 'object' && o.subscription !== null ? (o.subscription as Record<string, unknown>).uid : undefined;
  const uid = o.uid ?? nested ?? o.subscriptionUid;
  return typeof uid === 'string' ? uid : undefined;
}

export function detailOf(json: unknown): unknown {
  return typeof json === 'object' && json !== null ? (json as { detail?: unknown }).detail : undefined;
}

export const DETAIL = {
  missingKey: 'Idempotency-Key header is required.',
  belowMinimum: 'Amount is below the indication minimum.',
  unknownUid: ['Indication not found', 'Indication is no longer available for subscription.'],
  entity: 'Not authorised for this entity',
  endpoint: 'Endpoint not enabled for this API user.',
} as const;

export class IdempotencyModel {
  /** Keys in the order they were first used (commands pick them by position). */
  readonly keys: string[] = [];
  private readonly first = new Map<string, Answer>();
  private readonly uidKey = new Map<string, string>();

  firstAnswer(key: string): Answer | undefined {
    return this.first.get(key);
  }

  /** The subscription uid a key's first answer created (a 200), if any. */
  uidOf(key: string): string | undefined {
    const a = this.first.get(key);
    return a !== undefined && a.status === 200 ? subscriptionUid(a.json) : undefined;
  }

  /**
   * The answers to a key never used before (one, or several sent together). They must be one answer; a valid
   * body must be accepted as a new subscription, a rejected body must be rejected as the spec says.
   */
  expectNewKey(key: string, kind: BodyKind, answers: readonly Answer[]): Violation | undefined {
    const a = answers[0];
    if (a === undefined) return v('EP-SUBSCRIBE-REPLAY', 'no answer to judge');
    for (const [i, b] of answers.entries()) {
      if (b.status !== a.status || b.text !== a.text) {
        return v('EP-SUBSCRIBE-REPLAY', `${answers.length} requests with the new key ${key} sent together got different answers: #1 ${show(a)}; #${i + 1} ${show(b)} (one key, one answer: the others must replay it)`);
      }
    }
    const bad = this.judgeFirst(kind, a);
    if (bad) return bad;
    this.keys.push(key);
    this.first.set(key, a);
    const uid = a.status === 200 ? subscriptionUid(a.json) : undefined;
    if (uid !== undefined) this.uidKey.set(uid, key);
    return undefined;
  }

  private judgeFirst(kind: BodyKind, a: Answer): Violation | undefined {
    const detail = detailOf(a.json);
    if (kind === 'valid') {
      // The amount is the minimum itself: refused as below it, the minimum rule broke ("an amount equal to it is
      // accepted", ERR-AMOUNT-MIN), not the key's; any other refusal leaves the new key without its subscription.
      if (a.status === 400 && detail === DETAIL.belowMinimum) return v('ERR-AMOUNT-MIN', `a new key with the amount equal to the minimum answered ${show(a)}, expected 200: an amount equal to the minimum is accepted`);
      if (a.status !== 200) return v('EP-SUBSCRIBE-NEW-KEY', `a new key with a valid body (amount = the minimum) answered ${show(a)}, expected 200 with a new subscription`);
      const uid = subscriptionUid(a.json);
      if (uid === undefined) return v('EP-SUBSCRIBE-NEW-KEY', `the 200 answer carries no subscription uid: ${short(a.text)}`);
      const owner = this.uidKey.get(uid);
      if (owner !== undefined) return v('EP-SUBSCRIBE-NEW-KEY', `a new key answered the subscription uid ${uid}, which key ${owner} created before: a new key must create a new subscription`);
      return undefined;
    }
    if (kind === 'forbidden-entity') {
      if (a.status !== 403 || detail !== DETAIL.entity) return v('AUTH-ENTITY-403', `a valid body for the entity off the allow-list answered ${show(a)}, expected 403 "${DETAIL.entity}"`);
      return undefined;
    }
    if (kind === 'negative') {
      // Below the minimum; the body schema is not shown, so refusing the sign as such (422, or 400 with its own detail) is a refusal too.
      if ((a.status === 400 && typeof detail === 'string') || a.status === 422) return undefined;
      return v('ERR-AMOUNT-MIN', `the minimum negated as the amount answered ${show(a)}, expected a refusal (400 "${DETAIL.belowMinimum}", or the negative amount refused as such: 422, or 400 with {detail}): a negative amount is below the minimum`);
    }
    if (kind === 'below-minimum') {
      if (a.status !== 400 || detail !== DETAIL.belowMinimum) return v('ERR-AMOUNT-MIN', `an amount below the minimum answered ${show(a)}, expected 400 "${DETAIL.belowMinimum}"`);
      return undefined;
    }
    if ((a.status !== 400 && a.status !== 404) || !(DETAIL.unknownUid as readonly unknown[]).includes(detail)) {
      return v('ERR-INDICATION-UID', `an unknown indication uid answered ${show(a)}, expected 400 or 404 with "${DETAIL.unknownUid.join('" or "')}"`);
    }
    return undefined;
  }

  /** Retries with a used key (same or changed body, one or several together): each replays the first answer. */
  expectReplay(key: string, answers: readonly Answer[], change: string): Violation | undefined {
    const first = this.first.get(key);
    if (first === undefined) return v('EP-SUBSCRIBE-REPLAY', `key ${key} was never used (model bug)`);
    for (const [i, b] of answers.entries()) {
      if (b.status !== first.status || b.text !== first.text) {
        const which = answers.length > 1 ? `retry #${i + 1} of ${answers.length} sent together` : 'the retry';
        return v('EP-SUBSCRIBE-REPLAY', `${which} with the used key ${key} (${change}) answered ${show(b)}, but the key's first answer was ${show(first)}: a retry must replay the cached answer byte for byte, a rejection included`);
      }
    }
    return undefined;
  }

  /**
   * Another user sends a key the primary user used, with the same body: no retry of the primary user's request
   * (a key belongs to its user), so it must not get the primary user's subscription back. Whatever else it gets
   * (a new subscription, or a refusal when the entity is not on its allow-list) the spec allows.
   */
  expectOtherUsersKey(key: string, a: Answer): Violation | undefined {
    const first = this.first.get(key);
    const theirs = first && first.status >= 200 && first.status < 300 ? subscriptionUid(first.json) : undefined;
    if (theirs === undefined || a.status < 200 || a.status >= 300 || subscriptionUid(a.json) !== theirs) return undefined;
    return v('EP-SUBSCRIBE-REPLAY', `the second user's POST /subscribe with the primary user's key ${key} answered ${show(a)} with the primary user's subscription ${theirs}: a key belongs to its user, another user's request is no retry and must not replay (or reveal) that answer`);
  }

  /** POST /subscribe without the header. */
  static expectMissingKey(a: Answer): Violation | undefined {
    if (a.status === 400 && detailOf(a.json) === DETAIL.missingKey) return undefined;
    return v('EP-SUBSCRIBE-IDEMPOTENCY-KEY', `POST /subscribe without Idempotency-Key answered ${show(a)}, expected 400 "${DETAIL.missingKey}"`);
  }
}

export interface CheckpointState {
  uid: string;
  name: string;
  cursor: string;
  version: string;
}

/** The checkpoint in a body: `{checkpoint: …}` or the CheckpointData at the root (409 and PATCH layouts are not shown). */
export function checkpointIn(json: unknown): CheckpointState | undefined {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  const o = json as Record<string, unknown>;
  const d = (typeof o.checkpoint === 'object' && o.checkpoint !== null ? o.checkpoint : o) as Record<string, unknown>;
  const { uid, name, cursor, checkpointVersion } = d;
  if (typeof uid !== 'string' || typeof name !== 'string' || typeof cursor !== 'string' || typeof checkpointVersion !== 'string') return undefined;
  return { uid, name, cursor, version: checkpointVersion };
}

const showState = (s: CheckpointState): string => `cursor ${s.cursor}, version ${s.version}`;

function differs(got: CheckpointState, want: CheckpointState): string | undefined {
  const bad = (['uid', 'name', 'cursor', 'version'] as const).filter((k) => got[k] !== want[k]);
  return bad.length ? bad.map((k) => `${k} ${got[k]} (expected ${want[k]})`).join(', ') : undefined;
}

export class CheckpointModel {
  /** Versions this checkpoint had before the current one (stale PATCHes pick from them), also before a deletion. */
  readonly stale: string[] = [];
  /** Deleted and not created again: every operation on the name but PUT answers 404. */
  deleted = false;

  private constructor(public current: CheckpointState) {}

  /**
   * DELETE (path not shown): 200 {checkpoint: {uid, name}, deleted: true} naming the current checkpoint
   * (DeleteCheckpointResponse); of a deleted one 404 with {detail}.
   */
  expectDelete(a: Answer): Violation | undefined {
    if (this.deleted) return this.expectGone('DELETE', a);
    if (a.status !== 200) return v('RES-CHECKPOINT-DELETE', `DELETE of the checkpoint ${this.current.name} answered ${show(a)}, expected 200 {checkpoint: {uid, name}, deleted: true}`);
    const o = (typeof a.json === 'object' && a.json !== null ? a.json : {}) as { checkpoint?: { uid?: unknown; name?: unknown }; deleted?: unknown };
    if (o.deleted !== true || o.checkpoint?.uid !== this.current.uid || o.checkpoint.name !== this.current.name) {
      return v('RES-CHECKPOINT-DELETE', `DELETE answered ${short(a.text)}, expected {checkpoint: {uid: ${this.current.uid}, name: ${this.current.name}}, deleted: true}`);
    }
    this.stale.push(this.current.version);
    this.deleted = true;
    return undefined;
  }

  /** GET, PATCH or DELETE of the deleted checkpoint: 404 ("resource does not exist or was removed") with {detail: string}. */
  expectGone(what: string, a: Answer): Violation | undefined {
    if (a.status === 404 && typeof detailOf(a.json) === 'string') return undefined;
    return v('ERR-NOT-FOUND', `${what} of the checkpoint ${this.current.name} after its DELETE answered ${show(a)}, expected 404 with {detail}: the resource was removed`);
  }

  /**
   * PUT of the name after its DELETE: a creation again, 201 with CheckpointData of that name (its cursor is
   * checked against the stream by the caller). Versions of the deleted checkpoint stay stale.
   */
  expectRecreated(a: Answer): Violation | undefined {
    const r = CheckpointModel.expectCreated(this.current.name, a);
    if ('violation' in r) return { ...r.violation, message: `after its DELETE, ${r.violation.message}` };
    this.current = r.model.current;
    this.deleted = false;
    return undefined;
  }

  /**
   * PUT of the existing name ("behaviour when the name already exists: not shown"): 200 or 201 with the
   * checkpoint of that name, unchanged or moved (a reset); the model takes it as the current state.
   */
  expectPutExisting(a: Answer): Violation | undefined {
    const s = checkpointIn(a.json);
    if ((a.status !== 200 && a.status !== 201) || s === undefined || s.name !== this.current.name) {
      return v('EP-CHECKPOINT-CYCLE', `PUT of the existing checkpoint ${this.current.name} answered ${show(a)}; whatever a server does with an existing name (not shown), it answers with that checkpoint`);
    }
    if (s.version !== this.current.version) this.stale.push(this.current.version);
    this.current = s;
    return undefined;
  }

  /**
   * Another user's DELETE of the same name: it deletes its own checkpoint of that name (200 naming another uid)
   * or, having none, answers 404; ours stays (the next GET shows it).
   */
  expectOtherUsersDelete(a: Answer, theirs: string | undefined): Violation | undefined {
    const o = (typeof a.json === 'object' && a.json !== null ? a.json : {}) as { checkpoint?: { uid?: unknown } };
    const uid = o.checkpoint?.uid;
    if (a.status === 200 && !this.deleted && uid === this.current.uid) {
      return v('EP-CHECKPOINT-SCOPE', `the second user's DELETE of the name ${this.current.name} deleted the primary user's checkpoint ${this.current.uid}: a checkpoint is scoped to its user`);
    }
    if (theirs === undefined && a.status !== 404) {
      return v('EP-CHECKPOINT-SCOPE', `the second user, who has no checkpoint ${this.current.name}, deleted one: ${show(a)} (expected 404: the primary user's checkpoint is not theirs)`);
    }
    if (theirs !== undefined && (a.status !== 200 || uid !== theirs)) {
      return v('RES-CHECKPOINT-DELETE', `the second user's DELETE of its own checkpoint ${this.current.name} (uid ${theirs}) answered ${show(a)}`);
    }
    return undefined;
  }

  /** First PUT of a fresh name: 201 with CheckpointData of that name. */
  static expectCreated(name: string, a: Answer): { model: CheckpointModel } | { violation: Violation } {
    if (a.status !== 201) return { violation: v('EP-CHECKPOINT-CREATE', `the first PUT of checkpoint ${name} answered ${show(a)}, expected 201 with the new checkpoint`) };
    const s = checkpointIn(a.json);
    if (s === undefined || s.name !== name) return { violation: v('EP-CHECKPOINT-CREATE', `the 201 body is not the checkpoint ${name}: ${short(a.text)}`) };
    return { model: new CheckpointModel(s) };
  }

  expectGet(a: Answer): Violation | undefined {
    if (a.status !== 200) return v('EP-CHECKPOINT-CYCLE', `GET answered ${show(a)}, expected 200 with the checkpoint (${showState(this.current)})`);
    const s = checkpointIn(a.json);
    const diff = s === undefined ? 'no checkpoint in the body' : differs(s, this.current);
    return diff ? v('EP-CHECKPOINT-CYCLE', `GET answered a checkpoint other than the model's current state: ${diff}`) : undefined;
  }

  /** A PATCH with the current version: 200, the new cursor, a new version. */
  expectFreshPatch(newCursor: string, a: Answer): Violation | undefined {
    if (a.status !== 200) return v(a.status === 409 ? 'EP-CHECKPOINT-CONFLICT' : 'EP-CHECKPOINT-CYCLE', `PATCH with the current version ${this.current.version} answered ${show(a)}, expected 200`);
    return this.applyWin(newCursor, a, 'PATCH with the current version');
  }

  private applyWin(newCursor: string, a: Answer, what: string): Violation | undefined {
    const s = checkpointIn(a.json);
    if (s === undefined) return v('EP-CHECKPOINT-CYCLE', `${what} answered 200 without the updated checkpoint: ${short(a.text)}`);
    const diff = differs({ ...s, version: this.current.version }, { ...this.current, cursor: newCursor });
    if (diff) return v('EP-CHECKPOINT-CYCLE', `${what}: the updated checkpoint is not the one asked for: ${diff}`);
    // The version is the token of the checkpoint's current state (spec, CheckpointData): a PATCH that moves the cursor
    // changes it; one to the cursor already held changes no state, so keeping the version is a reading the spec allows.
    const moved = newCursor !== this.current.cursor;
    if (moved && s.version === this.current.version) return v('EP-CHECKPOINT-CYCLE', `${what} moved the cursor but kept the version ${s.version}: a successful PATCH changes the version`);
    if (s.version !== this.current.version) this.stale.push(this.current.version);
    this.current = s;
    return undefined;
  }

  /** A PATCH with a version other than the current one: 409 with the current state, nothing changes. */
  expectStalePatch(version: string, a: Answer): Violation | undefined {
    if (a.status !== 409) return v('EP-CHECKPOINT-CONFLICT', `PATCH with the stale version ${version} (current: ${this.current.version}) answered ${show(a)}, expected 409 with the current state`);
    const s = checkpointIn(a.json);
    const diff = s === undefined ? 'it carries no checkpoint' : differs(s, this.current);
    return diff ? v('EP-CHECKPOINT-CONFLICT', `the 409 body must hold the current state (${showState(this.current)}): ${diff}`) : undefined;
  }

  /**
   * PATCHes with the current version sent together (newCursors[i] for answers[i]), each to a cursor other than the one
   * held (a no-op PATCH may keep the version, and then a second one with it may succeed too): exactly one 200, every
   * 409 holds the winner's state.
   */
  expectConcurrentPatches(newCursors: readonly string[], answers: readonly Answer[]): Violation | undefined {
    const wins = answers.flatMap((a, i) => (a.status === 200 ? [i] : []));
    // A success that keeps the version lets the next PATCH with that version succeed too: the cycle is broken first.
    const kept = wins.find((i) => checkpointIn((answers[i] as Answer).json)?.version === this.current.version);
    if (kept !== undefined) return v('EP-CHECKPOINT-CYCLE', `the successful PATCH #${kept + 1} of ${answers.length} sent together kept the version ${this.current.version}: a successful PATCH changes the version`);
    const others = answers.filter((a) => a.status !== 200 && a.status !== 409);
    if (others.length) return v('EP-CHECKPOINT-CONFLICT', `of ${answers.length} PATCHes with one version sent together one answered ${show(others[0] as Answer)}, expected 200 or 409`);
    if (wins.length !== 1) {
      return v('EP-CHECKPOINT-CONFLICT', `of ${answers.length} PATCHes with the version ${this.current.version} sent together ${wins.length} answered 200 (${wins.map((i) => `#${i + 1}`).join(', ') || 'none'}): exactly one must win, the others get 409`);
    }
    const w = wins[0] as number;
    const bad = this.applyWin(newCursors[w] as string, answers[w] as Answer, `the winning PATCH #${w + 1} of ${answers.length}`);
    if (bad) return bad;
    for (const [i, a] of answers.entries()) {
      if (i === w) continue;
      const s = checkpointIn(a.json);
      const diff = s === undefined ? 'it carries no checkpoint' : differs(s, this.current);
      if (diff) return v('EP-CHECKPOINT-CONFLICT', `the 409 of PATCH #${i + 1} must hold the winner's state (${showState(this.current)}): ${diff}`);
    }
    return undefined;
  }

  /** Another user's first PUT of the same name: its own new checkpoint (201, another uid), ours unchanged (the next GET shows it). */
  expectOtherUsersPut(a: Answer): Violation | undefined {
    const s = checkpointIn(a.json);
    if (a.status !== 201 || s === undefined || s.uid === this.current.uid) {
      return v('EP-CHECKPOINT-SCOPE', `the second user's first PUT of the name ${this.current.name} answered ${show(a)}; a checkpoint is scoped to its user: expected 201 with a checkpoint of its own (not uid ${this.current.uid})`);
    }
    return undefined;
  }
}

/** A fence token (a page's endCursor) and the position of the head it stands for (-1 = the anchor). */
export interface Fence {
  token: string;
  index: number;
}

/**
 * What the model knows of the stream: the events after the anchor (the checkpoint's creation cursor) in order,
 * whether the head is known (no write since the last read to the head: the spec does not say which operations
 * add events, so every write may), and the fences seen.
 */
export class StreamModel {
  readonly known: EventRef[] = [];
  readonly fences: Fence[] = [];
  headKnown = false;

  constructor(readonly anchor: string) {}

  /** Position -1 is the anchor. */
  cursorAt(index: number): string {
    return index < 0 ? this.anchor : (this.known[index] as EventRef).cursor;
  }

  /** A write happened: events may have been appended. */
  wrote(): void {
    this.headKnown = false;
  }

  /** Events read past the last known one (the head was not known): appended in order, never a known one again. */
  extend(events: readonly EventRef[]): Violation | undefined {
    const seen = new Set(this.known.map((e) => e.uid));
    for (const [i, e] of events.entries()) {
      if (seen.has(e.uid)) {
        const at = this.known.findIndex((k) => k.uid === e.uid);
        return v('EVS-ORDER', `reading on from the last known event returned event ${e.uid} (already at position ${at} of the stream) again as new event ${i + 1}: the stream is append-only`);
      }
      seen.add(e.uid);
    }
    this.known.push(...events);
    this.headKnown = true;
    return undefined;
  }

  /** The events a read from `start` (exclusive) up to `fence` (inclusive; undefined = the head) must return. */
  range(start: number, fence?: number): EventRef[] {
    return this.known.slice(start + 1, fence === undefined ? undefined : fence + 1);
  }

  /**
   * endCursor of a page read while the head was known: a fence at the current head. The token is opaque, but
   * when it is the cursor of an event before the head it names that event, not the head.
   */
  recordFence(token: string | null | undefined): Violation | undefined {
    if (typeof token !== 'string' || token === '') return undefined;
    const head = this.known.length - 1;
    const idx = this.known.findIndex((e) => e.cursor === token);
    const before = token === this.anchor ? (head >= 0 ? -1 : undefined) : idx >= 0 && idx < head ? idx : undefined;
    if (before !== undefined) {
      return v('EP-EVENT-FENCE', `pageInfo.endCursor is the cursor of ${before < 0 ? 'the anchor' : `#${before}`}, but the head of the stream is #${head} (nothing was written since it was read): endCursor is the head of the stream at the time of the request`);
    }
    if (!this.fences.some((f) => f.token === token && f.index === head)) this.fences.push({ token, index: head });
    return undefined;
  }
}

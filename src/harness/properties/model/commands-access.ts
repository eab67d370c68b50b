/**
 * The model's commands for every other operation of the Endpoints table, with each credential kind the profile
 * has (primary, second user, read-only client, the forbidden entity): webhook register/deregister, subscription
 * and holding reads per entity, filtered event reads (entity_code allowed / forbidden / unknown, event_type),
 * writes of the read-only client, another user's checkpoint reads, and the clock moving on (the subscriptions'
 * state moves on: a retry with a used key still replays the cached answer). The judgements are in access.ts.
 */
import { randomUUID } from 'node:crypto';
import { subscribeBody } from './api.js';
import {
  describeFilter, expectEndpointRefused, expectEntityRefused, expectHolding, expectHoldingNotUnder, expectServedOrEntityRefused,
  expectUnknownEntity, expectUnknownHolding, judgeSubscriptionList, type EventFilter,
} from './access.js';
import { fail, judge, keyName, learnHead, pick, position, type Cmd, type Model, type Real } from './command-kit.js';
import { checkpointIn, detailOf, DETAIL, show, v, type Answer } from './state.js';
import type { EventRef, Violation } from '../types.js';

/** The ten eventType values (Resources / Event). */
export const EVENT_TYPES = ['SUBSCRIBED', 'ISSUED', 'SPLIT', 'EXTENDED', 'FINALIZED', 'ADJUSTED', 'CURRENCY_CONVERTED', 'CASH_MOVED', 'REDEEMED', 'CANCELLED'] as const;

const webhookPath = (r: Real): string => r.target.paths.webhook ?? '/webhook';
const unknownEntity = (r: Real): string => `ENT-NONE-${r.tag}`.slice(0, 60);

/** The URL of each registration: under the reserved .invalid domain (RFC 2606), nothing could be delivered there. */
let hookSerial = 0;
const hookUrl = (r: Real, who: string): string => `https://ftf-conformance.invalid/model/${r.tag}/${who}/${++hookSerial}`;

export class RegisterWebhook implements Cmd {
  constructor(readonly credential: 'primary' | 'second') {}
  check = (m: Readonly<Model>): boolean => this.credential === 'primary' || m.can.second;
  async run(m: Model, r: Real): Promise<void> {
    const url = hookUrl(r, this.credential);
    const a = await r.api.shaped('POST', webhookPath(r), 'webhook_register', url, this.credential, this.toString());
    m.stream.wrote();
    // What the second user's client is provisioned for is not in the profile: it may be refused the endpoint.
    if (this.credential === 'second' && a.status === 403 && detailOf(a.json) === DETAIL.endpoint) return;
    judge(m.hooks.expectRegistered(this.credential, url, a), [a], this.toString());
  }
  toString = (): string => `webhook POST by the ${this.credential} user`;
}

export class DeregisterWebhook implements Cmd {
  constructor(readonly credential: 'primary' | 'second') {}
  check = (m: Readonly<Model>): boolean => this.credential === 'primary' || m.can.second;
  async run(m: Model, r: Real): Promise<void> {
    // The request shape of DELETE /webhook is not shown: the URL goes where the profile's webhook.delete says.
    const a = await r.api.shaped('DELETE', webhookPath(r), 'webhook_delete', hookUrl(r, 'delete'), this.credential, this.toString());
    m.stream.wrote();
    if (this.credential === 'second' && a.status === 403 && detailOf(a.json) === DETAIL.endpoint) return;
    judge(m.hooks.expectDeregistered(this.credential, a), a.status === 404 ? [] : [a], this.toString());
  }
  toString = (): string => `webhook DELETE by the ${this.credential} user`;
}

/**
 * One registration per user: the primary user deregisters (learning its state), the second user registers, then
 * the primary user's DELETE names no URL (null, or 404): never the second user's.
 */
export class WebhookOtherUser implements Cmd {
  check = (m: Readonly<Model>): boolean => m.can.second;
  async run(m: Model, r: Real): Promise<void> {
    const role = this.toString();
    const path = webhookPath(r);
    const first = await r.api.shaped('DELETE', path, 'webhook_delete', hookUrl(r, 'delete'), 'primary', `${role}: the primary user's DELETE`);
    judge(m.hooks.expectDeregistered('primary', first), first.status === 404 ? [] : [first], role);
    const url = hookUrl(r, 'second');
    const reg = await r.api.shaped('POST', path, 'webhook_register', url, 'second', `${role}: the second user's POST`);
    m.stream.wrote();
    if (reg.status === 403 && detailOf(reg.json) === DETAIL.endpoint) return;
    judge(m.hooks.expectRegistered('second', url, reg), [reg], role);
    const again = await r.api.shaped('DELETE', path, 'webhook_delete', hookUrl(r, 'delete'), 'primary', `${role}: the primary user's DELETE again`);
    judge(m.hooks.expectDeregistered('primary', again), again.status === 404 ? [] : [again], role);
  }
  toString = (): string => "webhook: the second user registers between two of the primary user's DELETEs";
}

/**
 * An operation repeated after a delete: DELETE (learning the user's state), POST a URL, DELETE (that URL or null),
 * POST another URL, DELETE (the new URL or null: never the one deregistered before), DELETE again (null, or 404).
 */
export class WebhookReregister implements Cmd {
  constructor(readonly credential: 'primary' | 'second') {}
  check = (m: Readonly<Model>): boolean => this.credential === 'primary' || m.can.second;
  async run(m: Model, r: Real): Promise<void> {
    const role = this.toString();
    const path = webhookPath(r);
    const del = async (what: string): Promise<boolean> => {
      const a = await r.api.shaped('DELETE', path, 'webhook_delete', hookUrl(r, 'delete'), this.credential, `${role}: ${what}`);
      if (this.credential === 'second' && a.status === 403 && detailOf(a.json) === DETAIL.endpoint) return false;
      judge(m.hooks.expectDeregistered(this.credential, a), a.status === 404 ? [] : [a], role);
      return true;
    };
    const post = async (what: string): Promise<boolean> => {
      const url = hookUrl(r, this.credential);
      const a = await r.api.shaped('POST', path, 'webhook_register', url, this.credential, `${role}: ${what}`);
      if (this.credential === 'second' && a.status === 403 && detailOf(a.json) === DETAIL.endpoint) return false;
      judge(m.hooks.expectRegistered(this.credential, url, a), [a], role);
      return true;
    };
    m.stream.wrote();
    if (!(await del('DELETE'))) return;
    for (const n of ['first', 'second']) {
      if (!(await post(`POST of a ${n} URL`))) return;
      await del(`DELETE of the ${n} URL`);
    }
    await del('DELETE again, none registered');
  }
  toString = (): string => `webhook: the ${this.credential} user registers again after each DELETE`;
}

type Write = 'subscribe' | 'checkpoint PUT' | 'checkpoint PATCH' | 'checkpoint DELETE' | 'webhook POST' | 'webhook DELETE';
export const WRITES: readonly Write[] = ['subscribe', 'checkpoint PUT', 'checkpoint PATCH', 'checkpoint DELETE', 'webhook POST', 'webhook DELETE'];

/**
 * A write of the read-only client: 403 "Endpoint not enabled for this API user." Its checkpoint PATCH and DELETE
 * name a checkpoint it does not have, and the spec does not order the checks: 404 is allowed there.
 */
export class ReadonlyWrite implements Cmd {
  constructor(readonly write: Write) {}
  check = (m: Readonly<Model>): boolean => m.can.readonly;
  async run(m: Model, r: Real): Promise<void> {
    const role = this.toString();
    const cp = `/event/checkpoint/${encodeURIComponent(r.name)}`;
    let a: Answer;
    switch (this.write) {
      case 'subscribe': a = await r.api.subscribe(randomUUID(), subscribeBody(r.target, r.product, 'valid', r.unknownUid), role, 'readonly'); break;
      case 'checkpoint PUT': a = await r.api.putCheckpoint(r.name, 'readonly', role); break;
      case 'checkpoint PATCH': a = await r.api.patchCheckpointAs(r.name, m.cp.current.version, m.cp.current.cursor, 'readonly', role); break;
      case 'checkpoint DELETE': a = await r.api.deleteCheckpoint(r.name, 'readonly', role); break;
      case 'webhook POST': a = await r.api.shaped('POST', webhookPath(r), 'webhook_register', hookUrl(r, 'readonly'), 'readonly', role); break;
      default: a = await r.api.shaped('DELETE', webhookPath(r), 'webhook_delete', hookUrl(r, 'readonly'), 'readonly', role);
    }
    m.stream.wrote();
    const notFound = (this.write === 'checkpoint PATCH' || this.write === 'checkpoint DELETE') && a.status === 404 && typeof detailOf(a.json) === 'string';
    fail(notFound ? undefined : expectEndpointRefused(`${this.write} (${cp})`, a, this.write === 'subscribe'), role);
  }
  toString = (): string => `${this.write} by the read-only client`;
}

/** Reads by the other credentials: GET /event works for each; the primary user's checkpoint is not theirs (scoped). */
export class OtherUserReads implements Cmd {
  constructor(readonly credential: 'second' | 'readonly') {}
  check = (m: Readonly<Model>): boolean => (this.credential === 'second' ? m.can.second : m.can.readonly);
  async run(m: Model, r: Real): Promise<void> {
    const role = this.toString();
    const events = await r.events.read({ limit: 1 }, `${role}: GET /event`, this.credential);
    if (events.status !== 200) {
      fail(v(this.credential === 'readonly' ? 'AUTH-ENDPOINT-403' : 'AUTH-EVENT-SCOPE', `GET /event by the ${this.credential} credential answered ${show(events)}: reading the stream is not a write`), role);
    }
    const a = await r.api.getCheckpointAs(r.name, this.credential, `${role}: GET checkpoint ${r.name}`);
    const theirs = this.credential === 'second' ? m.secondCp : undefined;
    if (theirs === undefined && a.status !== 404) {
      fail(v('EP-CHECKPOINT-SCOPE', `GET of the primary user's checkpoint name ${r.name} by the ${this.credential} credential (which has none) answered ${show(a)}, expected 404: checkpoints are scoped to their user`), role);
    }
    if (theirs !== undefined && (a.status !== 200 || checkpointIn(a.json)?.uid !== theirs)) {
      fail(v('EP-CHECKPOINT-SCOPE', `the second user's GET of its own checkpoint ${r.name} (uid ${theirs}) answered ${show(a)}`), role);
    }
    judge(undefined, [a], role);
  }
  toString = (): string => `reads by the ${this.credential} credential (GET /event, GET of the run's checkpoint name)`;
}

export type EntityPick = 'allowed' | 'forbidden' | 'unknown';

/**
 * GET /subscription?entity_code by a credential: the primary user's list of an allowed entity holds every
 * subscription it made there and none of another entity; each holdingUid that is set names an existing holding of
 * that entity, not served under another entity; the forbidden entity is 403; an unknown one 404 or 403. The second
 * and read-only users' allow-lists are not in the profile: served or 403 "Not authorised for this entity".
 */
export class ReadSubscriptions implements Cmd {
  private shown = '';
  constructor(readonly credential: 'primary' | 'second' | 'readonly', readonly entity: EntityPick, readonly entitySel: number) {}
  check = (m: Readonly<Model>): boolean =>
    (this.credential === 'primary' || (this.credential === 'second' ? m.can.second : m.can.readonly)) && (this.entity !== 'forbidden' || m.can.forbidden !== undefined);
  async run(m: Model, r: Real): Promise<void> {
    const entity = this.entity === 'allowed' ? pick(m.can.entities, this.entitySel) : this.entity === 'forbidden' ? (m.can.forbidden as string) : unknownEntity(r);
    this.shown = entity;
    const role = this.toString();
    // Every page (paging.subscriptions): the model's subscription may sit on the last one.
    const { answer: a, pointer } = await r.api.listAll('subscriptions', `/subscription?entity_code=${encodeURIComponent(entity)}`, this.credential, role, 'EP-SUBSCRIPTION-LIST');
    if (this.entity === 'unknown') return judge(expectUnknownEntity('GET /subscription', a), [a], role);
    if (this.credential === 'primary' && this.entity === 'forbidden') return judge(expectEntityRefused(`GET /subscription?entity_code=${entity} (off the allow-list)`, a), [a], role);
    let listed: Array<{ uid: string; holdingUid: string | null }> = [];
    const served = (x: Answer): Violation | undefined => {
      const j = judgeSubscriptionList(entity, x, pointer, m.subs, this.credential === 'primary');
      if ('violation' in j) return j.violation;
      listed = j.listed;
      return undefined;
    };
    judge(this.credential === 'primary' ? served(a) : expectServedOrEntityRefused(`GET /subscription?entity_code=${entity} by the ${this.credential} user`, a, served), [a], role);
    if (this.credential !== 'primary' || this.entity !== 'allowed') return;
    // The holdings of the model's own subscriptions that have one (at most two reads per command).
    const own = new Set(m.subs.filter((s) => s.entity === entity).map((s) => s.uid));
    const issued = listed.filter((s) => s.holdingUid !== null && own.has(s.uid)).slice(-2);
    for (const s of issued) await checkHolding(m, r, entity, s.holdingUid as string, s.uid, role);
    if (issued.length === 0) {
      const h = await r.api.call('GET', `/holding/${encodeURIComponent(entity)}/${randomUUID()}`, 'primary', undefined, `${role}: GET of an unknown holding uid`);
      judge(expectUnknownHolding(entity, h), [h], role);
    }
  }
  toString = (): string => `GET /subscription by the ${this.credential} user for ${this.shown || `the ${this.entity} entity`}`;
}

async function checkHolding(m: Model, r: Real, entity: string, holdingUid: string, subUid: string, role: string): Promise<void> {
  const path = (e: string): string => `/holding/${encodeURIComponent(e)}/${encodeURIComponent(holdingUid)}`;
  const a = await r.api.call('GET', path(entity), 'primary', undefined, `${role}: GET ${path(entity)}`);
  judge(expectHolding(entity, holdingUid, subUid, a), [a], role);
  const other = m.can.entities.find((e) => e !== entity);
  if (other !== undefined) {
    const b = await r.api.call('GET', path(other), 'primary', undefined, `${role}: the same holding under ${other}`);
    judge(expectHoldingNotUnder(other, holdingUid, entity, b), [], role);
  }
  if (m.can.forbidden !== undefined) {
    const c = await r.api.call('GET', path(m.can.forbidden), 'primary', undefined, `${role}: the same holding under the forbidden entity`);
    judge(expectEntityRefused(`GET /holding/${m.can.forbidden}/${holdingUid} (off the allow-list)`, c), [c], role);
  }
}

/**
 * GET /event with filters ("not shown", Endpoints rule 10) from a known position to the head: each filter is
 * honoured or ignored (FilterModel), never an event off the allow-list; an entity off the allow-list may be
 * refused (403 "Not authorised for this entity", or 400/422: the filter refused), an unknown one too (404).
 */
export class FilteredRead implements Cmd {
  private shown = '';
  constructor(readonly entity: EntityPick | undefined, readonly entitySel: number, readonly typeSel: number | undefined, readonly startSel: number, readonly limit: number | undefined) {}
  check = (m: Readonly<Model>): boolean => (this.entity !== undefined || this.typeSel !== undefined) && (this.entity !== 'forbidden' || m.can.forbidden !== undefined);
  async run(m: Model, r: Real): Promise<void> {
    const f: EventFilter = {};
    if (this.entity !== undefined) f.entity = this.entity === 'allowed' ? pick(m.can.entities, this.entitySel) : this.entity === 'forbidden' ? (m.can.forbidden as string) : unknownEntity(r);
    if (this.typeSel !== undefined) f.type = pick(EVENT_TYPES, this.typeSel);
    // An event the filter must not leak: one of the forbidden entity (of the filtered type) in the range read.
    if (this.entity === 'forbidden' && m.can.append) {
      await r.events.append(1, f.entity, `${this.toString()}: append an event of the forbidden entity (control API)`, f.type !== undefined ? [f.type] : undefined);
      m.stream.wrote();
    }
    await learnHead(m, r, this.toString());
    const start = position(m, this.startSel);
    this.shown = `${describeFilter(f)} from ${start < 0 ? 'the anchor' : `#${start}`}`;
    const role = this.toString();
    const filters = { ...(f.entity !== undefined ? { entity_code: f.entity } : {}), ...(f.type !== undefined ? { event_type: f.type } : {}) };
    const known = m.stream.range(start);
    const got: EventRef[] = [];
    let cursor: string | undefined = m.stream.cursorAt(start);
    let total: number | null | undefined;
    const cap = Math.min(r.maxPages, known.length + 2);
    for (let k = 0; k < cap; k++) {
      const a = await r.events.read({ startCursor: cursor, limit: this.limit, filters }, `${role} page ${k + 1}`);
      if (a.status !== 200) {
        if (k === 0) return fail(this.refused(f, a), role);
        return fail(v('EP-EVENT-PAGING', `page ${k + 1} of a read with ${describeFilter(f)} answered ${show(a)} after page 1 was served`), role);
      }
      if (a.page === undefined) return fail({ clause: 'SCHEMA', ...(a.schemaClauses ? { schemaClauses: a.schemaClauses } : {}), message: a.schemaMessage ?? 'no page' }, role);
      if (k === 0) total = a.page.pageInfo.totalCount;
      got.push(...a.page.events);
      if (!a.page.pageInfo.hasNextPage) {
        return fail(m.filters.judge(f, known, got, total, m.can.entities, this.entity === 'forbidden' || this.entity === 'unknown'), role);
      }
      cursor = a.page.pageInfo.pageEndCursor ?? undefined;
      if (cursor === undefined) return fail(v('EP-EVENT-PAGING', `a read with ${describeFilter(f)}: hasNextPage is true but pageEndCursor is missing`), role);
    }
    if (cap === r.maxPages && cap < known.length + 2) fail({ clause: 'BOUND', message: `a read with ${describeFilter(f)} stopped at the profile's page bound, timeouts.max_pages ${cap}, hasNextPage still true (${known.length} known event(s))` }, role);
    fail(v('EP-EVENT-PAGING', `a read with ${describeFilter(f)} of ${known.length} known event(s) still has hasNextPage true after ${cap} page(s)`), role);
  }

  /** A refused filtered read: never for an allowed entity with no other filter problem unless the target refuses the filter itself (400/422). */
  private refused(f: EventFilter, a: Answer): Violation | undefined {
    const detail = detailOf(a.json);
    if (a.status === 403) return this.entity === 'allowed' || this.entity === undefined ? v('AUTH-ENTITY-403', `a read with ${describeFilter(f)} of an allowed entity answered ${show(a)}`) : detail === DETAIL.entity ? undefined : v('AUTH-ENTITY-403', `a read with ${describeFilter(f)} answered ${show(a)}: a 403 for an entity says "${DETAIL.entity}"`);
    if (a.status === 400 || a.status === 422 || (a.status === 404 && this.entity === 'unknown')) return undefined;
    // The forbidden entity exists: refused otherwise than with 403, the allow-list's answer broke, not the paging (issue 24).
    if (a.status === 404 && this.entity === 'forbidden') return v('AUTH-ENTITY-403', `a read with ${describeFilter(f)} answered ${show(a)}, expected 403 "${DETAIL.entity}" (or the filter refused: 400/422): the entity exists, off the allow-list`);
    return v('EP-EVENT-PAGING', `a read with ${describeFilter(f)} answered ${show(a)}, expected 200 (or the filter refused: 400/422${this.entity === 'forbidden' ? ', 403' : this.entity === 'unknown' ? ', 403/404' : ''})`);
  }
  toString = (): string => `filtered read(${this.shown || [this.entity ? `entity ${this.entity}` : '', this.typeSel !== undefined ? 'event_type' : ''].filter(Boolean).join(' + ')}, limit ${this.limit ?? 'default'})`;
}

/**
 * A filter combined with another credential's permission: GET /event?entity_code=<the forbidden entity> by the second
 * or read-only user (after appending an event of that entity, when the control API can). Their allow-lists are not
 * in the profile: the subscription list of that entity tells (403 "Not authorised for this entity": off their list).
 * Off the list, the filtered read is refused (403, or 400/422: the filter refused) or serves no event of it.
 */
export class OtherUserFilteredRead implements Cmd {
  private shown = '';
  constructor(readonly credential: 'second' | 'readonly', readonly typeSel: number | undefined, readonly limit: number | undefined) {}
  check = (m: Readonly<Model>): boolean => m.can.forbidden !== undefined && (this.credential === 'second' ? m.can.second : m.can.readonly);
  async run(m: Model, r: Real): Promise<void> {
    const entity = m.can.forbidden as string;
    const type = this.typeSel === undefined ? undefined : pick(EVENT_TYPES, this.typeSel);
    const f: EventFilter = { entity, ...(type !== undefined ? { type } : {}) };
    this.shown = describeFilter(f);
    const role = this.toString();
    if (m.can.append) {
      await r.events.append(1, entity, `${role}: append an event of ${entity} (control API)`, type !== undefined ? [type] : undefined);
      m.stream.wrote();
    }
    const { answer: probe } = await r.api.listAll('subscriptions', `/subscription?entity_code=${encodeURIComponent(entity)}`, this.credential, `${role}: is ${entity} on its allow-list (GET /subscription)`, 'EP-SUBSCRIPTION-LIST');
    if (probe.status !== 403 || detailOf(probe.json) !== DETAIL.entity) return;
    const filters = { entity_code: entity, ...(type !== undefined ? { event_type: type } : {}) };
    let cursor: string | undefined = m.stream.cursorAt(-1);
    for (let k = 0; k < Math.min(r.maxPages, 50); k++) {
      const a = await r.events.read({ startCursor: cursor, limit: this.limit, filters }, `${role} page ${k + 1}`, this.credential);
      if (a.status !== 200) {
        if (k > 0) return fail(v('EP-EVENT-PAGING', `page ${k + 1} of a read with ${describeFilter(f)} by the ${this.credential} user answered ${show(a)} after page 1 was served`), role);
        if (a.status === 403) return fail(detailOf(a.json) === DETAIL.entity ? undefined : v('AUTH-ENTITY-403', `a read with ${describeFilter(f)} by the ${this.credential} user answered ${show(a)}: a 403 for an entity says "${DETAIL.entity}"`), role);
        if (a.status === 400 || a.status === 422) return;
        return fail(v('EP-EVENT-PAGING', `a read with ${describeFilter(f)} by the ${this.credential} user answered ${show(a)}, expected 200, or the filter refused (403, 400/422)`), role);
      }
      if (a.page === undefined) return fail({ clause: 'SCHEMA', ...(a.schemaClauses ? { schemaClauses: a.schemaClauses } : {}), message: a.schemaMessage ?? 'no page' }, role);
      const leak = a.page.events.find((e) => e.entityCode === entity);
      if (leak) return fail(v('AUTH-EVENT-SCOPE', `a read with ${describeFilter(f)} by the ${this.credential} user returned event ${leak.uid} of ${entity}, an entity off its allow-list (its GET /subscription?entity_code=${entity} is 403)`), role);
      if (!a.page.pageInfo.hasNextPage || !a.page.pageInfo.pageEndCursor) return;
      cursor = a.page.pageInfo.pageEndCursor;
    }
  }
  toString = (): string => `filtered read by the ${this.credential} user(${this.shown || 'entity_code of the forbidden entity'}, limit ${this.limit ?? 'default'})`;
}

/** The most the clock moves in a run: 21 hours in all, so a retry stays within a day of its key (key lifetimes: not shown). */
export const CLOCK_BUDGET_S = 21 * 3600;
export const CLOCK_HOURS = 7;
const STEP_S = CLOCK_HOURS * 3600;

/**
 * The clock moves on (control API, 7 hours at a time, at most 3 times a run) until a subscription the model made
 * has moved on (issued: a holdingUid in GET /subscription). A retry with its key then replays the key's first answer
 * byte for byte (Endpoints rule 5: the cached response, not the subscription's state now), and its holding is
 * served under its entity only (checkHolding). The product is read again (a Fixed uid rotates daily).
 */
export class ClockMovesThenRetry implements Cmd {
  private shown = '';
  constructor(readonly keySel: number) {}
  check = (m: Readonly<Model>): boolean => m.can.clock && m.clockSeconds + STEP_S <= CLOCK_BUDGET_S && m.subs.length > 0;
  async run(m: Model, r: Real): Promise<void> {
    const role = this.toString();
    const keys = m.idem.keys.filter((k) => m.kinds.get(k) === 'valid' && m.idem.uidOf(k) !== undefined);
    if (keys.length === 0) return;
    const key = pick(keys, this.keySel);
    const uid = m.idem.uidOf(key) as string;
    const entity = m.entityOf.get(key) as string;
    this.shown = keyName(m, key);
    let holdingUid: string | null = null;
    while (m.clockSeconds + STEP_S <= CLOCK_BUDGET_S && holdingUid === null) {
      await r.api.advanceClock({ hours: CLOCK_HOURS }, `${role}: advance the clock ${CLOCK_HOURS} h`);
      m.clockSeconds += STEP_S;
      m.stream.wrote();
      const { answer: list, pointer } = await r.api.listAll('subscriptions', `/subscription?entity_code=${encodeURIComponent(entity)}`, 'primary', `${role}: GET /subscription`, 'EP-SUBSCRIPTION-LIST');
      const j = judgeSubscriptionList(entity, list, pointer, m.subs, true);
      judge('violation' in j ? j.violation : undefined, [list], role);
      holdingUid = ('listed' in j ? j.listed.find((s) => s.uid === uid)?.holdingUid : null) ?? null;
    }
    await r.refreshProduct();
    const body = subscribeBody(r.target, r.product, 'valid', r.unknownUid, entity);
    const a = await r.api.subscribe(key, body, `${role}: retry`);
    judge(m.idem.expectReplay(key, [a], `the same body with the current indication uid, after the clock moved on${holdingUid !== null ? ' and the subscription was issued' : ''}`), [a], role);
    if (holdingUid !== null) await checkHolding(m, r, entity, holdingUid, uid, role);
  }
  toString = (): string => `clock +${CLOCK_HOURS} h until a subscription is issued, then retry(used key${this.shown ? ` ${this.shown}` : ` #${this.keySel}`}) and read its holding`;
}

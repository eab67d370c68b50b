/**
 * The executable model of who may do what, and of the resources besides subscribes, checkpoints and the stream
 * (pure: no I/O): permissions per credential kind (Authentication rule 9, Errors), webhooks (Endpoints table,
 * Events rule 4, DeleteWebhookResponse), subscription lists and holdings per entity (Endpoints table and rule 7,
 * States rule 1), and GET /event filters (Endpoints rule 10: "not shown").
 *
 * What the profile does not say is never assumed: the allow-lists of the second and read-only users are not in
 * the profile, so their entity-scoped calls may be served or refused with 403 "Not authorised for this entity";
 * a filter a target does not know may be ignored (the whole stream) or honoured, whichever it does it keeps doing.
 */
import { getPointer } from '../../expressions/values.js';
import type { EventRef, Violation } from '../types.js';
import { DETAIL, detailOf, short, show, v, type Answer } from './state.js';

/** A write of a read-only client: 403 "Endpoint not enabled for this API user." (with an entity in the body, the entity reason may come first). */
export function expectEndpointRefused(what: string, a: Answer, entityInBody = false): Violation | undefined {
  const detail = detailOf(a.json);
  if (a.status === 403 && (detail === DETAIL.endpoint || (entityInBody && detail === DETAIL.entity))) return undefined;
  return v('AUTH-ENDPOINT-403', `${what} by the read-only client answered ${show(a)}, expected 403 "${DETAIL.endpoint}"`);
}

/** An entity off the caller's allow-list: 403 "Not authorised for this entity". */
export function expectEntityRefused(what: string, a: Answer): Violation | undefined {
  if (a.status === 403 && detailOf(a.json) === DETAIL.entity) return undefined;
  return v('AUTH-ENTITY-403', `${what} answered ${show(a)}, expected 403 "${DETAIL.entity}"`);
}

/**
 * A credential whose allow-list the profile does not give, on an entity that exists: refused (403 with the entity
 * text) or served (then judged by `served`). A 404 is neither ("resource does not exist", and the entity does): an
 * off-list entity refused with the wrong status (AUTH-ENTITY-403) or a read not served (the served clause), the
 * answer cannot tell which; both are left in doubt, explained by a clause proven broken elsewhere in the run.
 */
export function expectServedOrEntityRefused(what: string, a: Answer, served: (a: Answer) => Violation | undefined): Violation | undefined {
  if (a.status === 403) return detailOf(a.json) === DETAIL.entity ? undefined : v('AUTH-ENTITY-403', `${what} answered ${show(a)}: a 403 for an entity says "${DETAIL.entity}"`);
  const s = served(a);
  if (a.status !== 404 || s === undefined || s.clause === 'SCHEMA' || s.clause === 'HARNESS' || s.clause === 'BOUND' || s.clause === 'AUTH-ENTITY-403') return s;
  return { ...s, clause: 'AUTH-ENTITY-403', inDoubtWith: [s.clause], message: `${what} answered ${show(a)} for an entity that exists: off the user's allow-list it is 403 "${DETAIL.entity}", on it the read is served (${s.message})` };
}

/**
 * An entity code that exists nowhere: 404 (does not exist) or 403 (not on the allow-list), with {detail: string}.
 * Served (2xx), it was served for an entity on nobody's allow-list: the allow-list rule broke (AUTH-ENTITY-403,
 * Authentication rule 9: "Violations give 403"); another answer breaks the not-found rule's {detail} (issue 24).
 */
export function expectUnknownEntity(what: string, a: Answer): Violation | undefined {
  if ((a.status === 404 || a.status === 403) && typeof detailOf(a.json) === 'string') return undefined;
  if (a.status >= 200 && a.status < 300) return v('AUTH-ENTITY-403', `${what} for an entity code that exists nowhere (so on no allow-list) answered ${show(a)}, expected 403 (or 404: it does not exist) with {detail}`);
  return v('ERR-NOT-FOUND', `${what} for an entity code that exists nowhere answered ${show(a)}, expected 404 (or 403: not on the allow-list) with {detail}`);
}

/** A subscription the model created: its uid and the entity it was made for. */
export interface OwnSubscription {
  uid: string;
  entity: string;
}

export interface ListedSubscription {
  uid: string;
  holdingUid: string | null;
}

/**
 * GET /subscription?entity_code=E served: a list (at the profile's pointer) of records each with a uid and a
 * holdingUid (null or a string); none of the model's subscriptions of another entity (the entityCode scopes the
 * read, Endpoints rule 7); with `complete`, every subscription the model made for E.
 */
export function judgeSubscriptionList(entity: string, a: Answer, pointer: string, own: readonly OwnSubscription[], complete: boolean): { violation: Violation } | { listed: ListedSubscription[] } {
  const fail = (clause: 'EP-SUBSCRIPTION-LIST' | 'EP-ENTITY-SCOPE', message: string) => ({ violation: v(clause, message) });
  if (a.status !== 200) return fail('EP-SUBSCRIPTION-LIST', `GET /subscription?entity_code=${entity} answered ${show(a)}, expected 200 with the entity's subscriptions`);
  const list = getPointer(a.json, pointer);
  if (!Array.isArray(list)) return fail('EP-SUBSCRIPTION-LIST', `GET /subscription?entity_code=${entity}: no list at "${pointer}" of the body: ${short(a.text)}`);
  const listed: ListedSubscription[] = [];
  for (const [i, item] of list.entries()) {
    const uid = (item as { uid?: unknown } | null)?.uid;
    const holdingUid = (item as { holdingUid?: unknown } | null)?.holdingUid;
    if (typeof uid !== 'string' || (holdingUid !== null && typeof holdingUid !== 'string')) {
      return fail('EP-SUBSCRIPTION-LIST', `GET /subscription?entity_code=${entity}: item ${i + 1} has no uid string and holdingUid (null until issued, then a string): ${short(JSON.stringify(item))}`);
    }
    listed.push({ uid, holdingUid });
  }
  const uids = new Set(listed.map((s) => s.uid));
  const foreign = own.find((s) => s.entity !== entity && uids.has(s.uid));
  if (foreign) return fail('EP-ENTITY-SCOPE', `GET /subscription?entity_code=${entity} lists the subscription ${foreign.uid}, made for ${foreign.entity}: the entityCode scopes the read to that entity`);
  const missing = complete ? own.find((s) => s.entity === entity && !uids.has(s.uid)) : undefined;
  if (missing) return fail('EP-SUBSCRIPTION-LIST', `GET /subscription?entity_code=${entity} does not list the subscription ${missing.uid} the primary user made for it (${listed.length} listed)`);
  return { listed };
}

/**
 * GET /holding/{entity}/{holdingUid} of a subscription's holdingUid: the holding exists (States rule 1: the uid is
 * set only once it does) and is that holding of that entity.
 */
export function expectHolding(entity: string, holdingUid: string, subscriptionUid: string, a: Answer): Violation | undefined {
  if (a.status === 404) return v('ST-HOLDING-AFTER-SUBSCRIPTION', `the subscription ${subscriptionUid} lists holdingUid ${holdingUid}, but GET /holding/${entity}/${holdingUid} answers 404: holdingUid stays null until the holding exists`);
  if (a.status !== 200) return v('EP-HOLDING-GET', `GET /holding/${entity}/${holdingUid} answered ${show(a)}, expected 200 with the Holding`);
  const h = (typeof a.json === 'object' && a.json !== null ? a.json : {}) as { uid?: unknown; entityCode?: unknown; subscriptionUid?: unknown };
  if (h.uid !== holdingUid || h.entityCode !== entity) return v('EP-HOLDING-GET', `GET /holding/${entity}/${holdingUid} answered the holding ${String(h.uid)} of ${String(h.entityCode)}`);
  if (typeof h.subscriptionUid === 'string' && h.subscriptionUid !== subscriptionUid) {
    return v('EP-HOLDING-GET', `the holding ${holdingUid} names subscriptionUid ${h.subscriptionUid}, but it is the holding of the subscription ${subscriptionUid}`);
  }
  return undefined;
}

/**
 * The same holding uid under another allowed entity of the caller: not served (404, or 403), never that holding.
 * Serving that holding breaks the scope (EP-ENTITY-SCOPE); any other answer serves nothing of the other entity: it
 * breaks only "an unknown holding answers 404" (EP-HOLDING-GET), as for a uid that exists nowhere (issue 24).
 */
export function expectHoldingNotUnder(entity: string, holdingUid: string, owner: string, a: Answer): Violation | undefined {
  if ((a.status === 404 || a.status === 403) && typeof detailOf(a.json) === 'string') return undefined;
  const served = a.status >= 200 && a.status < 300 && (a.json as { uid?: unknown } | null)?.uid === holdingUid;
  if (served) return v('EP-ENTITY-SCOPE', `GET /holding/${entity}/${holdingUid} (a holding of ${owner}) answered ${show(a)}, expected 404 (or 403) with {detail}: the entity in the path scopes the read`);
  return v('EP-HOLDING-GET', `GET /holding/${entity}/${holdingUid} (a holding of ${owner}, none of ${entity}) answered ${show(a)}, expected 404 (or 403) with {detail}: an unknown holding answers 404`);
}

/** An unknown holding uid of an allowed entity: 404 with {detail}. */
export function expectUnknownHolding(entity: string, a: Answer): Violation | undefined {
  if (a.status === 404 && typeof detailOf(a.json) === 'string') return undefined;
  return v('EP-HOLDING-GET', `GET /holding/${entity}/<a uid that exists nowhere> answered ${show(a)}, expected 404 with {detail}`);
}

/**
 * Webhooks per user: POST registers (any 2xx: "accepted"), DELETE deregisters and answers {email, url} with url the
 * user's registered URL or null (DeleteWebhookResponse). A user's e-mail is the same in every answer and differs
 * from another user's; one user's registration never shows in another user's DELETE.
 */
export class WebhookModel {
  private readonly registered = new Map<string, Set<string>>();
  private readonly emails = new Map<string, string>();
  /** Credentials whose registration this run knows: after their first DELETE (earlier runs may have left one). */
  private readonly known = new Set<string>();
  /** URLs each credential deregistered in this run (a DELETE that answers one again names a stale registration). */
  private readonly removed = new Map<string, Set<string>>();

  expectRegistered(credential: string, url: string, a: Answer): Violation | undefined {
    if (a.status < 200 || a.status > 299) return v('EP-WEBHOOK', `POST /webhook (${credential}) answered ${show(a)}, expected a 2xx: the URL is accepted`);
    const urls = this.registered.get(credential) ?? new Set<string>();
    urls.add(url);
    this.registered.set(credential, urls);
    return undefined;
  }

  expectDeregistered(credential: string, a: Answer): Violation | undefined {
    const urls = this.registered.get(credential) ?? new Set<string>();
    const known = this.known.has(credential);
    this.registered.delete(credential);
    this.known.add(credential);
    const gone = this.removed.get(credential) ?? new Set<string>();
    this.removed.set(credential, gone);
    if ((urls.size === 0 || !known) && a.status === 404) return typeof detailOf(a.json) === 'string' ? undefined : v('ERR-NOT-FOUND', `DELETE /webhook with none registered answered ${show(a)}: a 404 carries {detail}`);
    if (a.status !== 200) return v('EP-WEBHOOK', `DELETE /webhook (${credential}) answered ${show(a)}, expected 200 DeleteWebhookResponse`);
    const o = (typeof a.json === 'object' && a.json !== null ? a.json : {}) as { email?: unknown; url?: unknown };
    if (typeof o.email !== 'string') return v('RES-WEBHOOK-DELETE', `DELETE /webhook answered no email: ${short(a.text)}`);
    if (known && o.url !== null && o.url !== undefined && !urls.has(String(o.url))) {
      const theirs = [...this.registered.values()].some((s) => s.has(String(o.url)));
      const stale = gone.has(String(o.url));
      return v('EP-WEBHOOK', `DELETE /webhook (${credential}) answered url ${String(o.url)}, ${theirs ? "another user's webhook" : stale ? 'a URL this user deregistered before (registered since: ' + ([...urls].join(', ') || 'none') + ')' : 'never registered by this user'} (registered: ${[...urls].join(', ') || 'none'}): it names the user's webhook URL, or null`);
    }
    for (const u of urls) gone.add(u);
    const seen = this.emails.get(credential);
    if (seen !== undefined && seen !== o.email) return v('RES-WEBHOOK-DELETE', `DELETE /webhook (${credential}) answered email ${o.email}, earlier ${seen}: email is the user's e-mail`);
    const other = [...this.emails.entries()].find(([c, e]) => c !== credential && e === o.email);
    if (other) return v('RES-WEBHOOK-DELETE', `DELETE /webhook answered the e-mail ${o.email} for ${credential} and for ${other[0]}, two different users`);
    this.emails.set(credential, o.email);
    return undefined;
  }
}

export type FilterReading = 'honoured' | 'ignored';

/** The filters of one filtered read: entity_code and/or event_type, with what each keeps. */
export interface EventFilter {
  entity?: string;
  type?: string;
}

/**
 * GET /event filters ("not shown"): each filter is honoured (only matching events) or ignored (the whole stream)
 * by a target, the same way every time. A filtered read of a known range must be one of those readings exactly,
 * in stream order; totalCount (when not null) counts it. Never an event of an entity off the allow-list.
 */
export class FilterModel {
  private readonly readings = new Map<'entity' | 'type', FilterReading>();

  /** `free`: an entity the caller may not see (forbidden, unknown): either reading, nothing learnt (a target may treat such codes apart). */
  judge(f: EventFilter, known: readonly EventRef[], got: readonly EventRef[], totalCount: number | null | undefined, allowed: readonly string[], free = false): Violation | undefined {
    const offList = got.find((e) => e.entityCode !== undefined && !allowed.includes(e.entityCode));
    if (offList) return v('AUTH-EVENT-SCOPE', `a read with ${describeFilter(f)} returned event ${offList.uid} of ${String(offList.entityCode)}, an entity off the allow-list`);
    const kinds = (['entity', 'type'] as const).filter((k) => f[k] !== undefined);
    const options = readingsOf(kinds).filter((r) => free || kinds.every((k) => this.readings.get(k) === undefined || this.readings.get(k) === r.get(k)));
    const ids = got.map((e) => e.uid).join(',');
    const match = options.find((r) => expected(f, r, known).map((e) => e.uid).join(',') === ids);
    if (!match) {
      // Events missing from one reading, in order and nothing else: lost by the paging, not a filter read wrongly.
      // A reading counts for this when it is known, or (not known yet) when it is the filter honoured: a mix of
      // entities is a filter read wrongly, not a loss.
      const fits = (r: Map<'entity' | 'type', FilterReading>): boolean => kinds.every((k) => r.get(k) === 'honoured' || this.readings.get(k) === r.get(k));
      const lost = options.filter(fits).map((r) => expected(f, r, known)).find((want) => isSubsequence(got, want));
      if (lost) return v('EP-EVENT-PAGING', `a read of the known range with ${describeFilter(f)} returned ${got.length} of the ${lost.length} event(s) of that range (${lost.filter((e) => !got.some((g) => g.uid === e.uid)).map((e) => e.uid).slice(0, 5).join(', ')} missing): events are lost between pages`);
      const was = kinds.filter((k) => this.readings.has(k)).map((k) => `${k === 'entity' ? 'entity_code' : 'event_type'} ${this.readings.get(k) as string} before`).join(', ');
      const want = options.map((r) => `${expected(f, r, known).length} event(s) if ${kinds.map((k) => `${k === 'entity' ? 'entity_code' : 'event_type'} is ${r.get(k) as string}`).join(' and ')}`).join('; or ');
      return v(kinds.includes('entity') ? 'EP-ENTITY-SCOPE' : 'EP-EVENT-PAGING', `a read of the known range with ${describeFilter(f)} returned ${got.length} event(s) that are neither the filtered nor the whole range in stream order (${want}${was ? `; ${was}` : ''})`);
    }
    const n = expected(f, match, known).length;
    if (typeof totalCount === 'number' && totalCount !== n) return v('EP-EVENT-TOTAL', `a read with ${describeFilter(f)} has totalCount ${totalCount}, but ${n} event(s) match the filters and the range`);
    // A reading is learnt only when the two readings differ on this range.
    for (const k of free ? [] : kinds) {
      const other = new Map(match);
      other.set(k, match.get(k) === 'honoured' ? 'ignored' : 'honoured');
      if (expected(f, other, known).length !== n) this.readings.set(k, match.get(k) as FilterReading);
    }
    return undefined;
  }
}

/** `got` is `want` with some events left out, in the same order. */
function isSubsequence(got: readonly EventRef[], want: readonly EventRef[]): boolean {
  let i = 0;
  for (const e of want) if (i < got.length && (got[i] as EventRef).uid === e.uid) i++;
  return i === got.length && got.length < want.length;
}

export function describeFilter(f: EventFilter): string {
  return [f.entity !== undefined ? `entity_code=${f.entity}` : '', f.type !== undefined ? `event_type=${f.type}` : ''].filter(Boolean).join('&');
}

function readingsOf(kinds: ReadonlyArray<'entity' | 'type'>): Array<Map<'entity' | 'type', FilterReading>> {
  let out: Array<Map<'entity' | 'type', FilterReading>> = [new Map()];
  for (const k of kinds) out = out.flatMap((m) => (['honoured', 'ignored'] as const).map((r) => new Map(m).set(k, r)));
  return out;
}

function expected(f: EventFilter, r: Map<'entity' | 'type', FilterReading>, known: readonly EventRef[]): EventRef[] {
  return known.filter((e) => (r.get('entity') !== 'honoured' || e.entityCode === f.entity) && (r.get('type') !== 'honoured' || e.eventType === f.type));
}

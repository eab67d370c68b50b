/** Graders of the subscription duties (idempotency keys, retries, indication uid, amount, date, entity, 403, backoff). */
import { Decimal } from 'decimal.js';
import type { ClientExchange, Grader } from '../types.js';
import { at, Findings, isApi, record, sameRequest, withNext } from './util.js';
import { validate as isUuid, version as uuidVersion } from 'uuid';

const UID_GONE = /Indication not found|no longer available/i;

const isSubscribe = (e: ClientExchange): boolean => e.method === 'POST' && e.path === '/api/v1/subscribe';
const keyOf = (e: ClientExchange): string | undefined => e.headers['idempotency-key'];
const bodyText = (e: ClientExchange): string => JSON.stringify(e.body ?? null);
const detailOf = (e: ClientExchange): string => String(record(e.responseBody)?.detail ?? '');
/** The client never saw the outcome: dropped after processing, or a 5xx. */
const outcomeUnseen = (e: ClientExchange): boolean => e.dropped || e.status >= 500;
const subscribes = (exchanges: readonly ClientExchange[]) => exchanges.filter(isSubscribe);

export const idemKey: Grader = {
  clause: 'CL-IDEM-KEY',
  judges: 'every POST /subscribe carries an Idempotency-Key that is a UUIDv4',
  grade({ exchanges }) {
    const f = new Findings();
    for (const e of subscribes(exchanges)) f.judge(!isUuidV4(keyOf(e)), () => `POST /subscribe ${at(e)} with Idempotency-Key ${keyOf(e) === undefined ? 'missing' : `"${keyOf(e)}" (not a UUIDv4)`}`, e);
    return f.result('the client made no subscription');
  },
};

export const idemRetrySameKey: Grader = {
  clause: 'CL-IDEM-RETRY-SAME-KEY',
  judges: 'the next POST /subscribe after one whose outcome the client did not see (dropped, 5xx) repeats its key and body',
  grade({ exchanges }) {
    const f = new Findings();
    for (const [e, next] of withNext(subscribes(exchanges))) {
      if (!outcomeUnseen(e) || !next) continue;
      f.occasion();
      const what = e.dropped ? 'was processed and its response lost' : `answered ${e.status}`;
      if (keyOf(next) !== keyOf(e)) f.breach(`retry ${at(next)} used key ${keyOf(next)} after key ${keyOf(e)}'s request ${at(e)} ${what}`, e, next);
      else if (bodyText(next) !== bodyText(e)) f.breach(`retry ${at(next)} reused key ${keyOf(e)} with a different body`, e, next);
    }
    return f.result('no subscription was left without a seen outcome and retried');
  },
};

/** A 400/404 telling the client the indication uid it named is gone. */
const uidGone = (e: ClientExchange): boolean => (e.status === 400 || e.status === 404) && UID_GONE.test(detailOf(e));

export const idemNewKey: Grader = {
  clause: 'CL-IDEM-NEW-KEY',
  judges: 'a key is never sent with two different bodies; after a 400/404 for an expired uid the next attempt uses a new key',
  grade({ exchanges }) {
    const all = subscribes(exchanges);
    const f = new Findings();
    const firstBody = new Map<string, ClientExchange>();
    for (const e of all) {
      const key = keyOf(e);
      if (key === undefined) continue;
      const first = firstBody.get(key);
      if (!first) firstBody.set(key, e);
      else if (bodyText(first) !== bodyText(e)) {
        f.occasion();
        f.breach(`key ${key} sent ${at(e)} with a body different from its first use ${at(first)}`, first, e);
      }
    }
    for (const [e, next] of withNext(all)) {
      if (next && uidGone(e)) f.judge(keyOf(next) === keyOf(e) && bodyText(next) === bodyText(e), () => `after the expired uid ${at(e)} the next attempt ${at(next)} reused key ${keyOf(e)}`, e, next);
    }
    // Distinct keys for distinct bodies is itself an occasion to show the duty.
    if (new Set(all.map(bodyText)).size > 1) f.occasion();
    return f.result('the client never changed a subscription request');
  },
};

/** The last indication record the client read before exchange `seq` (GET /indication/{code} or a list). */
function indicationsReadBefore(exchanges: readonly ClientExchange[], seq: number): Map<string, Record<string, unknown>> {
  const byUid = new Map<string, Record<string, unknown>>();
  for (const e of exchanges) {
    if (e.seq >= seq) break;
    if (e.method !== 'GET' || !e.path.startsWith('/api/v1/indication') || e.status !== 200 || e.dropped) continue;
    const body = e.responseBody;
    const list = Array.isArray(body) ? body : [record(record(body)?.indication) ?? body];
    for (const x of list) {
      const r = record(x);
      if (typeof r?.uid === 'string') byUid.set(r.uid, r);
    }
  }
  return byUid;
}

function lastIndicationRead(exchanges: readonly ClientExchange[], from: number, to: number): ClientExchange | undefined {
  return exchanges.filter((x) => x.seq > from && x.seq < to && x.method === 'GET' && x.path.startsWith('/api/v1/indication') && x.status === 200).at(-1);
}

export const indicationCurrent: Grader = {
  clause: 'CL-INDICATION-CURRENT',
  judges: 'after a 400/404 for an expired uid, the indication is read again and the next attempt names its new uid',
  grade({ exchanges }) {
    const f = new Findings();
    for (const [e, next] of withNext(subscribes(exchanges))) {
      if (!next || !uidGone(e)) continue;
      f.occasion();
      const read = lastIndicationRead(exchanges, e.seq, next.seq);
      const uid = record(next.body)?.indicationUid;
      if (!read) {
        f.breach(`after "${detailOf(e)}" ${at(e)} the client subscribed again ${at(next)} without reading the indication`, e, next);
        continue;
      }
      const body = read.responseBody;
      const current = record(record(body)?.indication) ?? record(Array.isArray(body) ? body[0] : body);
      if (current && uid !== current.uid) f.breach(`attempt ${at(next)} named uid ${String(uid)}, not the current ${String(current.uid)} read ${at(read)}`, e, read, next);
    }
    return f.result('no indication uid expired under the client');
  },
};

/** Each subscription naming an indication the client had read before it, with that indication as last read. */
function* subscribesOnRead(exchanges: readonly ClientExchange[]): Generator<{ e: ClientExchange; body: Record<string, unknown>; indication: Record<string, unknown> }> {
  for (const e of subscribes(exchanges)) {
    const body = record(e.body);
    const indication = typeof body?.indicationUid === 'string' ? indicationsReadBefore(exchanges, e.seq).get(body.indicationUid) : undefined;
    if (body && indication) yield { e, body, indication };
  }
}

export const amountUnits: Grader = {
  clause: 'CL-AMOUNT-UNITS',
  judges: 'amount is in absolute units: at least the indication minimum x 1,000,000',
  grade({ exchanges }) {
    const f = new Findings();
    for (const { e, body, indication } of subscribesOnRead(exchanges)) {
      if (body.amount === undefined || indication.minimum === undefined) continue;
      f.occasion();
      let amount: Decimal;
      let minimum: Decimal;
      try {
        amount = new Decimal(String(body.amount));
        minimum = new Decimal(String(indication.minimum)).times(1_000_000);
      } catch {
        f.breach(`amount ${String(body.amount)} ${at(e)} is not a number`, e);
        continue;
      }
      if (amount.lt(minimum)) f.breach(`amount ${amount.toString()} ${at(e)} is below the minimum ${String(indication.minimum)} million (${minimum.toFixed()}): sent in millions?`, e);
    }
    return f.result('no subscription named an indication the client had read');
  },
};

export const subscriptionDate: Grader = {
  clause: 'CL-SUBSCRIPTION-DATE',
  judges: 'a subscriptionDate sent is one of the indication\'s subscriptionDates as last read',
  grade({ exchanges }) {
    const f = new Findings();
    for (const { e, body, indication } of subscribesOnRead(exchanges)) {
      const dates = indication.subscriptionDates;
      if (body.subscriptionDate === undefined || !Array.isArray(dates)) continue;
      f.judge(!dates.includes(body.subscriptionDate), () => `subscriptionDate ${String(body.subscriptionDate)} ${at(e)} is not among the dates read (${dates.join(', ')})`, e);
    }
    return f.result('the client sent no subscriptionDate');
  },
};

export const entityCode: Grader = {
  clause: 'CL-ENTITY-CODE',
  judges: 'with several entities granted, POST /subscribe names entityCode and GET /subscription names entity_code',
  grade({ exchanges }) {
    const f = new Findings();
    for (const e of exchanges) {
      if (isSubscribe(e)) {
        const code = record(e.body)?.entityCode;
        f.judge(typeof code !== 'string' || code === '', () => `POST /subscribe ${at(e)} names no entityCode`, e);
      } else if (e.method === 'GET' && e.path === '/api/v1/subscription') {
        f.judge(!e.query.entity_code, () => `GET /subscription ${at(e)} names no entity_code`, e);
      }
    }
    return f.result('the client made no entity-scoped request');
  },
};

export const noRetry403: Grader = {
  clause: 'CL-NO-RETRY-403',
  judges: 'a request answered 403 is not sent again unchanged',
  grade({ exchanges }) {
    const f = new Findings();
    // One breach per refused request, not one per repeat of it.
    const reported = new Set<string>();
    exchanges.forEach((e, i) => {
      if (!isApi(e) || e.status !== 403) return;
      f.occasion();
      const again = exchanges.slice(i + 1).find((x) => sameRequest(x, e));
      const request = `${e.method} ${e.path}`;
      if (!again || reported.has(request)) return;
      reported.add(request);
      f.breach(`${request} was refused with 403 ${at(e)} and sent again unchanged ${at(again)}`, e, again);
    });
    return f.result('no request was refused with 403');
  },
};

export const retryBackoff: Grader = {
  clause: 'CL-RETRY-BACKOFF',
  judges: 'the n-th repeat of a request answered 500 waits at least n x the plan\'s minimum backoff (no tight loop; growing delays)',
  grade({ exchanges, plan }) {
    const f = new Findings();
    const done = new Set<number>();
    for (const e of exchanges) {
      if (e.status < 500 || e.dropped || done.has(e.seq)) continue;
      // The run of attempts of this request: each repeat follows a 500.
      const attempts = [e];
      for (const x of exchanges) {
        const last = attempts.at(-1);
        if (!last || x.seq <= last.seq) continue;
        if (last.status < 500) break;
        if (sameRequest(x, e)) attempts.push(x);
      }
      attempts.forEach((a) => done.add(a.seq));
      if (attempts.length < 2) continue;
      const waits = attempts.slice(1).map((a, i) => a.atMs - (attempts[i]?.atMs ?? 0));
      // Retry n waits at least n x the plan's minimum: no tight loop, and delays that grow. A stalled machine
      // only lengthens a wait, so it can hide a breach but never make one.
      const problems: string[] = [];
      waits.forEach((w, i) => {
        const least = plan.grading.minBackoffMs * (i + 1);
        if (w < least) problems.push(`retry ${i + 1} after ${w.toFixed(0)} ms (< ${least} ms${i > 0 ? ': delays not growing' : ''})`);
      });
      f.judge(problems.length > 0, () => `${e.method} ${e.path} retried after 500: ${problems.join('; ')}`, ...attempts);
    }
    return f.result('no request answered 500 was retried');
  },
};

function isUuidV4(key: string | undefined): boolean {
  return key !== undefined && isUuid(key) && uuidVersion(key) === 4;
}

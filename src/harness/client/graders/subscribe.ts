/** Graders of the subscription duties (idempotency keys, retries, indication uid, amount, date, entity, 403, backoff). */
import { Decimal } from 'decimal.js';
import type { Breach, ClientExchange, Grader } from '../types.js';
import { at, isApi, judged, record, sameRequest } from './util.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
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
    const all = subscribes(exchanges);
    const breaches: Breach[] = all.filter((e) => !UUID_V4.test(keyOf(e) ?? ''))
      .map((e) => ({ message: `POST /subscribe ${at(e)} with Idempotency-Key ${keyOf(e) === undefined ? 'missing' : `"${keyOf(e)}" (not a UUIDv4)`}`, exchanges: [e.seq] }));
    return judged(all.length, breaches, 'the client made no subscription');
  },
};

export const idemRetrySameKey: Grader = {
  clause: 'CL-IDEM-RETRY-SAME-KEY',
  judges: 'the next POST /subscribe after one whose outcome the client did not see (dropped, 5xx) repeats its key and body',
  grade({ exchanges }) {
    const all = subscribes(exchanges);
    const breaches: Breach[] = [];
    let occasions = 0;
    all.forEach((e, i) => {
      const next = all[i + 1];
      if (!outcomeUnseen(e) || !next) return;
      occasions++;
      const what = e.dropped ? 'was processed and its response lost' : `answered ${e.status}`;
      if (keyOf(next) !== keyOf(e)) breaches.push({ message: `retry ${at(next)} used key ${keyOf(next)} after key ${keyOf(e)}'s request ${at(e)} ${what}`, exchanges: [e.seq, next.seq] });
      else if (bodyText(next) !== bodyText(e)) breaches.push({ message: `retry ${at(next)} reused key ${keyOf(e)} with a different body`, exchanges: [e.seq, next.seq] });
    });
    return judged(occasions, breaches, 'no subscription was left without a seen outcome and retried');
  },
};

export const idemNewKey: Grader = {
  clause: 'CL-IDEM-NEW-KEY',
  judges: 'a key is never sent with two different bodies; after a 400/404 for an expired uid the next attempt uses a new key',
  grade({ exchanges }) {
    const all = subscribes(exchanges);
    const breaches: Breach[] = [];
    const firstBody = new Map<string, ClientExchange>();
    let occasions = 0;
    for (const e of all) {
      const key = keyOf(e);
      if (key === undefined) continue;
      const first = firstBody.get(key);
      if (!first) {
        firstBody.set(key, e);
        continue;
      }
      if (bodyText(first) !== bodyText(e)) {
        occasions++;
        breaches.push({ message: `key ${key} sent ${at(e)} with a body different from its first use ${at(first)}`, exchanges: [first.seq, e.seq] });
      }
    }
    all.forEach((e, i) => {
      const next = all[i + 1];
      if (!next || !(e.status === 400 || e.status === 404) || !UID_GONE.test(detailOf(e))) return;
      occasions++;
      if (keyOf(next) === keyOf(e) && bodyText(next) === bodyText(e)) breaches.push({ message: `after the expired uid ${at(e)} the next attempt ${at(next)} reused key ${keyOf(e)}`, exchanges: [e.seq, next.seq] });
    });
    // Distinct keys for distinct bodies is itself an occasion to show the duty.
    occasions += new Set(all.map(bodyText)).size > 1 ? 1 : 0;
    return judged(occasions, breaches, 'the client never changed a subscription request');
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
    const all = subscribes(exchanges);
    const breaches: Breach[] = [];
    let occasions = 0;
    all.forEach((e, i) => {
      const next = all[i + 1];
      if (!(e.status === 400 || e.status === 404) || !UID_GONE.test(detailOf(e)) || !next) return;
      occasions++;
      const read = lastIndicationRead(exchanges, e.seq, next.seq);
      const uid = record(next.body)?.indicationUid;
      if (!read) {
        breaches.push({ message: `after "${detailOf(e)}" ${at(e)} the client subscribed again ${at(next)} without reading the indication`, exchanges: [e.seq, next.seq] });
        return;
      }
      const body = read.responseBody;
      const current = record(record(body)?.indication) ?? record(Array.isArray(body) ? body[0] : body);
      if (current && uid !== current.uid) breaches.push({ message: `attempt ${at(next)} named uid ${String(uid)}, not the current ${String(current.uid)} read ${at(read)}`, exchanges: [e.seq, read.seq, next.seq] });
    });
    return judged(occasions, breaches, 'no indication uid expired under the client');
  },
};

export const amountUnits: Grader = {
  clause: 'CL-AMOUNT-UNITS',
  judges: 'amount is in absolute units: at least the indication minimum x 1,000,000',
  grade({ exchanges }) {
    const breaches: Breach[] = [];
    let occasions = 0;
    for (const e of subscribes(exchanges)) {
      const body = record(e.body);
      const ind = typeof body?.indicationUid === 'string' ? indicationsReadBefore(exchanges, e.seq).get(body.indicationUid) : undefined;
      if (!ind || body?.amount === undefined || ind.minimum === undefined) continue;
      occasions++;
      let amount: Decimal;
      let minimum: Decimal;
      try {
        amount = new Decimal(String(body.amount));
        minimum = new Decimal(String(ind.minimum)).times(1_000_000);
      } catch {
        breaches.push({ message: `amount ${String(body.amount)} ${at(e)} is not a number`, exchanges: [e.seq] });
        continue;
      }
      if (amount.lt(minimum)) breaches.push({ message: `amount ${amount.toString()} ${at(e)} is below the minimum ${String(ind.minimum)} million (${minimum.toFixed()}): sent in millions?`, exchanges: [e.seq] });
    }
    return judged(occasions, breaches, 'no subscription named an indication the client had read');
  },
};

export const subscriptionDate: Grader = {
  clause: 'CL-SUBSCRIPTION-DATE',
  judges: 'a subscriptionDate sent is one of the indication\'s subscriptionDates as last read',
  grade({ exchanges }) {
    const breaches: Breach[] = [];
    let occasions = 0;
    for (const e of subscribes(exchanges)) {
      const body = record(e.body);
      if (body?.subscriptionDate === undefined || typeof body.indicationUid !== 'string') continue;
      const ind = indicationsReadBefore(exchanges, e.seq).get(body.indicationUid);
      if (!ind || !Array.isArray(ind.subscriptionDates)) continue;
      occasions++;
      if (!ind.subscriptionDates.includes(body.subscriptionDate)) breaches.push({ message: `subscriptionDate ${String(body.subscriptionDate)} ${at(e)} is not among the dates read (${ind.subscriptionDates.join(', ')})`, exchanges: [e.seq] });
    }
    return judged(occasions, breaches, 'the client sent no subscriptionDate');
  },
};

export const entityCode: Grader = {
  clause: 'CL-ENTITY-CODE',
  judges: 'with several entities granted, POST /subscribe names entityCode and GET /subscription names entity_code',
  grade({ exchanges }) {
    const breaches: Breach[] = [];
    let occasions = 0;
    for (const e of exchanges) {
      if (isSubscribe(e)) {
        occasions++;
        const code = record(e.body)?.entityCode;
        if (typeof code !== 'string' || code === '') breaches.push({ message: `POST /subscribe ${at(e)} names no entityCode`, exchanges: [e.seq] });
      } else if (e.method === 'GET' && e.path === '/api/v1/subscription') {
        occasions++;
        if (!e.query.entity_code) breaches.push({ message: `GET /subscription ${at(e)} names no entity_code`, exchanges: [e.seq] });
      }
    }
    return judged(occasions, breaches, 'the client made no entity-scoped request');
  },
};

export const noRetry403: Grader = {
  clause: 'CL-NO-RETRY-403',
  judges: 'a request answered 403 is not sent again unchanged',
  grade({ exchanges }) {
    const breaches: Breach[] = [];
    let occasions = 0;
    exchanges.forEach((e, i) => {
      if (!isApi(e) || e.status !== 403) return;
      occasions++;
      const again = exchanges.slice(i + 1).find((x) => sameRequest(x, e));
      if (again) breaches.push({ message: `${e.method} ${e.path} was refused with 403 ${at(e)} and sent again unchanged ${at(again)}`, exchanges: [e.seq, again.seq] });
    });
    // One breach per refused request, not one per repeat of it.
    const seen = new Set<string>();
    const unique = breaches.filter((b) => (seen.has(b.message.split(' was refused')[0] ?? '') ? false : (seen.add(b.message.split(' was refused')[0] ?? ''), true)));
    return judged(occasions, unique, 'no request was refused with 403');
  },
};

export const retryBackoff: Grader = {
  clause: 'CL-RETRY-BACKOFF',
  judges: 'the n-th repeat of a request answered 500 waits at least n x the plan\'s minimum backoff (no tight loop; growing delays)',
  grade({ exchanges, plan }) {
    const breaches: Breach[] = [];
    let occasions = 0;
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
      occasions++;
      const waits = attempts.slice(1).map((a, i) => a.atMs - (attempts[i]?.atMs ?? 0));
      // Retry n waits at least n x the plan's minimum: no tight loop, and delays that grow. A stalled machine
      // only lengthens a wait, so it can hide a breach but never make one.
      const problems: string[] = [];
      waits.forEach((w, i) => {
        const least = plan.grading.minBackoffMs * (i + 1);
        if (w < least) problems.push(`retry ${i + 1} after ${w.toFixed(0)} ms (< ${least} ms${i > 0 ? ': delays not growing' : ''})`);
      });
      if (problems.length) breaches.push({ message: `${e.method} ${e.path} retried after 500: ${problems.join('; ')}`, exchanges: attempts.map((a) => a.seq) });
    }
    return judged(occasions, breaches, 'no request answered 500 was retried');
  },
};

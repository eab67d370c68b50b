/**
 * Graders of polling a new subscription (CL-POLL-INTERVAL, CL-POLL-STOP). A poll is a GET /subscription for the
 * entity of a subscription the client created (its uid seen in a POST /subscribe answer, a replay included);
 * the client knows the outcome once an answer shows that subscription Issued or Cancelled, or its holding so.
 */
import type { ClientExchange, Grader, GradingInput } from '../types.js';
import { stalledWithin } from '../stalls.js';
import { at, Findings, record } from './util.js';

const ENDED = new Set(['Issued', 'Cancelled']);

interface Watch {
  uid: string;
  entity: string;
  createdSeq: number;
}

function created(exchanges: readonly ClientExchange[]): Watch[] {
  const out = new Map<string, Watch>();
  for (const e of exchanges) {
    if (e.method !== 'POST' || e.path !== '/api/v1/subscribe' || e.status !== 200 || e.dropped) continue;
    const r = record(e.responseBody);
    const uid = r?.uid ?? record(r?.subscription)?.uid ?? r?.subscriptionUid;
    const entity = record(e.body)?.entityCode;
    if (typeof uid === 'string' && typeof entity === 'string' && !out.has(uid)) out.set(uid, { uid, entity, createdSeq: e.seq });
  }
  return [...out.values()];
}

function listed(e: ClientExchange): unknown[] {
  const b = e.responseBody;
  if (Array.isArray(b)) return b;
  const r = record(b);
  const inner = r && Object.values(r).find(Array.isArray);
  return Array.isArray(inner) ? inner : [];
}

/** The seq of the first answer that shows the subscription ended (Issued/Cancelled), if any. */
function endedAt(exchanges: readonly ClientExchange[], w: Watch): number | undefined {
  let holdingUid: string | undefined;
  for (const e of exchanges) {
    if (e.seq <= w.createdSeq || e.status !== 200 || e.dropped || e.method !== 'GET') continue;
    if (e.path === '/api/v1/subscription') {
      const item = listed(e).map(record).find((x) => x?.uid === w.uid);
      if (typeof item?.holdingUid === 'string') holdingUid = item.holdingUid;
      if (typeof item?.status === 'string' && ENDED.has(item.status)) return e.seq;
    } else if (holdingUid !== undefined && e.path === `/api/v1/holding/${w.entity}/${holdingUid}`) {
      const status = record(e.responseBody)?.status;
      if (typeof status === 'string' && ENDED.has(status)) return e.seq;
    }
  }
  return undefined;
}

const pollsOf = (exchanges: readonly ClientExchange[], w: Watch): ClientExchange[] =>
  exchanges.filter((e) => e.seq > w.createdSeq && e.method === 'GET' && e.path === '/api/v1/subscription' && e.query.entity_code === w.entity);

export const pollInterval: Grader = {
  clause: 'CL-POLL-INTERVAL',
  judges: 'answered polls of a new subscription: no gap under 30 plan seconds, the shortest gap at most 60 (real gap / FTF_TIME_SCALE, with the plan\'s slack)',
  grade({ exchanges, plan, stalls = [] }: GradingInput) {
    const f = new Findings();
    const { min, max } = plan.grading.pollIntervalSeconds;
    const slackS = plan.grading.slackMs / 1000 / plan.timeScale;
    for (const w of created(exchanges)) {
      const end = endedAt(exchanges, w) ?? Infinity;
      // Polls up to the one that showed the outcome; a refused or failed poll and its immediate retry count as one.
      const answered = pollsOf(exchanges, w).filter((e) => e.seq <= end && e.status === 200 && !e.dropped);
      const gaps = answered.slice(1).map((e, i) => {
        const from = answered[i] as ClientExchange;
        const stalledMs = stalledWithin(stalls, from.atMs, e.atMs);
        return { from, to: e, s: (e.atMs - from.atMs) / 1000 / plan.timeScale, unstalledS: (e.atMs - from.atMs - stalledMs) / 1000 / plan.timeScale };
      });
      if (gaps.length === 0) continue;
      f.occasion(gaps.length);
      // Too often: every gap (a stall only lengthens gaps). Too seldom: the shortest gap, less the time the
      // grading process itself was stalled in it (stalls.ts), so that a busy machine is not taken for a slow poller.
      const tooShort = gaps.filter((g) => g.s < min - slackS);
      const shortest = gaps.reduce((a, b) => (b.unstalledS < a.unstalledS ? b : a));
      const show = (g: (typeof gaps)[number]) => `${g.s.toFixed(1)} s${g.unstalledS < g.s ? ` (${g.unstalledS.toFixed(1)} s without the grading server's stalls)` : ''} between ${at(g.from)} and ${at(g.to)}`;
      if (tooShort.length) f.breach(`subscription ${w.uid} polled more often than every ${min} plan seconds (time scale ${plan.timeScale}): ${tooShort.slice(0, 3).map(show).join('; ')}${tooShort.length > 3 ? `; and ${tooShort.length - 3} more` : ''}`, ...new Set(tooShort.slice(0, 3).flatMap((g) => [g.from.seq, g.to.seq])));
      if (shortest.unstalledS > max + slackS) f.breach(`subscription ${w.uid} polled less often than every ${max} plan seconds (time scale ${plan.timeScale}): even the shortest gap was ${show(shortest)}`, shortest.from, shortest.to);
    }
    return f.result('no new subscription was polled twice');
  },
};

export const pollStop: Grader = {
  clause: 'CL-POLL-STOP',
  judges: 'no poll of a subscription after an answer showed it (or its holding) Issued or Cancelled',
  grade({ exchanges }: GradingInput) {
    const f = new Findings();
    for (const w of created(exchanges)) {
      const end = endedAt(exchanges, w);
      if (end === undefined) continue;
      const after = pollsOf(exchanges, w).filter((e) => e.seq > end);
      const shown = exchanges[end - 1];
      f.judge(after.length > 0, () => `subscription ${w.uid} was shown ended ${shown ? at(shown) : ''} and polled ${after.length} more time(s), first ${after[0] ? at(after[0]) : ''}`, end, ...after.slice(0, 3));
    }
    return f.result('no subscription of the client reached Issued or Cancelled while it polled');
  },
};

/** Probes of the idempotency, amount, lifecycle and Holding-schema faults (see faults-harness.ts). */
import { BELOW_MINIMUM, newKey, type H, type Probe } from './faults-harness.js';

interface Sub { uid: string; status: string; subscriptionDate: string; holdingUid: string | null }

async function subscriptions(h: H): Promise<Sub[]> {
  return (await h.api('GET', '/subscription?entity_code=ENT-ALPHA')).body;
}

async function firstHolding(h: H): Promise<Record<string, unknown>> {
  const list = (await h.api('GET', '/holding/ENT-ALPHA')).body as Array<Record<string, unknown>>;
  const first = list[0];
  if (!first) throw new Error('ENT-ALPHA has no holdings');
  return first;
}

export const SUBSCRIBE_PROBES: Probe[] = [
  {
    fault: 'idempotency-key-optional',
    checks: 'POST /subscribe without Idempotency-Key answers 200',
    deviates: async (h) => (await h.subscribe({}, null)).status === 200,
  },
  {
    fault: 'idempotency-no-replay',
    checks: 'two requests with one key create two subscriptions',
    deviates: async (h) => {
      const key = newKey();
      const a = await h.subscribe({}, key);
      const b = await h.subscribe({}, key);
      return a.body.uid !== b.body.uid;
    },
  },
  {
    fault: 'idempotency-rejections-not-cached',
    checks: 'a rejected key, retried with a valid body, creates a subscription',
    deviates: async (h) => {
      const key = newKey();
      await h.subscribe({ amount: 1 }, key);
      return (await h.subscribe({}, key)).status === 200;
    },
  },
  {
    fault: 'idempotency-replay-status-lost',
    checks: 'the replay of a 400 answers 200',
    deviates: async (h) => {
      const key = newKey();
      await h.subscribe({ amount: 1 }, key);
      return (await h.subscribe({ amount: 1 }, key)).status === 200;
    },
  },
  ...['idempotency-concurrent-duplicates', 'idempotency-window-2ms'].map((fault) => ({
    fault,
    // app.inject starts all five in one tick: they pass the cache lookup before even a 2 ms timer fires.
    checks: '5 concurrent requests with one key create more than one subscription',
    deviates: async (h: H) => {
      const key = newKey();
      const results = await Promise.all(Array.from({ length: 5 }, () => h.subscribe({}, key)));
      return new Set(results.map((r) => r.body.uid)).size > 1;
    },
  })),
  {
    fault: 'idempotency-key-not-user-scoped',
    checks: 'bob subscribes for ENT-ALPHA with key K; alice\'s request with K for ENT-GAMMA (not on her list) gets bob\'s 200 instead of 403',
    deviates: async (h) => {
      const key = newKey();
      const ind = await h.indication();
      const bob = await h.api('POST', '/subscribe', {
        as: 'cc-bob', headers: { 'idempotency-key': key }, json: { indicationUid: ind.uid, entityCode: 'ENT-ALPHA', amount: 1_000_000 },
      });
      const alice = await h.subscribe({ entityCode: 'ENT-GAMMA' }, key);
      return bob.status === 200 && alice.status === 200 && alice.body.uid === bob.body.uid;
    },
  },
  // ---- amounts ----
  {
    fault: 'minimum-in-units',
    checks: 'amount 1 (minimum 1 million) is accepted',
    deviates: async (h) => (await h.subscribe({ amount: 1 })).status === 200,
  },
  {
    fault: 'minimum-boundary-exclusive',
    checks: 'amount == minimum x 1,000,000 is refused',
    deviates: async (h) => (await h.subscribe({ amount: 1_000_000 })).status === 400,
  },
  {
    fault: 'minimum-detail-changed',
    checks: 'the below-minimum detail is not the spec text',
    deviates: async (h) => (await h.subscribe({ amount: 1 })).body.detail !== BELOW_MINIMUM,
  },
  {
    fault: 'minimum-as-422',
    checks: 'below the minimum answers 422 with a [{loc, msg, type}] detail',
    deviates: async (h) => {
      const res = await h.subscribe({ amount: 1 });
      return res.status === 422 && Array.isArray(res.body.detail);
    },
  },
  {
    fault: 'maximum-not-enforced',
    checks: 'above the enforced maximum (50 million) is accepted',
    deviates: async (h) => (await h.subscribe({ amount: 50_000_001 })).status === 200,
  },
  {
    fault: 'subscription-date-not-validated',
    checks: 'a Saturday subscriptionDate is accepted',
    deviates: async (h) => (await h.subscribe({ subscriptionDate: '2026-03-07' })).status === 200,
  },
  {
    fault: 'subscription-date-cutoff-not-checked',
    checks: 'at 20:00 UTC of the first listed date (London cut-off 11:00) that date is accepted explicitly; a Saturday still is not',
    deviates: async (h) => {
      const day = (await h.indication()).subscriptionDates[0] ?? '';
      await h.sandbox('/clock/advance', { to: `${day}T20:00:00Z` });
      const listed = (await h.indication()).subscriptionDates;
      const res = await h.subscribe({ subscriptionDate: day });
      return !listed.includes(day) && res.status === 200 && (await h.subscribe({ subscriptionDate: '2026-03-07' })).status === 400;
    },
  },
  {
    fault: 'expired-indication-uid-accepted',
    checks: 'yesterday\'s Fixed uid is accepted',
    deviates: async (h) => {
      const old = (await h.indication()).uid;
      await h.sandbox('/clock/advance', { days: 1 });
      return (await h.subscribe({ indicationUid: old })).status === 200;
    },
  },
  // ---- lifecycle ----
  {
    fault: 'issued-at-request-time',
    checks: 'a subscription made before cut-off is Issued at the next request',
    deviates: async (h) => {
      const sub = (await h.subscribe()).body as Sub;
      return (await subscriptions(h)).find((s) => s.uid === sub.uid)?.status === 'Issued';
    },
  },
  {
    fault: 'issued-seconds-after-request',
    checks: 'a subscription made before cut-off is Pending right after the request and Issued 5 s later (clock)',
    deviates: async (h) => {
      const sub = (await h.subscribe()).body as Sub;
      if ((await subscriptions(h)).find((s) => s.uid === sub.uid)?.status !== 'Pending') return false;
      await h.sandbox('/clock/advance', { seconds: 5 });
      return (await subscriptions(h)).find((s) => s.uid === sub.uid)?.status === 'Issued';
    },
  },
  {
    fault: 'holding-uid-set-early',
    checks: 'a new Pending subscription has a holdingUid',
    deviates: async (h) => (await h.subscribe()).body.holdingUid !== null,
  },
  {
    fault: 'late-funding-not-moving-date',
    checks: 'funding arriving after the cut-off leaves the original date',
    deviates: async (h) => {
      const sub = (await h.subscribe()).body as Sub;
      await h.sandbox(`/subscriptions/${sub.uid}/funding`, { state: 'delayed' });
      await h.sandbox('/clock/advance', { hours: 4 }); // 12:00 UTC: past the 11:00 London cut-off
      await h.sandbox(`/subscriptions/${sub.uid}/funding`, { state: 'arrived' });
      await h.sandbox('/clock/advance', { days: 3 });
      const after = (await subscriptions(h)).find((s) => s.uid === sub.uid);
      return after?.subscriptionDate === sub.subscriptionDate;
    },
  },
  {
    fault: 'default-date-wrong',
    checks: 'an omitted subscriptionDate is not the first listed date',
    deviates: async (h) => {
      const first = (await h.indication()).subscriptionDates[0];
      return (await h.subscribe()).body.subscriptionDate !== first;
    },
  },
  {
    fault: 'default-date-ignores-cutoff',
    checks: 'at 20:00 UTC of the first listed date (past its cut-off) an omitted subscriptionDate is that date, not the next listed one',
    deviates: async (h) => {
      const day = (await h.indication()).subscriptionDates[0];
      await h.sandbox('/clock/advance', { to: `${day}T20:00:00Z` });
      const next = (await h.indication()).subscriptionDates[0];
      const res = await h.subscribe();
      return next !== day && res.status === 200 && res.body.subscriptionDate === day;
    },
  },
  {
    fault: 'cutoff-compared-in-utc',
    checks: 'FTF-EXT-6M (10:00 Europe/Luxembourg = 09:00 UTC in March): at 09:30 UTC of its first listed date that date is still listed, and FTF-FIX-FRAC (14:00 America/New_York = 19:00 UTC) has dropped its first date at 15:00 UTC',
    deviates: async (h) => {
      const lux = (await h.indication('FTF-EXT-6M')).subscriptionDates[0];
      const ny = (await h.indication('FTF-FIX-FRAC')).subscriptionDates[0];
      if (lux !== '2026-03-02' || ny !== '2026-03-02') throw new Error(`the probe expects both first dates on the simulated start day, got ${lux}, ${ny}`);
      await h.sandbox('/clock/advance', { to: '2026-03-02T09:30:00Z' });
      const luxOpen = (await h.indication('FTF-EXT-6M')).subscriptionDates.includes(lux);
      await h.sandbox('/clock/advance', { to: '2026-03-02T15:00:00Z' });
      const nyClosed = !(await h.indication('FTF-FIX-FRAC')).subscriptionDates.includes(ny);
      return luxOpen && nyClosed;
    },
  },
  {
    fault: 'validation-detail-string',
    checks: 'a 422 detail is a string',
    deviates: async (h) => {
      const res = await h.subscribe({ amount: 'one million' });
      return res.status === 422 && typeof res.body.detail === 'string';
    },
  },
  {
    fault: 'validation-detail-string-checkpoints',
    checks: 'a checkpoint PATCH 422 detail is a string while a /subscribe 422 keeps the list',
    deviates: async (h) => {
      const cp = await h.api('PATCH', '/event/checkpoint/nope', { json: { expectedCheckpointVersion: 1, newCursor: [] } });
      const sub = await h.subscribe({ amount: 'one million' });
      return cp.status === 422 && typeof cp.body.detail === 'string' && sub.status === 422 && Array.isArray(sub.body.detail);
    },
  },
  {
    fault: 'validation-detail-string-queries',
    checks: 'a 422 for a bad query value carries detail as a string while a /subscribe body 422 keeps the list',
    deviates: async (h) => {
      const query = await h.api('GET', '/event?limit=-1');
      const sub = await h.subscribe({ amount: 'one million' });
      return query.status === 422 && typeof query.body.detail === 'string' && sub.status === 422 && Array.isArray(sub.body.detail);
    },
  },
  // ---- Holding schema ----
  {
    fault: 'holding-number-as-string',
    checks: 'Holding.cost is a string',
    deviates: async (h) => typeof (await firstHolding(h)).cost === 'string',
  },
  {
    fault: 'holding-missing-cell-code',
    checks: 'Holding lacks cellCode',
    deviates: async (h) => !('cellCode' in (await firstHolding(h))),
  },
  {
    fault: 'holding-status-lowercase',
    checks: 'Holding.status is lower case',
    deviates: async (h) => /^[a-z]/.test(String((await firstHolding(h)).status)),
  },
  {
    fault: 'holding-date-with-time',
    checks: 'Holding.issueDate is not YYYY-MM-DD',
    deviates: async (h) => !/^\d{4}-\d{2}-\d{2}$/.test(String((await firstHolding(h)).issueDate)),
  },
];

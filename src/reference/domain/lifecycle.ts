/**
 * The subscription lifecycle on the simulated clock, run lazily before every request and after every
 * clock advance or funding change:
 * - before the cut-off of its subscription date a subscription stays Pending (holdingUid null);
 * - after the cut-off it is issued if funded by then (default: funding arrives on time);
 * - funding still delayed: it waits, Pending;
 * - funding arrived after the cut-off: it moves to the next available date of the same FTF whose cut-off
 *   is after the arrival, and is issued after that cut-off (spec, States rule 4).
 */
import { money } from '../data/history.js';
import { buildHolding } from './holdings.js';
import type { SubscriptionEntry } from './subscriptions.js';
import type { Domain } from './world.js';

export function runLifecycle(domain: Domain): void {
  const now = domain.clock.now();
  const { indications } = domain;
  // Issue in cut-off order so the ISSUED events of a long clock jump come out chronologically.
  const due: Array<{ entry: SubscriptionEntry; cutoff: number }> = [];
  for (const entry of domain.subscriptions.pending) {
    const spec = indications.get(entry.record.indicationCode);
    if (!spec) continue;
    moveIfFundedLate(domain, entry);
    const cutoff = indications.cutoffOf(spec, entry.record.subscriptionDate);
    if (isPastCutoff(domain, now, cutoff, entry) && isFundedBy(entry, cutoff)) due.push({ entry, cutoff });
  }
  due.sort((a, b) => a.cutoff - b.cutoff);
  for (const { entry } of due) issue(domain, entry);
}

/** The fault issued-seconds-after-request: how long after its request a subscription is issued. */
export const EARLY_ISSUANCE_MS = 3000;

/** States rule 2: issuance follows the cut-off, never the request. */
function isPastCutoff(domain: Domain, now: number, cutoff: number, entry: SubscriptionEntry): boolean {
  if (now >= cutoff || domain.faults.on('issued-at-request-time')) return true;
  return domain.faults.on('issued-seconds-after-request') && now >= Date.parse(entry.record.createdAt) + EARLY_ISSUANCE_MS;
}

function isFundedBy(entry: SubscriptionEntry, cutoff: number): boolean {
  if (entry.funding === 'on-time') return true;
  return entry.funding === 'arrived' && entry.arrivedAt !== null && entry.arrivedAt <= cutoff;
}

/** Late funding rule (States rule 4): the one place it lives. */
export function moveIfFundedLate(domain: Domain, entry: SubscriptionEntry): void {
  if (entry.funding !== 'arrived' || entry.arrivedAt === null) return;
  const spec = domain.indications.get(entry.record.indicationCode);
  if (!spec) return;
  const cutoff = domain.indications.cutoffOf(spec, entry.record.subscriptionDate);
  if (entry.arrivedAt <= cutoff) return;
  if (domain.faults.on('late-funding-not-moving-date')) {
    entry.funding = 'on-time';
    return;
  }
  const next = domain.indications.datesAfter(spec, entry.record.subscriptionDate, entry.arrivedAt, 1)[0];
  if (next) entry.record.subscriptionDate = next;
}

function issue(domain: Domain, entry: SubscriptionEntry): void {
  const sub = entry.record;
  const spec = domain.indications.get(sub.indicationCode);
  if (!spec) return;
  const holding = buildHolding(spec, {
    uid: sub.holdingUid ?? domain.newId(), entityCode: sub.entityCode, cost: String(sub.amount), issueDate: sub.subscriptionDate,
    status: 'Issued', subscriptionUid: sub.uid,
  });
  domain.holdings.set(holding.uid, holding);
  domain.extensions.set(holding.uid, []);
  sub.holdingUid = holding.uid;
  sub.status = 'Issued';
  domain.subscriptions.pending.delete(entry);
  domain.store.append(sub.entityCode, 'ISSUED', {
    holdingUid: holding.uid, subscriptionUid: sub.uid, indicationCode: sub.indicationCode, currency: spec.currency,
    cost: money(String(sub.amount)), issueDate: holding.issueDate, maturityDate: holding.maturityDate,
  });
}

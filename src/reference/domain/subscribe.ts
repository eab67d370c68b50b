/**
 * POST /subscribe business rules, after authentication, permission, idempotency and schema checks (see
 * routes/subscriptions.ts for the full order). Each rule is one function so that a fault (issue 5) can
 * deviate in exactly one place. Amount math in decimal.js.
 */
import { Decimal } from 'decimal.js';
import { ApiError, type Faults, type Variants } from '../context.js';
import { NO_VARIANTS } from '../variants.js';
import type { IndicationSpec } from '../data/types.js';
import { money } from '../data/history.js';
import type { Subscription } from './subscriptions.js';
import type { Domain } from './world.js';

export interface SubscribeBody {
  indicationUid: string;
  entityCode: string;
  amount: number;
  subscriptionDate?: string;
}

const MILLION = new Decimal(1_000_000);
const HALF_CENT = new Decimal('0.005');

/** Unknown uid -> 404; a Fixed uid of a past day (rotated) -> 400. */
export function checkIndicationUid(domain: Domain, uid: string, faults: Faults): IndicationSpec {
  const found = domain.indications.lookupUid(uid, domain.clock.now());
  if (found.kind === 'unknown') throw new ApiError(404, 'Indication not found');
  // Errors allow 400 or 404 for an expired uid; the variant answers the 404 reading.
  if (found.kind === 'rotated' && domain.variants.is('expired-uid-404') && !faults.on('expired-indication-uid-accepted')) throw new ApiError(404, 'Indication not found');
  if (found.kind === 'rotated' && !faults.on('expired-indication-uid-accepted')) throw new ApiError(400, 'Indication is no longer available for subscription.');
  return found.spec;
}

/**
 * Requested date must be listed (which implies its cut-off is ahead); omitted -> first listed date. The
 * faults default-date-ignores-cutoff and subscription-date-cutoff-not-checked take today (in the product's
 * zone, a business day) by its calendar date alone, as if its cut-off had not passed.
 */
export function resolveSubscriptionDate(domain: Domain, spec: IndicationSpec, requested: string | undefined, faults: Faults): string {
  const now = domain.clock.now();
  const dates = domain.indications.subscriptionDates(spec, now);
  const today = domain.indications.localToday(spec, now);
  const todayByCalendar = (): boolean => domain.indications.isBusinessDay(spec, today);
  if (requested === undefined) {
    if (faults.on('default-date-ignores-cutoff') && todayByCalendar()) return today;
    const first = faults.on('default-date-wrong') ? dates[1] : dates[0];
    if (!first) throw new ApiError(400, 'Subscription date is not a valid date for this indication.');
    return first;
  }
  const todayAfterCutoff = faults.on('subscription-date-cutoff-not-checked') && requested === today && todayByCalendar();
  if (!dates.includes(requested) && !todayAfterCutoff && !faults.on('subscription-date-not-validated')) throw new ApiError(400, 'Subscription date is not a valid date for this indication.');
  return requested;
}

/** amount < minimum x 1,000,000 -> 400; equal is accepted. */
export function checkMinimum(spec: IndicationSpec, amount: Decimal, faults: Faults): void {
  const minimum = faults.on('minimum-in-units') ? new Decimal(spec.minimum) : new Decimal(spec.minimum).mul(MILLION);
  // The fault minimum-sub-cent-tolerance: a "rounding-safe" comparison with half a cent of slack.
  const limit = faults.on('minimum-sub-cent-tolerance') ? minimum.minus(HALF_CENT) : minimum;
  const below = faults.on('minimum-boundary-exclusive') ? amount.lessThanOrEqualTo(limit) : amount.lessThan(limit);
  if (below && faults.on('minimum-as-422')) {
    throw new ApiError(422, [{ loc: ['body', 'amount'], msg: 'Amount is below the indication minimum.', type: 'value_error' }]);
  }
  if (below) throw new ApiError(400, faults.on('minimum-detail-changed') ? 'Amount too small.' : 'Amount is below the indication minimum.');
}

/** amount > maximum x 1,000,000: 400 when enforced, else accepted for manual review. Returns manualReview. */
export function checkMaximum(spec: IndicationSpec, amount: Decimal, faults: Faults, variants: Variants = NO_VARIANTS): boolean {
  const maximum = new Decimal(spec.maximum).mul(MILLION);
  if (!amount.greaterThan(maximum)) return false;
  // The fault maximum-sub-cent-tolerance: an enforced maximum with half a cent of slack lets a sub-cent excess through.
  if (spec.enforceMaximum && faults.on('maximum-sub-cent-tolerance') && !amount.greaterThan(maximum.plus(HALF_CENT))) return false;
  if (spec.enforceMaximum && !faults.on('maximum-not-enforced')) {
    // The detail text of this 400 is "not fixed" (Errors).
    throw new ApiError(400, variants.is('maximum-detail-other') ? 'Requested amount exceeds the maximum for this product.' : 'Amount is above the indication maximum.');
  }
  return true;
}

/** Runs the rules in order and creates the subscription (Pending, SUBSCRIBED event). Synchronous. */
export function subscribe(domain: Domain, body: SubscribeBody, faults: Faults): Subscription {
  const spec = checkIndicationUid(domain, body.indicationUid, faults);
  const date = resolveSubscriptionDate(domain, spec, body.subscriptionDate, faults);
  // The fault amount-sign-dropped: the amount is read as its magnitude (-X is taken as X).
  const signed = new Decimal(String(body.amount));
  const amount = faults.on('amount-sign-dropped') ? signed.abs() : signed;
  checkMinimum(spec, amount, faults);
  const manualReview = checkMaximum(spec, amount, faults, domain.variants);
  const record: Subscription = {
    uid: domain.newId(),
    entityCode: body.entityCode,
    indicationCode: spec.code,
    indicationUid: body.indicationUid,
    amount: body.amount,
    subscriptionDate: date,
    requestedSubscriptionDate: date,
    status: 'Pending',
    // States rule 1: null until the holding exists (the fault pre-allocates the holding's uid).
    holdingUid: faults.on('holding-uid-set-early') ? domain.newId() : null,
    manualReview,
    createdAt: domain.nowIso(),
  };
  domain.subscriptions.add(record);
  domain.store.append(body.entityCode, 'SUBSCRIBED', {
    subscriptionUid: record.uid, indicationCode: spec.code, currency: spec.currency,
    amount: money(amount), subscriptionDate: date,
  });
  return record;
}

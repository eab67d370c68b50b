/**
 * Payloads of synthetic events, recomputed from (seed, seq) whenever a page is read, so synthetic events
 * cost no memory beyond two bytes each. Money and rates are exact decimal strings built from integers.
 */
import type { EventType } from '../../data/types.js';
import { hash32, mulberry32, uuidFrom } from '../../data/prng.js';
import { addDays, addMonths, fromEpochDay, toEpochDay } from '../dates.js';

const BASE_DAY = toEpochDay('2026-03-02');
const OTHER: Record<string, string> = { GBP: 'USD', USD: 'EUR', EUR: 'GBP' };

/** Integer cents -> "1234.56" (exact, no floating point). */
function money(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Integer basis points -> "4.25". */
const rate = (bp: number): string => `${Math.floor(bp / 100)}.${String(bp % 100).padStart(2, '0')}`;

export function syntheticFields(seed: number, seq: number, type: EventType, currency: string): Record<string, unknown> {
  const rng = mulberry32(hash32(seed, seq, 0x51));
  const holdingUid = uuidFrom(seed, seq, 0x401d);
  const cost = (100 + (rng.next() % 4900)) * 100_000; // 1,000.00 .. 49,000,000 in cents / 100k steps
  const yieldBp = 300 + (rng.next() % 250);
  const issueDate = fromEpochDay(BASE_DAY - 1 - (rng.next() % 700));
  const maturityDate = addMonths(issueDate, 1 + (rng.next() % 6));
  const maturityCents = cost + Math.floor((cost / 10_000) * (yieldBp / 100)) * 10; // deterministic integer
  const core = {
    obligorExposureCode: 'OBX-SYNTH', maturityValue: money(maturityCents), yield: rate(yieldBp), currency, holdingUid,
  };
  switch (type) {
    case 'SUBSCRIBED':
      return { subscriptionUid: uuidFrom(seed, seq, 0x5b), indicationCode: 'FTF-FIX-1M', currency, amount: money(cost), subscriptionDate: issueDate };
    case 'ISSUED':
      return { holdingUid, subscriptionUid: uuidFrom(seed, seq, 0x5b), indicationCode: 'FTF-FIX-1M', currency, cost: money(cost), issueDate, maturityDate };
    case 'SPLIT':
      return { holdingUid, currency, cost: money(cost / 2), newHoldingUid: uuidFrom(seed, seq, 0x5a), newCost: money(cost / 2) };
    case 'EXTENDED': {
      const next = addMonths(maturityDate, 6);
      return { ...core, maturityDate: next, previousMaturityDate: maturityDate, extensionOptionDate: addMonths(next, -1), previousExtensionOptionDate: seq % 2 === 0 ? null : addMonths(maturityDate, -1) };
    }
    case 'FINALIZED':
      return { ...core, maturityDate, finalized: true };
    case 'ADJUSTED':
      return {
        ...core, cost: money(cost), subscriptionDate: issueDate, maturityDate: addDays(maturityDate, 1),
        previousMaturityDate: maturityDate, previousMaturityValue: money(maturityCents - 100), previousSubscriptionDate: addDays(issueDate, -1),
      };
    case 'CURRENCY_CONVERTED': {
      const fxBp = 8000 + (rng.next() % 5000); // 0.8000 .. 1.2999 in 1/10000
      const toCents = Math.floor((cost * fxBp) / 10_000);
      return { fromCurrency: currency, toCurrency: OTHER[currency] ?? 'USD', fromAmount: money(cost), toAmount: money(toCents), fxRate: `${Math.floor(fxBp / 10_000)}.${String(fxBp % 10_000).padStart(4, '0')}` };
    }
    case 'CASH_MOVED':
      return { currency, amount: money(seq % 3 === 0 ? -cost / 100 : cost) };
    case 'REDEEMED':
      return { holdingUid, currency, amount: money(maturityCents), redemptionDate: maturityDate };
    case 'CANCELLED':
      return { currency, holdingUid, cost: money(cost) };
  }
}

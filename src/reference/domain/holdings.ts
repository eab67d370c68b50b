/**
 * Builds Holding records from an indication and a few facts (cost, issue date, status). Used for the
 * seeded holdings and at issuance, so both look alike. All money math in decimal.js; numbers out.
 */
import { Decimal } from 'decimal.js';
import type { Extension, Holding, HoldingStatus, IndicationSpec } from '../data/types.js';
import { addMonths, daysBetween, isoWithOffset, zonedToUtc } from './dates.js';

export interface HoldingFacts {
  uid: string;
  entityCode: string;
  cost: string;
  issueDate: string;
  status: HoldingStatus;
  subscriptionUid: string | null;
  extensions?: Extension[];
}

/** cost x (1 + yield% x days / 365), 2 decimals. */
export function maturityValueOf(principal: Decimal.Value, yieldPct: Decimal.Value, from: string, to: string): Decimal {
  const days = daysBetween(from, to);
  return new Decimal(principal).mul(new Decimal(yieldPct).div(100).mul(days).div(365).plus(1)).toDecimalPlaces(2);
}

export function buildHolding(ind: IndicationSpec, f: HoldingFacts): Holding {
  const exts = f.extensions ?? [];
  const last = exts.length > 0 ? exts[exts.length - 1] : undefined;
  const extendable = ind.type === 'Extendable';
  const maturityDate = last ? last.maturity : addMonths(f.issueDate, ind.termMonths);
  const yieldPct = last ? new Decimal(last.yield) : new Decimal(ind.yield);
  const startValue = last ? new Decimal(f.cost).mul(last.pricePerShare).toDecimalPlaces(2) : new Decimal(f.cost);
  const maturityValue = maturityValueOf(startValue, yieldPct, last ? last.date : f.issueDate, maturityDate);
  const value = f.status === 'Redeemed' ? maturityValue : f.status === 'Cancelled' ? new Decimal(0) : startValue;
  const cutoff = zonedToUtc(f.issueDate, ind.cutoffTime, ind.timezone);
  return {
    uid: f.uid,
    type: ind.type,
    entityCode: f.entityCode,
    cellCode: ind.cellCode,
    obligorExposureCode: ind.obligorExposureCode,
    obligorExposureName: ind.obligorExposureName,
    status: f.status,
    cost: new Decimal(f.cost).toNumber(),
    value: value.toNumber(),
    maturityValue: maturityValue.toNumber(),
    issueDate: f.issueDate,
    maturityDate,
    calendars: [...ind.calendars],
    isOnBalanceSheet: f.status !== 'Cancelled',
    currency: ind.currency,
    cutoffDatetime: isoWithOffset(cutoff, ind.timezone),
    extendedMaturityDate: extendable && last ? last.maturity : null,
    extensionOptionDate: extendable ? addMonths(maturityDate, -1) : null,
    extensionStartDate: extendable ? (last?.date ?? f.issueDate) : null,
    extensionStartValue: extendable ? startValue.toNumber() : null,
    finalYield: extendable ? (last?.finalYield ?? null) : null,
    finalized: extendable ? f.status === 'Redeemed' : null,
    maturityActions: [{ action: 'Redeem', percentage: 100 }],
    maturityValueAdjustment: 0,
    mmyA365F: yieldPct.toNumber(),
    name: ind.name,
    nextFinalYield: null,
    nextYield: extendable ? yieldPct.plus('0.05').toNumber() : null,
    pricePerShare: last ? last.pricePerShare : 1,
    productCode: ind.code,
    subscriptionUid: f.subscriptionUid,
    yield: yieldPct.toNumber(),
  };
}

/**
 * Turns history.yaml entries into event payloads. Holding-derived fields come from the named holding;
 * money and rates become decimal strings, dates stay YYYY-MM-DD (spec, Resources / Event kinds).
 */
import { Decimal } from 'decimal.js';
import { addMonths } from '../domain/dates.js';
import { maturityValueOf } from '../domain/holdings.js';
import { EVENT_TYPES, type EventType, type SeededEvent, type SeededHolding } from './types.js';

export interface RawHistoryEntry {
  entity: string;
  type: string;
  holding?: string;
  split?: string;
  extension?: number;
  set?: Record<string, unknown>;
}

export const money = (n: Decimal.Value): string => new Decimal(n).toFixed(2);
export const rate = (n: Decimal.Value): string => new Decimal(n).toFixed(2);

interface BuildEnv {
  byKey: Map<string, SeededHolding>;
  /** Term in months of an indication code (first maturity of an extendable). */
  termOf(code: string): number;
}

type Builder = (h: SeededHolding, e: RawHistoryEntry, env: BuildEnv) => Record<string, unknown>;

const holdingCore = (h: SeededHolding): Record<string, unknown> => ({
  obligorExposureCode: h.holding.obligorExposureCode,
  maturityValue: money(h.holding.maturityValue),
  yield: rate(h.holding.yield ?? 0),
  currency: h.holding.currency,
  holdingUid: h.holding.uid,
});

const BUILDERS: Partial<Record<EventType, Builder>> = {
  SUBSCRIBED: (h) => ({
    subscriptionUid: h.holding.subscriptionUid, indicationCode: h.holding.productCode, currency: h.holding.currency,
    amount: money(h.holding.cost), subscriptionDate: h.holding.issueDate,
  }),
  ISSUED: (h) => ({
    holdingUid: h.holding.uid, subscriptionUid: h.holding.subscriptionUid, indicationCode: h.holding.productCode,
    currency: h.holding.currency, cost: money(h.holding.cost), issueDate: h.holding.issueDate, maturityDate: h.holding.maturityDate,
  }),
  SPLIT: (h, e, env) => {
    const other = env.byKey.get(e.split ?? '');
    if (!other) throw new Error(`SPLIT needs "split: <holding key>" (got ${String(e.split)})`);
    return {
      holdingUid: h.holding.uid, currency: h.holding.currency, cost: money(h.holding.cost),
      newHoldingUid: other.holding.uid, newCost: money(other.holding.cost),
    };
  },
  EXTENDED: (h, e, env) => {
    const i = e.extension ?? 0;
    const ext = h.extensions[i];
    if (!ext) throw new Error(`EXTENDED: holding ${h.key} has no extension #${i}`);
    const prevMaturity = i === 0 ? addMonths(h.holding.issueDate, env.termOf(h.holding.productCode ?? '')) : (h.extensions[i - 1]?.maturity ?? h.holding.issueDate);
    const start = new Decimal(h.holding.cost).mul(ext.pricePerShare);
    return {
      ...holdingCore(h),
      maturityValue: money(maturityValueOf(start, ext.yield, ext.date, ext.maturity)),
      yield: rate(ext.yield),
      maturityDate: ext.maturity,
      previousMaturityDate: prevMaturity,
      extensionOptionDate: addMonths(ext.maturity, -1),
      previousExtensionOptionDate: i === 0 ? null : addMonths(prevMaturity, -1),
    };
  },
  FINALIZED: (h) => ({ ...holdingCore(h), maturityDate: h.holding.maturityDate, finalized: true }),
  ADJUSTED: (h) => ({
    ...holdingCore(h), cost: money(h.holding.cost), subscriptionDate: h.holding.issueDate, maturityDate: h.holding.maturityDate,
  }),
  REDEEMED: (h) => ({
    holdingUid: h.holding.uid, currency: h.holding.currency, amount: money(h.holding.maturityValue), redemptionDate: h.holding.maturityDate,
  }),
  CANCELLED: (h) => ({ currency: h.holding.currency, holdingUid: h.holding.uid, cost: money(h.holding.cost) }),
};

export function buildHistory(entries: RawHistoryEntry[], env: BuildEnv): SeededEvent[] {
  const { byKey } = env;
  return entries.map((e, i) => {
    const where = `history[${i}]`;
    if (!EVENT_TYPES.includes(e.type as EventType)) throw new Error(`${where}: unknown event type ${e.type}`);
    const type = e.type as EventType;
    const builder = BUILDERS[type];
    let fields: Record<string, unknown> = {};
    if (builder) {
      const h = byKey.get(e.holding ?? '');
      if (!h) throw new Error(`${where}: ${type} needs "holding: <key>" of holdings.yaml (got ${String(e.holding)})`);
      if (h.holding.entityCode !== e.entity) throw new Error(`${where}: holding ${h.key} belongs to ${h.holding.entityCode}, not ${e.entity}`);
      try {
        fields = builder(h, e, env);
      } catch (err) {
        throw new Error(`${where}: ${(err as Error).message}`, { cause: err });
      }
    }
    return { entityCode: e.entity, eventType: type, fields: { ...fields, ...(e.set ?? {}) } };
  });
}

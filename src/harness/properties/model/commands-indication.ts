/**
 * GET /indication/{code} (Endpoints table) as a command, by each credential kind the profile has: the product the
 * subscribes use (indications.primary) answers the indication with a current uid, minimum and maximum in millions
 * and a non-empty list of YYYY-MM-DD subscriptionDates (EP-INDICATION-GET); its current uid is the one every other
 * read at that moment gives (uids rotate daily, so a difference is read once more before it counts); its minimum is
 * the one the model's subscribes were judged by. An unknown code is 404 with {detail} (ERR-NOT-FOUND).
 */
import { Decimal } from 'decimal.js';
import { getPointer } from '../../expressions/values.js';
import { fail, judge, type Cmd, type Model, type Real } from './command-kit.js';
import type { Violation } from '../types.js';
import { DETAIL, detailOf, show, v, type Answer } from './state.js';

export type IndicationCredential = 'primary' | 'second' | 'readonly';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

const decimalOf = (x: unknown): Decimal | undefined => {
  if (typeof x !== 'number' && typeof x !== 'string') return undefined;
  try {
    return new Decimal(typeof x === 'number' ? String(x) : x);
  } catch {
    return undefined;
  }
};

/** The record at the profile's records.indication (layout not shown), or the root. */
function recordOf(r: Real, a: Answer): Record<string, unknown> | undefined {
  const at = r.target.records.indication;
  const rec = at ? getPointer(a.json, at) : a.json;
  return typeof rec === 'object' && rec !== null && !Array.isArray(rec) ? (rec as Record<string, unknown>) : undefined;
}

export class ReadIndication implements Cmd {
  private shown = '';
  constructor(readonly credential: IndicationCredential, readonly unknown: boolean) {}
  check = (m: Readonly<Model>): boolean => this.credential === 'primary' || (this.credential === 'second' ? m.can.second : m.can.readonly);
  async run(m: Model, r: Real): Promise<void> {
    const code = this.unknown ? `FTF-MISSING-${r.tag}` : r.product.code;
    this.shown = code;
    const role = this.toString();
    const a = await r.api.call('GET', `/indication/${encodeURIComponent(code)}`, this.credential, undefined, role);
    if (this.unknown) {
      if (a.status === 404 && typeof detailOf(a.json) === 'string') return;
      if (this.credential !== 'primary' && a.status === 403 && detailOf(a.json) === DETAIL.endpoint) return;
      return fail(v('ERR-NOT-FOUND', `GET /indication/${code} (a code that does not exist) by the ${this.credential} user answered ${show(a)}, expected 404 with {detail}`), role);
    }
    // Endpoint provisioning of the other credentials is not in the profile: a refusal of the endpoint as such is allowed.
    if (this.credential !== 'primary' && a.status === 403 && detailOf(a.json) === DETAIL.endpoint) return judge(undefined, [a], role);
    judge(await this.judgeRecord(r, a, code), [a], role);
  }

  private async judgeRecord(r: Real, a: Answer, code: string): Promise<Violation | undefined> {
    const what = `GET /indication/${code} by the ${this.credential} user`;
    if (a.status !== 200) return v('EP-INDICATION-GET', `${what} answered ${show(a)}, expected 200 with the indication`);
    const rec = recordOf(r, a);
    if (rec === undefined) return v('EP-INDICATION-GET', `${what}: no indication record at records.indication "${r.target.records.indication ?? ''}" of ${show(a)}`);
    const uid = getPointer(rec, r.target.fields.indication_uid ?? '/uid');
    const minimum = decimalOf(rec.minimum);
    const maximum = decimalOf(rec.maximum);
    const dates = rec.subscriptionDates;
    if (typeof uid !== 'string' || uid === '') return v('EP-INDICATION-GET', `${what}: no current uid at ${r.target.fields.indication_uid ?? '/uid'} of the record`);
    if (minimum === undefined || maximum === undefined) return v('EP-INDICATION-GET', `${what}: minimum ${JSON.stringify(rec.minimum)} and maximum ${JSON.stringify(rec.maximum)} must be numbers (in millions; JSON numbers or decimal strings)`);
    if (!Array.isArray(dates) || dates.length === 0 || !dates.every((d) => typeof d === 'string' && DATE.test(d)) || new Set(dates).size !== dates.length) {
      return v('EP-INDICATION-GET', `${what}: subscriptionDates ${JSON.stringify(dates)?.slice(0, 120)} must be a non-empty list of distinct YYYY-MM-DD dates`);
    }
    if (!minimum.times(1_000_000).equals(new Decimal(r.product.minimumUnits))) {
      return v('EP-INDICATION-GET', `${what}: minimum ${String(rec.minimum)} (x 1,000,000 = ${minimum.times(1_000_000).toFixed()}) is not the minimum the primary user's read gave (${r.product.minimumUnits} units)`);
    }
    if (uid !== r.product.uid) {
      // A uid rotates (daily for Fixed indications): read it once more by the primary user before calling it a difference.
      await r.refreshProduct();
      if (uid !== r.product.uid) return v('EP-INDICATION-GET', `${what} gave the current uid ${uid}, the primary user's read at the same moment ${r.product.uid}: an indication has one current uid`);
    }
    return undefined;
  }

  toString = (): string => `GET /indication/${this.shown || (this.unknown ? '<unknown code>' : '<primary indication>')} by the ${this.credential} user`;
}

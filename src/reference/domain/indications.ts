/**
 * Indications on the simulated clock: the daily-rotating uid of Fixed products (derived from code + local
 * date + seed; Extendable ones keep one uid; a test product with `uidRotationSeconds` rotates every that many
 * seconds instead), the available subscription dates (weekdays that are not a
 * holiday of any of the product's calendars, whose cut-off has not passed) and cut-off instants.
 */
import type { Faults } from '../context.js';
import type { Holiday, IndicationSpec } from '../data/types.js';
import { NO_FAULTS } from '../faults.js';
import { hashString, uuidFrom } from '../data/prng.js';
import { addDays, localDate, toEpochDay, weekday, zonedToUtc } from './dates.js';

/** How many dates an indication lists. */
export const SUBSCRIPTION_DATE_COUNT = 10;
/** A Fixed uid of any of the last N local days (rotation periods) answers 400 "no longer available"; older ones 404. */
export const ROTATED_UID_MEMORY_DAYS = 60;

export interface IndicationView extends Omit<IndicationSpec, 'yield' | 'extensionMonths' | 'termMonths' | 'cellCode' | 'calendars' | 'obligorExposureName'> {
  uid: string;
  subscriptionDates: string[];
  calendars: string[];
  termMonths: number;
  yield: number;
}

export type UidLookup =
  | { kind: 'current'; spec: IndicationSpec }
  | { kind: 'rotated'; spec: IndicationSpec }
  | { kind: 'unknown' };

export class IndicationBook {
  private readonly byCode: Map<string, IndicationSpec>;
  private readonly holidays: Set<string>;
  /** Forced rotations per indication code (client grading only; empty otherwise). */
  private readonly forced = new Map<string, number>();

  constructor(
    readonly specs: readonly IndicationSpec[],
    holidays: readonly Holiday[],
    private readonly seed: number,
    /** How a uid is shown (variant opaque-ids); identity by default. */
    private readonly format: (uuid: string) => string = (uuid) => uuid,
    private readonly faults: Faults = NO_FAULTS,
  ) {
    this.byCode = new Map(specs.map((s) => [s.code, s]));
    this.holidays = new Set(holidays.map((h) => `${h.country}|${h.date}`));
  }

  get(code: string): IndicationSpec | undefined {
    return this.byCode.get(code);
  }

  /** A weekday that is no holiday in any of the indication's calendars. */
  isBusinessDay(spec: IndicationSpec, date: string): boolean {
    const wd = weekday(date);
    if (wd === 0 || wd === 6) return false;
    return !spec.calendars.some((c) => this.holidays.has(`${c}|${date}`));
  }

  /**
   * The cut-off instant of `date`: cutoffTime on that date in the product's zone (what cutoffDatetime shows).
   * Every comparison with the cut-off (listed dates, issuance, late funding) goes through here; the fault
   * cutoff-compared-in-utc reads the wall-clock cutoffTime as UTC (cutoffDatetime stays right).
   */
  cutoffOf(spec: IndicationSpec, date: string): number {
    return zonedToUtc(date, spec.cutoffTime, this.faults.on('cutoff-compared-in-utc') ? 'UTC' : spec.timezone);
  }

  localToday(spec: IndicationSpec, nowMs: number): string {
    return localDate(nowMs, spec.timezone);
  }

  uidOn(spec: IndicationSpec, date: string): string {
    return this.format(spec.type === 'Fixed'
      ? uuidFrom(this.seed, hashString(spec.code), toEpochDay(date))
      : uuidFrom(this.seed, hashString(spec.code), 0x7fffffff));
  }

  /** A test product's uid of rotation period `period` (periods of uidRotationSeconds since the epoch). */
  private uidOfPeriod(spec: IndicationSpec, period: number): string {
    return this.format(uuidFrom(this.seed, hashString(spec.code), -1 - period));
  }

  private periodOf(spec: IndicationSpec, nowMs: number): number | undefined {
    return spec.type === 'Fixed' && spec.uidRotationSeconds !== undefined ? Math.floor(nowMs / (spec.uidRotationSeconds * 1000)) : undefined;
  }

  currentUid(spec: IndicationSpec, nowMs: number): string {
    const base = this.scheduledUid(spec, nowMs);
    const forced = this.forced.get(spec.code) ?? 0;
    return forced === 0 ? base : this.forcedUid(spec, base, forced);
  }

  private scheduledUid(spec: IndicationSpec, nowMs: number): string {
    const period = this.periodOf(spec, nowMs);
    return period !== undefined ? this.uidOfPeriod(spec, period) : this.uidOn(spec, this.localToday(spec, nowMs));
  }

  private forcedUid(spec: IndicationSpec, base: string, n: number): string {
    return this.format(uuidFrom(this.seed, hashString(`${spec.code}|${base}`), n));
  }

  /**
   * Client grading (src/reference/grading): the indication's uid expires NOW, as a daily rotation would; the
   * uid held until now answers as rotated (400 "no longer available"), a new one is current.
   */
  forceRotation(code: string): void {
    this.forced.set(code, (this.forced.get(code) ?? 0) + 1);
  }

  /** A uid this indication had before a forced rotation of today's (or this period's) uid. */
  private wasForcedUid(spec: IndicationSpec, uid: string, nowMs: number): boolean {
    const forced = this.forced.get(spec.code) ?? 0;
    if (forced === 0) return false;
    const base = this.scheduledUid(spec, nowMs);
    if (uid === base) return true;
    for (let n = 1; n < forced; n++) if (this.forcedUid(spec, base, n) === uid) return true;
    return false;
  }

  /** The uid was this indication's in a recent past day (or rotation period), not now. */
  private wasUid(spec: IndicationSpec, uid: string, nowMs: number): boolean {
    const period = this.periodOf(spec, nowMs);
    const today = this.localToday(spec, nowMs);
    for (let back = 1; back <= ROTATED_UID_MEMORY_DAYS; back++) {
      if ((period !== undefined ? this.uidOfPeriod(spec, period - back) : this.uidOn(spec, addDays(today, -back))) === uid) return true;
    }
    return false;
  }

  /** Business days from today (local) whose cut-off is still ahead, oldest first. */
  subscriptionDates(spec: IndicationSpec, nowMs: number, count = SUBSCRIPTION_DATE_COUNT): string[] {
    return this.datesAfter(spec, addDays(this.localToday(spec, nowMs), -1), nowMs, count);
  }

  /** The first `count` business days strictly after `date` whose cut-off is after `notBeforeMs`. */
  datesAfter(spec: IndicationSpec, date: string, notBeforeMs: number, count: number): string[] {
    const out: string[] = [];
    let d = date;
    for (let i = 0; i < 3660 && out.length < count; i++) {
      d = addDays(d, 1);
      if (this.isBusinessDay(spec, d) && this.cutoffOf(spec, d) > notBeforeMs) out.push(d);
    }
    return out;
  }

  /** Resolves a uid against every indication: today's uid, a rotated (recent past) one, or unknown. */
  lookupUid(uid: string, nowMs: number): UidLookup {
    for (const spec of this.specs) if (this.currentUid(spec, nowMs) === uid) return { kind: 'current', spec };
    for (const spec of this.specs) if (spec.type === 'Fixed' && (this.wasUid(spec, uid, nowMs) || this.wasForcedUid(spec, uid, nowMs))) return { kind: 'rotated', spec };
    return { kind: 'unknown' };
  }

  view(spec: IndicationSpec, nowMs: number): IndicationView {
    return {
      code: spec.code, name: spec.name, type: spec.type, currency: spec.currency,
      uid: this.currentUid(spec, nowMs),
      minimum: spec.minimum, maximum: spec.maximum, enforceMaximum: spec.enforceMaximum,
      subscriptionDates: this.subscriptionDates(spec, nowMs),
      cutoffTime: spec.cutoffTime, timezone: spec.timezone, obligorExposureCode: spec.obligorExposureCode,
      calendars: [...spec.calendars], termMonths: spec.termMonths, yield: Number(spec.yield),
    };
  }
}

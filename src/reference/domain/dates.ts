/**
 * Calendar arithmetic on YYYY-MM-DD strings and time-zone conversion with Intl (no date library).
 */
const DAY_MS = 86_400_000;

export function toEpochDay(date: string): number {
  return Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / DAY_MS;
}

export function fromEpochDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

export function addDays(date: string, days: number): string {
  return fromEpochDay(toEpochDay(date) + days);
}

/** Adds calendar months, clamping to the last day of the target month (Jan 31 + 1 month = Feb 28). */
export function addMonths(date: string, months: number): string {
  const y = Number(date.slice(0, 4));
  const m = Number(date.slice(5, 7)) - 1 + months;
  const d = Number(date.slice(8, 10));
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return new Date(Date.UTC(y, m, Math.min(d, last))).toISOString().slice(0, 10);
}

export function daysBetween(from: string, to: string): number {
  return toEpochDay(to) - toEpochDay(from);
}

/** 0 = Sunday ... 6 = Saturday. */
export function weekday(date: string): number {
  return new Date(toEpochDay(date) * DAY_MS).getUTCDay();
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone: tz, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit',
      hour: '2-digit', minute: '2-digit', second: '2-digit',
    });
    formatters.set(tz, f);
  }
  return f;
}

const QUARTER_HOUR_MS = 15 * 60_000;
const offsets = new Map<string, number>();

/**
 * Offset of `tz` from UTC at instant `ms`, in minutes (positive east of Greenwich). Kept per zone and quarter
 * hour: today's zones change offset only on quarter-hour boundaries, and the reference deals in current dates.
 * Intl's formatToParts is slow, and every indication, holding and cut-off asks for offsets.
 */
export function offsetMinutes(ms: number, tz: string): number {
  const key = `${tz}|${Math.floor(ms / QUARTER_HOUR_MS)}`;
  let off = offsets.get(key);
  if (off === undefined) {
    if (offsets.size >= 10_000) offsets.clear();
    off = computeOffsetMinutes(ms, tz);
    offsets.set(key, off);
  }
  return off;
}

// Stryker disable all: a seam of the in-process mutation runner, not behaviour of the server
/**
 * Empties the two memos above. The in-process mutation runner (src/mutation-code) starts every test with none, so a
 * value computed before a mutant was switched on cannot hide the mutant (the memos live as long as the process).
 */
export function clearDateMemos(): void {
  formatters.clear();
  offsets.clear();
}
// Stryker restore all

function computeOffsetMinutes(ms: number, tz: string): number {
  const parts: Record<string, number> = {};
  for (const p of formatter(tz).formatToParts(new Date(ms))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  const asUtc = Date.UTC(parts.year ?? 0, (parts.month ?? 1) - 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0);
  return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60_000);
}

/** The calendar date at instant `ms` in `tz`. */
export function localDate(ms: number, tz: string): string {
  return new Date(ms + offsetMinutes(ms, tz) * 60_000).toISOString().slice(0, 10);
}

/** The UTC instant of local wall-clock `date` + `time` (HH:MM) in `tz`. */
export function zonedToUtc(date: string, time: string, tz: string): number {
  const wall = toEpochDay(date) * DAY_MS + (Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5))) * 60_000;
  let guess = wall - offsetMinutes(wall, tz) * 60_000;
  guess = wall - offsetMinutes(guess, tz) * 60_000;
  return guess;
}

/** ISO 8601 with the zone's offset, e.g. 2026-03-02T11:00:00+00:00. */
export function isoWithOffset(ms: number, tz: string): string {
  const off = offsetMinutes(ms, tz);
  const local = new Date(ms + off * 60_000).toISOString().slice(0, 19);
  const sign = off < 0 ? '-' : '+';
  const abs = Math.abs(off);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

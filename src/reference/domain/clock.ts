/**
 * The simulated clock: sim now = seeded start instant + real elapsed time + advanced offset. It only moves
 * forward. The start is a Monday morning before every product's cut-off, so a fresh server can subscribe.
 */
export const SIM_START_ISO = '2026-03-02T08:00:00.000Z';

export interface SimClock {
  now(): number;
  /** UTC calendar date of `now()`. */
  today(): string;
  /** Moves forward by `ms` (>= 0). */
  advance(ms: number): void;
  readonly startMs: number;
}

export function createClock(realNow: () => number = Date.now, startIso: string = SIM_START_ISO): SimClock {
  const startMs = Date.parse(startIso);
  const realBase = realNow();
  let offset = 0;
  const now = (): number => startMs + (realNow() - realBase) + offset;
  return {
    startMs,
    now,
    today: () => new Date(now()).toISOString().slice(0, 10),
    advance(ms: number) {
      if (!(ms >= 0)) throw new RangeError('the simulated clock only moves forward');
      offset += ms;
    },
  };
}

/**
 * How much the requests of one race round overlapped, from the harness's own clock (performance.now()).
 * A round says something about a compare-and-set only if every request was on the wire before the first
 * answer came back: then the target had all of them in hand at once. `spreadMs` (first send to last send)
 * against `shortestAnswerMs` (send to response headers, fastest request) is that test; `peakInFlight` is
 * the largest number of requests sent and not yet answered at one instant.
 */
export interface RaceTiming {
  /** When the request's bytes were handed to its (already open) connection. */
  sentAt: number;
  /** When its response headers (or its failure) arrived. */
  answeredAt: number;
}

export interface Overlap {
  requests: number;
  spreadMs: number;
  shortestAnswerMs: number;
  peakInFlight: number;
  /** peakInFlight / requests. */
  inFlightFraction: number;
  /** Every request was sent before any was answered (peakInFlight === requests). */
  conclusive: boolean;
}

export function measureOverlap(timings: readonly RaceTiming[]): Overlap {
  const n = timings.length;
  if (n === 0) return { requests: 0, spreadMs: 0, shortestAnswerMs: 0, peakInFlight: 0, inFlightFraction: 0, conclusive: false };
  const sends = timings.map((t) => t.sentAt);
  const spreadMs = Math.max(...sends) - Math.min(...sends);
  const shortestAnswerMs = Math.min(...timings.map((t) => t.answeredAt - t.sentAt));
  // Sweep: +1 at each send, -1 at each answer; an answer at the very instant of a send counts as first
  // (the request sent at that instant did not overlap the one answered).
  const events = timings.flatMap((t) => [{ at: t.sentAt, d: 1 }, { at: t.answeredAt, d: -1 }]).sort((a, b) => a.at - b.at || a.d - b.d);
  let live = 0;
  let peakInFlight = 0;
  for (const e of events) {
    live += e.d;
    peakInFlight = Math.max(peakInFlight, live);
  }
  return { requests: n, spreadMs, shortestAnswerMs, peakInFlight, inFlightFraction: peakInFlight / n, conclusive: peakInFlight === n };
}

export function describeOverlap(o: Overlap): string {
  return `${o.peakInFlight} of ${o.requests} in flight together; send spread ${o.spreadMs.toFixed(2)} ms, shortest answer ${o.shortestAnswerMs.toFixed(2)} ms`;
}

/**
 * Stalls of the grading process: stretches during which its own event loop did not run (a busy machine). A
 * stall can only make a client look LATE (a poll arriving after its interval, a token arriving after its
 * expiry), never early, so the graders that judge lateness take the stalled time of the interval off before
 * they judge; the graders that judge haste (too many polls, a tight retry loop) ignore stalls. Measured,
 * not guessed: the bound comes from what the process saw, never from how busy a machine may be.
 */
export interface Stall {
  /** Plan clock (ms since the plan started, the clock of ClientExchange.atMs). */
  fromMs: number;
  toMs: number;
}

const TICK_MS = 20;
/** A tick later than this is a stall (timer jitter of an idle machine stays well below). */
const LATE_MS = 40;

/** Watches the event loop from now on; `stalls` grows as they happen; stop() ends the watch. */
export function watchStalls(originMs: number): { stalls: Stall[]; stop(): void } {
  const stalls: Stall[] = [];
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    if (now - last - TICK_MS > LATE_MS) stalls.push({ fromMs: last + TICK_MS - originMs, toMs: now - originMs });
    last = now;
  }, TICK_MS);
  timer.unref();
  return { stalls, stop: () => clearInterval(timer) };
}

/** How many ms of [fromMs, toMs] the grading process was stalled. */
export function stalledWithin(stalls: readonly Stall[], fromMs: number, toMs: number): number {
  let total = 0;
  for (const s of stalls) total += Math.max(0, Math.min(toMs, s.toMs) - Math.max(fromMs, s.fromMs));
  return total;
}

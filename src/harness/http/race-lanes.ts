/**
 * The barrier behind `parallel` with `race`: a race only tests a compare-and-set if the requests reach the
 * target together. One undici Client per lane (one connection each, no pipelining); every lane's warm request
 * runs first, so each connection is open (TCP, TLS) and has been served once. Only then are the race requests
 * dispatched, all in one synchronous loop: undici writes a string body to an idle connected socket before
 * `request()` returns, so the last byte of the last request leaves before any answer can be handled.
 * Requests were built by the caller before this is called. Used by both transports: Playwright's
 * APIRequestContext picks its own connections and queues calls through its protocol channel, so it cannot
 * hold N warm connections and release them together.
 */
import { performance } from 'node:perf_hooks';
import { Client } from './undici-parts.js';
import type { HttpResponse, RaceLane, RaceSettled } from './types.js';
import { sendOver } from './undici-send.js';

export async function raceOverLanes(lanes: readonly RaceLane[]): Promise<RaceSettled[]> {
  const clients = lanes.map((lane) => new Client(new URL(lane.request.url).origin, { pipelining: 1, keepAliveTimeout: 30_000 }));
  try {
    const warm = await Promise.all(lanes.map((lane, i) => settle(sendOver(clients[i] as Client, lane.warm))));
    const answered: number[] = lanes.map(() => Number.NaN);
    const sentAt: number[] = [];
    const pending: Array<Promise<{ response?: HttpResponse; error?: unknown }>> = [];
    // The barrier: nothing awaits between the first dispatch and the last.
    for (let i = 0; i < lanes.length; i++) {
      pending.push(settle(sendOver(clients[i] as Client, (lanes[i] as RaceLane).request, () => (answered[i] = performance.now()))));
      sentAt.push(performance.now());
    }
    const outcomes = await Promise.all(pending.map((p, i) => p.then((o) => {
      if (Number.isNaN(answered[i])) answered[i] = performance.now();
      return o;
    })));
    return outcomes.map((o, i) => ({ warm: warm[i] ?? {}, ...o, sentAt: sentAt[i] as number, answeredAt: answered[i] as number }));
  } finally {
    await Promise.all(clients.map((c) => c.destroy().catch(() => undefined)));
  }
}

async function settle(p: Promise<HttpResponse>): Promise<{ response?: HttpResponse; error?: unknown }> {
  try {
    return { response: await p };
  } catch (error) {
    return { error };
  }
}

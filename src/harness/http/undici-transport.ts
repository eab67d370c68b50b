/**
 * Transport over undici (used outside Playwright: CLI probes, self-tests, benches). One bound covers the
 * whole exchange (an AbortSignal armed for timeoutMs), the body is read chunk by chunk up to maxBodyBytes,
 * and redirects are never followed (a 3xx is returned as is: the auth client reads Location itself).
 */
import type { Dispatcher } from 'undici';
import { Agent } from './undici-parts.js';
import { raceOverLanes } from './race-lanes.js';
import type { Transport } from './types.js';
import { sendOver } from './undici-send.js';

export interface UndiciTransportOptions {
  /** Use this dispatcher instead of a private Agent (not closed by dispose). */
  dispatcher?: Dispatcher;
}

export function createUndiciTransport(options: UndiciTransportOptions = {}): Transport {
  const owned = options.dispatcher ? undefined : new Agent({ keepAliveTimeout: 1_000 });
  const dispatcher = options.dispatcher ?? (owned as Agent);
  return {
    send: (req) => sendOver(dispatcher, req),
    race: (lanes) => raceOverLanes(lanes),
    async dispose() {
      await owned?.close();
    },
  };
}

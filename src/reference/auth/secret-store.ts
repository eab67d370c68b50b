/**
 * In-memory store of opaque bearer secrets (access tokens, refresh tokens, authorisation codes).
 *
 * The raw value is 32 random bytes (node:crypto, base64url) handed out once; only its sha256 is kept, so a
 * heap dump or a debug print of the store never reveals a usable token. Every record carries `expiresAt`
 * (ms on the injected clock); an expired record is treated as absent and dropped.
 */
import { createHash, randomBytes } from 'node:crypto';

export interface Expiring {
  /** Milliseconds on the auth clock; `Infinity` never expires. */
  expiresAt: number;
}

/** Hash used as the map key; exported for the API-key comparison, which hashes the same way. */
export function sha256(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('base64url');
}

export function newOpaqueSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Sweep expired records every this many issues, so memory stays bounded without a timer. */
const SWEEP_EVERY = 256;
/** A record is swept only this long after it expired, so `peekIgnoringExpiry` can still tell "expired". */
const SWEEP_GRACE_MS = 24 * 3600 * 1000;

export class SecretStore<T extends Expiring> {
  readonly #records = new Map<string, T>();
  readonly #now: () => number;
  #issued = 0;

  constructor(now: () => number) {
    this.#now = now;
  }

  /** Stores `record` and returns the raw secret (the only time it exists in clear). */
  issue(record: T): string {
    if (++this.#issued % SWEEP_EVERY === 0) this.#sweep();
    const raw = newOpaqueSecret();
    this.#records.set(sha256(raw), record);
    return raw;
  }

  /** The live record for `raw`, or undefined (unknown or expired). Does not consume it. */
  peek(raw: string): T | undefined {
    const key = sha256(raw);
    const record = this.#records.get(key);
    if (record === undefined) return undefined;
    if (this.#expired(record)) {
      this.#records.delete(key);
      return undefined;
    }
    return record;
  }

  /** Like peek, but the record is removed: single-use secrets (codes, rotated refresh tokens). */
  take(raw: string): T | undefined {
    const record = this.peek(raw);
    if (record !== undefined) this.#records.delete(sha256(raw));
    return record;
  }

  /** The record for `raw` even if expired (lets a caller distinguish "expired" from "unknown"). */
  peekIgnoringExpiry(raw: string): T | undefined {
    return this.#records.get(sha256(raw));
  }

  get size(): number {
    return this.#records.size;
  }

  #expired(record: T): boolean {
    return this.#now() >= record.expiresAt;
  }

  #sweep(): void {
    const cutoff = this.#now() - SWEEP_GRACE_MS;
    for (const [key, record] of this.#records) if (record.expiresAt <= cutoff) this.#records.delete(key);
  }
}

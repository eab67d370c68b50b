/**
 * Cached POST /subscribe responses per (user, Idempotency-Key). Lookup and store happen in one synchronous
 * stretch of the handler (no await in between), so concurrent retries cannot both miss the cache.
 * Entries never expire while the server runs (a sandbox); reset clears them.
 */
export interface CachedResponse {
  status: number;
  body: unknown;
}

export class IdempotencyCache {
  private readonly entries = new Map<string, CachedResponse>();

  private static key(userEmail: string, key: string): string {
    return `${userEmail}\n${key}`;
  }

  get(userEmail: string, key: string): CachedResponse | undefined {
    return this.entries.get(IdempotencyCache.key(userEmail, key));
  }

  set(userEmail: string, key: string, response: CachedResponse): void {
    this.entries.set(IdempotencyCache.key(userEmail, key), response);
  }

  get size(): number {
    return this.entries.size;
  }
}

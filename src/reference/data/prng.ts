/**
 * Small deterministic PRNG and hashes: same seed -> same ids and events. Not for secrets (see secrets.ts).
 */

/** mulberry32: a 32-bit generator; `next()` returns an unsigned 32-bit integer. */
export function mulberry32(seed: number): { next(): number; float(): number } {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
  return { next, float: () => next() / 4294967296 };
}

/** A 32-bit mix of several integers (murmur3 finaliser per word). */
export function hash32(...parts: number[]): number {
  let h = 0x811c9dc5;
  for (const p of parts) {
    let k = Math.imul(p >>> 0, 0xcc9e2d51);
    k = Math.imul((k << 15) | (k >>> 17), 0x1b873593);
    h ^= k;
    h = Math.imul((h << 13) | (h >>> 19), 5) + 0xe6546b64;
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A 32-bit hash of a string (FNV-1a), for deriving ids from codes and dates. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

const hex8 = (n: number): string => (n >>> 0).toString(16).padStart(8, '0');

/** A UUIDv4-shaped string from four 32-bit words. */
export function uuidFromWords(a: number, b: number, c: number, d: number): string {
  const h = hex8(a) + hex8(b) + hex8(c) + hex8(d);
  const variant = ((parseInt(h[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** A UUIDv4-shaped id derived from the given integers (deterministic). */
export function uuidFrom(...parts: number[]): string {
  return uuidFromWords(hash32(...parts, 1), hash32(...parts, 2), hash32(...parts, 3), hash32(...parts, 4));
}

/** Sequential deterministic ids for one seed: the n-th call always returns the same uuid. */
export function idSequence(seed: number, salt: string): () => string {
  const rng = mulberry32(hash32(seed, hashString(salt)));
  return () => uuidFromWords(rng.next(), rng.next(), rng.next(), rng.next());
}

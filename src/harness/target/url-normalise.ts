/**
 * URLs as a target's router sees them, for the production write guard: two spellings the target treats as
 * one resource must compare equal, or a write could slip past a text comparison (`/api/%76%31/subscribe`
 * is `/api/v1/subscribe` to the server). The guard refuses, so where servers differ this errs towards
 * "the same": a refused request costs a failed scenario, a missed one writes to production.
 */

/** RFC 3986 section 2.3: percent-encoding these never changes the resource. */
const UNRESERVED = /[A-Za-z0-9\-._~]/;

export interface NormalisedUrl {
  /** scheme://host[:port] with scheme and host in lower case and the scheme's default port dropped. */
  origin: string;
  /** Decoded unreserved characters, no dot segments, no repeated or trailing slashes ('' for the root). */
  path: string;
}

/** undefined when the text is not an absolute URL. */
export function normaliseUrl(text: string): NormalisedUrl | undefined {
  let first: URL;
  try {
    // WHATWG parsing already lower-cases scheme and host, drops default ports, turns `\` into `/` and resolves
    // `.`/`..` segments, including their %2e spellings.
    first = new URL(text);
  } catch {
    return undefined;
  }
  // An encoded slash is routed as a slash by many servers (and by proxies that decode before forwarding).
  const decoded = first.pathname.replace(/%([0-9A-Fa-f]{2})/g, (whole, hex: string) => {
    const c = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(c) || c === '/' ? c : whole.toUpperCase();
  });
  // Decoding can reveal dot segments (`%2e` was resolved above, `.%2E` behind an encoded slash was not).
  const second = new URL(decoded.replace(/\/{2,}/g, '/'), first.origin);
  const path = second.pathname.replace(/\/{2,}/g, '/').replace(/\/+$/, '');
  return { origin: second.origin, path };
}

/** True when `url` is `base` or below it (a path segment boundary, never a look-alike prefix). */
export function isUnder(url: NormalisedUrl, base: NormalisedUrl): boolean {
  return url.origin === base.origin && (url.path === base.path || url.path.startsWith(`${base.path}/`));
}

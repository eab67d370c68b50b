/**
 * Content-Encoding decoding with a bound on the decoded size (zlib's maxOutputLength): a gzip bomb costs at
 * most the bound, never the gigabytes it inflates to. Used by the Playwright transport, whose own decoding is
 * unbounded (playwright-body-bound.ts hands it the encoded bytes). Unknown encodings are left as they are.
 */
import { brotliDecompressSync, gunzipSync, inflateSync, constants } from 'node:zlib';

export type Decoded = { ok: true; body: Buffer } | { ok: false; tooLarge: boolean; reason: string };

export function decodeBounded(body: Buffer, encoding: string | undefined, maxBytes: number): Decoded {
  let out = body;
  // Several codings apply in the order listed; decode from the last.
  for (const coding of (encoding ?? '').split(',').map((c) => c.trim().toLowerCase()).filter(Boolean).reverse()) {
    const options = { maxOutputLength: maxBytes + 1, finishFlush: constants.Z_SYNC_FLUSH };
    try {
      if (coding === 'gzip' || coding === 'x-gzip') out = gunzipSync(out, options);
      else if (coding === 'deflate') out = inflateSync(out, options);
      else if (coding === 'br') out = brotliDecompressSync(out, { maxOutputLength: maxBytes + 1 });
      else if (coding !== 'identity') return { ok: true, body: out };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || e instanceof RangeError) return { ok: false, tooLarge: true, reason: `response body decoded (${coding}) exceeds the ${maxBytes}-byte limit` };
      return { ok: false, tooLarge: false, reason: `response body could not be decoded (${coding}): ${(e as Error).message}` };
    }
    if (out.length > maxBytes) return { ok: false, tooLarge: true, reason: `response body decoded (${coding}) exceeds the ${maxBytes}-byte limit` };
  }
  return { ok: true, body: out };
}

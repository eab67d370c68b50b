/** Shared response-body handling of the transports: JSON detection and parsing, header normalisation. */

/**
 * Deepest JSON nesting the harness parses. Real API bodies nest a handful of levels; a target that nests
 * deeper would otherwise drive every recursive walk over the value (checks, expressions, report writers,
 * JSON.stringify) into a stack overflow. RFC 8259 §9 lets a parser set this limit.
 */
export const MAX_JSON_DEPTH = 512;

/** True when `text` nests arrays/objects deeper than `max` (a scan, no recursion; strings are skipped). */
export function jsonDeeperThan(text: string, max: number = MAX_JSON_DEPTH): boolean {
  if (text.length <= max) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
}

/** JSON when the content type says so or the body starts like JSON; otherwise `json: undefined` + jsonError. */
export function parseBody(text: string, contentType: string | undefined): { json: unknown; jsonError?: string } {
  const trimmed = text.trimStart();
  if (trimmed === '') return { json: undefined };
  const looksJson = /[/+]json\b/i.test(contentType ?? '') || trimmed.startsWith('{') || trimmed.startsWith('[');
  if (!looksJson) return { json: undefined, jsonError: `body is not JSON (content-type: ${contentType ?? 'none'})` };
  if (jsonDeeperThan(text)) return { json: undefined, jsonError: `JSON nested deeper than ${MAX_JSON_DEPTH} levels: not parsed (the harness's nesting limit)` };
  try {
    return { json: JSON.parse(text) as unknown };
  } catch (err) {
    return { json: undefined, jsonError: `invalid JSON: ${(err as Error).message}` };
  }
}

/** Lower-cased header names; repeated headers joined with ", " (set-cookie with "\n", it may contain commas). */
export function normaliseHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    const key = name.toLowerCase();
    out[key] = Array.isArray(value) ? value.join(key === 'set-cookie' ? '\n' : ', ') : value;
  }
  return out;
}

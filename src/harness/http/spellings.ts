/**
 * Every spelling of a secret a report can hold, in ONE place: the redactor searches for them (needles.ts)
 * and the workers announce their digests to the reporters and the leak scan (report/redaction/secret-digests.ts).
 *
 * - raw, URL-encoded (encodeURIComponent), form-encoded, JSON-escaped (also with `\/`, as PHP writes it);
 * - base64 and base64url of the UTF-8 bytes, whole (with padding) and at each of the three byte alignments
 *   inside a longer base64 string: the characters that depend on the secret's bytes only (alignmentCores);
 * - hex, lower and upper case;
 * - HTML entities (htmlSpellings): special characters by name, every character decimal, every character hex.
 *   Mixed spellings (some characters escaped, some not; %XX and \uXXXX mixed in) are found by the redactor
 *   in a decoded view of the text (escapes.ts), not by listing them.
 */

/** Below this a value is not registered: replacing e.g. "abc" everywhere would mangle reports. */
export const MIN_SPELLING_LENGTH = 6;

/** The text spellings (what the redactor's needles are; HTML forms are found through the decoded view). */
export function textSpellings(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const json = JSON.stringify(value).slice(1, -1);
  const forms = [
    value,
    encodeURIComponent(value),
    new URLSearchParams({ v: value }).toString().slice(2),
    json,
    json.replaceAll('/', '\\/'),
    bytes.toString('base64'),
    bytes.toString('base64url'),
    ...alignmentCores(bytes),
    bytes.toString('hex'),
    bytes.toString('hex').toUpperCase(),
  ];
  return [...new Set(forms)].filter((f) => f.length >= MIN_SPELLING_LENGTH);
}

/** Every spelling: the text spellings plus the HTML entity forms (the digest side has no decoded view). */
export function spellingsOf(value: string): string[] {
  return [...new Set([...textSpellings(value), ...htmlSpellings(value)])].filter((f) => f.length >= MIN_SPELLING_LENGTH);
}

/**
 * base64 and base64url of the bytes as they appear inside a longer base64 string, for each byte offset
 * k = 0, 1, 2 of the secret modulo 3: only the characters whose six bits all come from the secret (the first
 * and last characters of an embedded secret mix in its neighbours' bits and are left out).
 */
export function alignmentCores(bytes: Buffer): string[] {
  const out: string[] = [];
  const bits = bytes.length * 8;
  for (let k = 0; k < 3; k++) {
    const padded = Buffer.concat([Buffer.alloc(k), bytes]);
    const start = Math.ceil((8 * k) / 6);
    const end = Math.floor((8 * k + bits) / 6);
    if (end - start < MIN_SPELLING_LENGTH) continue;
    const b64 = padded.toString('base64');
    out.push(b64.slice(start, end), padded.toString('base64url').slice(start, end));
  }
  return out;
}

const NAMED: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** HTML forms: special characters by name (as template engines escape), every character decimal, every character hex. */
export function htmlSpellings(value: string): string[] {
  const chars = [...value];
  const named = chars.map((c) => NAMED[c] ?? c).join('');
  const decimal = chars.map((c) => `&#${c.codePointAt(0)};`).join('');
  const hex = chars.map((c) => `&#x${(c.codePointAt(0) as number).toString(16)};`).join('');
  return [...new Set([named, decimal, hex])];
}

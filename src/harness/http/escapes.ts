/**
 * The decoded view of a text: HTML character references (named, decimal, hex), %XX escapes of ASCII
 * characters and JSON escapes (\uXXXX, \/, \\, \") replaced by the characters they stand for, in one pass,
 * with a map back to the original positions. The redactor searches its needles in this view too, so a
 * secret spelled with any mix of escaped and plain characters (`&#55;|ab&#x63;…`, `7%7Cab…`) is found and
 * the original range redacted. One level: an escape inside an escape (`&amp;#55;`) decodes once.
 */

/** ASCII characters by HTML name (those a token or a secret may contain, and the usual five). */
const NAMED: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", sol: '/', plus: '+', equals: '=', verbar: '|', vert: '|',
  lowbar: '_', UnderBar: '_', period: '.', percnt: '%', colon: ':', excl: '!', num: '#', dollar: '$', ast: '*',
  midast: '*', lpar: '(', rpar: ')', comma: ',', semi: ';', quest: '?', commat: '@', lsqb: '[', lbrack: '[',
  rsqb: ']', rbrack: ']', bsol: '\\', Hat: '^', grave: '`', lcub: '{', lbrace: '{', rcub: '}', rbrace: '}',
  tilde: '\u02dc', nbsp: '\u00a0', dash: '\u2010', hyphen: '\u2010', Tab: '\t', NewLine: '\n',
};

export interface DecodedView {
  text: string;
  /** For each character of `text`: where its spelling starts and ends in the original. */
  from: Int32Array;
  to: Int32Array;
}

/** Does the text hold an escape at all? (Most report text does not: no view is built.) */
const ANY_ESCAPE = /&(?:#|[A-Za-z]{2,8};)|%[0-7][0-9a-fA-F]|\\[u/\\"]/;

export function mayHoldEscapes(text: string): boolean {
  // Most report text holds none of the three characters an escape starts with: three native scans say so.
  if (text.indexOf('&') < 0 && text.indexOf('%') < 0 && text.indexOf('\\') < 0) return false;
  return ANY_ESCAPE.test(text);
}

/**
 * The decoded view, or undefined when nothing in the text decodes. Typed arrays sized by the text (a decoded view is
 * never longer: every escape stands for at most as many UTF-16 units as it has characters) and plain runs copied
 * between escape starts: the leak scan decodes whole report files, and the array-of-numbers version took 6 s of
 * CPU on one 7 MB JSON report (cpu profile of a one-scenario `run`).
 */
export function decodedView(text: string): DecodedView | undefined {
  if (!mayHoldEscapes(text)) return undefined;
  const n = text.length;
  const out = new Uint16Array(n);
  const from = new Int32Array(n);
  const to = new Int32Array(n);
  // Where the next '&', '%' and '\\' stand at or after i (n: none), each searched again only once passed.
  const starts = ['&', '%', '\\'] as const;
  const next = new Int32Array(3).fill(-1);
  const nextStart = (i: number): number => {
    let min = n;
    for (let k = 0; k < 3; k++) {
      if ((next[k] as number) < i) {
        const at = text.indexOf(starts[k] as string, i);
        next[k] = at < 0 ? n : at;
      }
      min = Math.min(min, next[k] as number);
    }
    return min;
  };
  let o = 0;
  let i = 0;
  let changed = false;
  const put = (unit: number, start: number, end: number): void => {
    out[o] = unit;
    from[o] = start;
    to[o] = end;
    o++;
  };
  while (i < n) {
    const stop = nextStart(i);
    for (; i < stop; i++) put(text.charCodeAt(i), i, i + 1);
    if (i >= n) break;
    const c = text.charCodeAt(i);
    const escaped = c === 0x26 ? entityAt(text, i) : c === 0x25 ? percentAt(text, i) : jsonEscapeAt(text, i);
    if (!escaped) {
      put(c, i, i + 1);
      i++;
      continue;
    }
    const end = i + escaped.length;
    if (escaped.codePoint > 0xffff) {
      const v = escaped.codePoint - 0x10000;
      put(0xd800 + (v >> 10), i, end);
      put(0xdc00 + (v & 0x3ff), i, end);
    } else {
      put(escaped.codePoint, i, end);
    }
    i = end;
    changed = true;
  }
  if (!changed) return undefined;
  let decoded = '';
  for (let k = 0; k < o; k += 8192) decoded += String.fromCharCode(...out.subarray(k, Math.min(o, k + 8192)));
  return { text: decoded, from: from.slice(0, o), to: to.slice(0, o) };
}

interface Escape {
  codePoint: number;
  length: number;
}

const ENTITY = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z]{2,8}));?/y;

/** The code point of a reference ENTITY matched (`whole`, its groups), or undefined when it is not one. */
function entityCodePoint(whole: string, dec: string | undefined, hex: string | undefined, name: string | undefined): number | undefined {
  if (name !== undefined) {
    // A named reference needs its semicolon (`&amp` alone is prose in a URL's query).
    const ch = NAMED[name];
    return ch === undefined || !whole.endsWith(';') ? undefined : (ch.codePointAt(0) as number);
  }
  const cp = dec !== undefined ? Number(dec) : parseInt(hex as string, 16);
  return cp > 0 && cp <= 0x10ffff ? cp : undefined;
}

function entityAt(text: string, i: number): Escape | undefined {
  ENTITY.lastIndex = i;
  const m = ENTITY.exec(text);
  if (!m) return undefined;
  const cp = entityCodePoint(m[0], m[1], m[2], m[3]);
  return cp === undefined ? undefined : { codePoint: cp, length: m[0].length };
}

function percentAt(text: string, i: number): Escape | undefined {
  const hex = text.slice(i + 1, i + 3);
  if (!/^[0-7][0-9a-fA-F]$/.test(hex)) return undefined;
  return { codePoint: parseInt(hex, 16), length: 3 };
}

function jsonEscapeAt(text: string, i: number): Escape | undefined {
  const next = text[i + 1];
  if (next === '/' || next === '\\' || next === '"') return { codePoint: next.charCodeAt(0), length: 2 };
  if (next !== 'u') return undefined;
  const hex = text.slice(i + 2, i + 6);
  if (!/^[0-9a-fA-F]{4}$/.test(hex)) return undefined;
  return { codePoint: parseInt(hex, 16), length: 6 };
}

/** Every escape decodedView decodes (ENTITY, then %XX, then the JSON escapes), in one native pattern: for decodedText. */
const ESCAPES = new RegExp(`${ENTITY.source}|%([0-7][0-9a-fA-F])|\\\\(?:u([0-9a-fA-F]{4})|([/\\\\"]))`, 'g');

/**
 * decodedView's text alone (undefined when nothing decodes), for a search that needs no map back: the leak scan.
 * One native replace instead of the view's arrays. Saves ~0.1 s of a one-scenario run's serial tail: the cold view of
 * its 0.5 MB Playwright HTML report took 157 ms, this 22 ms (the tests check both give the same text).
 */
export function decodedText(text: string): string | undefined {
  if (!mayHoldEscapes(text)) return undefined;
  let changed = false;
  const out = text.replace(ESCAPES, (whole: string, dec?: string, hex?: string, name?: string, pct?: string, u?: string, json?: string) => {
    const cp = whole.startsWith('&') ? entityCodePoint(whole, dec, hex, name) : json !== undefined ? json.charCodeAt(0) : parseInt((pct ?? u) as string, 16);
    if (cp === undefined) return whole;
    changed = true;
    return String.fromCodePoint(cp);
  });
  return changed ? out : undefined;
}

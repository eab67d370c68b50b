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

/** The decoded view, or undefined when nothing in the text decodes. */
export function decodedView(text: string): DecodedView | undefined {
  if (!mayHoldEscapes(text)) return undefined;
  const out: number[] = [];
  const from: number[] = [];
  const to: number[] = [];
  let changed = false;
  let i = 0;
  const emit = (codePoint: number, start: number, end: number): void => {
    const s = String.fromCodePoint(codePoint);
    for (let k = 0; k < s.length; k++) {
      out.push(s.charCodeAt(k));
      from.push(start);
      to.push(end);
    }
  };
  while (i < text.length) {
    const c = text.charCodeAt(i);
    const escaped = c === 0x26 ? entityAt(text, i) : c === 0x25 ? percentAt(text, i) : c === 0x5c ? jsonEscapeAt(text, i) : undefined;
    if (escaped) {
      emit(escaped.codePoint, i, i + escaped.length);
      i += escaped.length;
      changed = true;
      continue;
    }
    out.push(c);
    from.push(i);
    to.push(i + 1);
    i++;
  }
  if (!changed) return undefined;
  let decoded = '';
  for (let k = 0; k < out.length; k += 8192) decoded += String.fromCharCode(...out.slice(k, k + 8192));
  return { text: decoded, from: Int32Array.from(from), to: Int32Array.from(to) };
}

interface Escape {
  codePoint: number;
  length: number;
}

const ENTITY = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z]{2,8}));?/y;

function entityAt(text: string, i: number): Escape | undefined {
  ENTITY.lastIndex = i;
  const m = ENTITY.exec(text);
  if (!m) return undefined;
  if (m[3] !== undefined) {
    // A named reference needs its semicolon (`&amp` alone is prose in a URL's query).
    const ch = NAMED[m[3]];
    if (ch === undefined || !m[0].endsWith(';')) return undefined;
    return { codePoint: ch.codePointAt(0) as number, length: m[0].length };
  }
  const cp = m[1] !== undefined ? Number(m[1]) : parseInt(m[2] as string, 16);
  if (!(cp > 0 && cp <= 0x10ffff)) return undefined;
  return { codePoint: cp, length: m[0].length };
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

/**
 * Tokenizer of the scenario expression language. Positions are 0-based offsets into the expression text so
 * errors can point at the character at fault.
 */
import { ExpressionError } from './errors.js';

export type TokenType = 'number' | 'string' | 'ident' | 'op' | 'eof';

export interface Token {
  type: TokenType;
  value: string;
  pos: number;
}

// Longest first so that `<=` wins over `<`.
const OPERATORS = ['==', '!=', '<=', '>=', '&&', '||', '<', '>', '+', '-', '*', '/', '%', '!', '(', ')', '[', ']', '.', ',', '?', ':'];

const isDigit = (c: string): boolean => c >= '0' && c <= '9';
const isIdentStart = (c: string): boolean => /[A-Za-z_]/.test(c);
const isIdentPart = (c: string): boolean => /[A-Za-z0-9_]/.test(c);

export function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i] as string;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    if (isDigit(c)) {
      const start = i;
      while (i < src.length && isDigit(src[i] as string)) i++;
      if (src[i] === '.' && isDigit(src[i + 1] ?? '')) {
        i++;
        while (i < src.length && isDigit(src[i] as string)) i++;
      }
      tokens.push({ type: 'number', value: src.slice(start, i), pos: start });
      continue;
    }
    if (isIdentStart(c)) {
      const start = i;
      while (i < src.length && isIdentPart(src[i] as string)) i++;
      tokens.push({ type: 'ident', value: src.slice(start, i), pos: start });
      continue;
    }
    if (c === "'" || c === '"') {
      const start = i;
      let value = '';
      i++;
      for (;;) {
        if (i >= src.length) throw new ExpressionError(src, start, 'unterminated string literal');
        const ch = src[i] as string;
        if (ch === '\\') {
          const next = src[i + 1];
          if (next === undefined) throw new ExpressionError(src, i, 'dangling backslash');
          value += next === 'n' ? '\n' : next === 't' ? '\t' : next;
          i += 2;
          continue;
        }
        if (ch === c) {
          i++;
          break;
        }
        value += ch;
        i++;
      }
      tokens.push({ type: 'string', value, pos: start });
      continue;
    }
    const op = OPERATORS.find((o) => src.startsWith(o, i));
    if (!op) throw new ExpressionError(src, i, `unexpected character '${c}'`);
    tokens.push({ type: 'op', value: op, pos: i });
    i += op.length;
  }
  tokens.push({ type: 'eof', value: '', pos: src.length });
  return tokens;
}

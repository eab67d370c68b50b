/**
 * The value model of expressions: JSON values plus Decimal. Numbers written in expressions and the results
 * of arithmetic are Decimals (exact); numbers coming from JSON bodies stay JS numbers and are converted to
 * Decimal at the moment they meet arithmetic or a comparison.
 */
import { Decimal } from 'decimal.js';
import { FtfError } from '../../shared/errors.js';

/**
 * Depth limit of the recursive walks over values. Response bodies are cut at parse time (http/body.ts,
 * 512 levels); this catches any other deep value with a typed error instead of a RangeError.
 */
export const MAX_VALUE_DEPTH = 1000;

export function valueTooDeep(what: string): FtfError {
  return new FtfError('FTF_E_VALUE_TOO_DEEP', `${what}: value nested deeper than ${MAX_VALUE_DEPTH} levels`, {
    hint: 'the target sent (or the scenario built) a value nested too deeply to compare or print',
  });
}

export const D = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_HALF_EVEN, toExpNeg: -30, toExpPos: 40 });
export type Dec = InstanceType<typeof D>;

export const isDecimal = (v: unknown): v is Dec => v instanceof D || Decimal.isDecimal(v);
export const isNumeric = (v: unknown): v is number | Dec => (typeof v === 'number' && Number.isFinite(v)) || isDecimal(v);

export function toDecimal(v: unknown): Dec | undefined {
  if (isDecimal(v)) return new D(v.toString());
  if (typeof v === 'number' && Number.isFinite(v)) return new D(v);
  if (typeof v === 'string' && /^\s*[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*$/.test(v)) return new D(v.trim());
  return undefined;
}

export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !isDecimal(v);

/** Structural equality; numbers compare by value whether they are JS numbers or Decimals. */
export function deepEqual(a: unknown, b: unknown, depth = 0): boolean {
  if (isNumeric(a) && isNumeric(b)) return (toDecimal(a) as Dec).eq(toDecimal(b) as Dec);
  if (depth > MAX_VALUE_DEPTH) throw valueTooDeep('comparison');
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i], depth + 1));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k], depth + 1));
  }
  return (a ?? null) === (b ?? null);
}

/** Truthiness for `&&`, `||`, `!` and `?:`: like JSON-minded JS, zero decimals are false. */
export function truthy(v: unknown): boolean {
  if (isDecimal(v)) return !v.isZero();
  if (Array.isArray(v)) return true;
  return Boolean(v);
}

/** Text form used by interpolation and str(): decimals without exponent, objects as JSON. */
export function toText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (isDecimal(v)) return v.toFixed();
  if (v === null || v === undefined) return String(v);
  if (typeof v === 'object') return JSON.stringify(toPlainJson(v));
  return String(v);
}

/** Replace Decimals by their exact decimal string, producing a value JSON.stringify handles losslessly. */
export function toPlainJson(v: unknown, depth = 0): unknown {
  if (isDecimal(v)) return v.toFixed();
  if (depth > MAX_VALUE_DEPTH && typeof v === 'object' && v !== null) throw valueTooDeep('conversion to JSON');
  if (Array.isArray(v)) return v.map((x) => toPlainJson(x, depth + 1));
  if (isPlainObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toPlainJson(x, depth + 1)]));
  return v;
}

export function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (v === undefined) return 'undefined';
  if (isDecimal(v)) return 'number';
  if (Array.isArray(v)) return 'list';
  return typeof v === 'object' ? 'object' : typeof v;
}

/** Short readable rendering for messages. */
export function preview(v: unknown, max = 120): string {
  let s: string;
  try {
    s = v === undefined ? 'undefined' : typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(toPlainJson(v));
  } catch {
    s = String(v);
  }
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

/** RFC 6901 JSON pointer lookup; undefined when the path does not exist. */
export function getPointer(root: unknown, pointer: string): unknown {
  if (pointer === '' || pointer === '/') return pointer === '' ? root : (root as Record<string, unknown>)?.[''];
  if (!pointer.startsWith('/')) return undefined;
  let cur: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(cur)) {
      if (!/^(0|[1-9]\d*)$/.test(key)) return undefined;
      cur = cur[Number(key)];
    } else if (isPlainObject(cur) && Object.hasOwn(cur, key)) {
      cur = cur[key];
    } else {
      return undefined;
    }
  }
  return cur;
}

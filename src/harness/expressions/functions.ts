/**
 * The functions an expression may call. A closed table: nothing here reaches process, env, files or the
 * network. Each function validates its arguments and throws a plain Error; the evaluator adds the position.
 */
import { v4 as uuidv4 } from 'uuid';
import { D, deepEqual, getPointer, isNumeric, isPlainObject, toDecimal, toText, typeName, type Dec } from './values.js';

export type ExprFunction = (args: unknown[]) => unknown;

function arity(name: string, args: unknown[], min: number, max = min): void {
  if (args.length < min || args.length > max) {
    const want = min === max ? `${min}` : `${min}..${max}`;
    throw new Error(`${name}() takes ${want} argument(s), got ${args.length}`);
  }
}

function decimalArg(name: string, v: unknown): Dec {
  const d = toDecimal(v);
  if (!d) throw new Error(`${name}() needs a number or decimal string, got ${typeName(v)}`);
  return d;
}

function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

function addDays(base: string, days: Dec): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(base)) throw new Error(`date() needs a YYYY-MM-DD base date, got ${JSON.stringify(base)}`);
  if (!days.isInteger()) throw new Error('date() needs a whole number of days');
  const d = new Date(`${base}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days.toNumber());
  return isoDate(d);
}

/** An ISO 8601 date-time with a zone (Z or ±HH:MM), as a `cutoffDatetime` carries it. */
const ZONED_DATE_TIME = /^(\d{4}-\d{2}-\d{2})(T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2}))$/i;

function zoned(name: string, v: unknown): RegExpExecArray {
  const m = typeof v === 'string' ? ZONED_DATE_TIME.exec(v) : null;
  if (!m || Number.isNaN(Date.parse(v as string))) throw new Error(`${name}() needs a date-time with a zone (Z or ±HH:MM), got ${JSON.stringify(v)}`);
  return m;
}

function extreme(name: string, args: unknown[], pick: (cmp: number) => boolean): unknown {
  const list = args.length === 1 && Array.isArray(args[0]) ? args[0] : args;
  if (list.length === 0) throw new Error(`${name}() of an empty list`);
  let best: unknown = list[0];
  for (const v of list.slice(1)) {
    const cmp = isNumeric(v) && isNumeric(best) ? (toDecimal(v) as Dec).cmp(toDecimal(best) as Dec) : typeof v === 'string' && typeof best === 'string' ? v.localeCompare(best) : NaN;
    if (Number.isNaN(cmp)) throw new Error(`${name}() compares numbers with numbers or strings with strings`);
    if (pick(cmp)) best = v;
  }
  return isNumeric(best) ? toDecimal(best) : best;
}

const MAX_REPEAT_CHARS = 16 * 1024 * 1024;

export const FUNCTIONS: Readonly<Record<string, ExprFunction>> = Object.freeze({
  uuid: (a) => (arity('uuid', a, 0), uuidv4()),
  now: (a) => (arity('now', a, 0), new Date().toISOString()),
  today: (a) => (arity('today', a, 0), isoDate(new Date())),
  /** date(n): today + n days; date('YYYY-MM-DD', n): that date + n days. */
  date: (a) => {
    arity('date', a, 1, 2);
    return a.length === 1 ? addDays(isoDate(new Date()), decimalArg('date', a[0])) : addDays(String(a[0]), decimalArg('date', a[1]));
  },
  /** instant(dt): the epoch milliseconds of a date-time with a zone, so instants in different offsets compare. */
  instant: (a) => (arity('instant', a, 1), new D(Date.parse(zoned('instant', a[0]).input))),
  /** utc(ms): epoch milliseconds as `YYYY-MM-DDTHH:MM:SS.sssZ` (e.g. a clock `to:`). */
  utc: (a) => {
    arity('utc', a, 1);
    const ms = decimalArg('utc', a[0]);
    if (!ms.isInteger() || ms.abs().greaterThan(8.64e15)) throw new Error('utc() needs whole epoch milliseconds');
    return new Date(ms.toNumber()).toISOString();
  },
  /** on_date(dt, 'YYYY-MM-DD'): the same wall-clock time and offset as dt, on another date. */
  on_date: (a) => {
    arity('on_date', a, 2);
    const m = zoned('on_date', a[0]);
    if (typeof a[1] !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(a[1])) throw new Error(`on_date() needs a YYYY-MM-DD date, got ${JSON.stringify(a[1])}`);
    return `${a[1]}${m[2] ?? ''}`;
  },
  dec: (a) => (arity('dec', a, 1), decimalArg('dec', a[0])),
  num: (a) => {
    arity('num', a, 1);
    const n = decimalArg('num', a[0]).toNumber();
    if (!Number.isFinite(n)) throw new Error('num() result is not a finite number');
    return n;
  },
  str: (a) => (arity('str', a, 1), toText(a[0])),
  /** base64(s): standard base64 of the UTF-8 text (a hand-made HTTP Basic header with a wrong secret or client id). */
  base64: (a) => (arity('base64', a, 1), Buffer.from(toText(a[0]), 'utf8').toString('base64')),
  len: (a) => {
    arity('len', a, 1);
    const v = a[0];
    if (typeof v === 'string' || Array.isArray(v)) return new D(v.length);
    if (isPlainObject(v)) return new D(Object.keys(v).length);
    throw new Error(`len() needs a string, list or object, got ${typeName(v)}`);
  },
  min: (a) => extreme('min', a, (c) => c < 0),
  max: (a) => extreme('max', a, (c) => c > 0),
  contains: (a) => {
    arity('contains', a, 2);
    const [hay, needle] = a;
    if (typeof hay === 'string') return hay.includes(toText(needle));
    if (Array.isArray(hay)) return hay.some((x) => deepEqual(x, needle));
    if (isPlainObject(hay)) return Object.hasOwn(hay, toText(needle));
    throw new Error(`contains() needs a string, list or object, got ${typeName(hay)}`);
  },
  /** unique(list): the list without duplicates (first occurrence kept). */
  unique: (a) => {
    arity('unique', a, 1);
    if (!Array.isArray(a[0])) throw new Error(`unique() needs a list, got ${typeName(a[0])}`);
    const out: unknown[] = [];
    for (const v of a[0]) if (!out.some((x) => deepEqual(x, v))) out.push(v);
    return out;
  },
  pointer: (a) => (arity('pointer', a, 2), getPointer(a[0], String(a[1])) ?? null),
  /** pluck(list, '/ptr'): the pointer applied to every element. */
  pluck: (a) => {
    arity('pluck', a, 2);
    if (!Array.isArray(a[0])) throw new Error(`pluck() needs a list, got ${typeName(a[0])}`);
    return a[0].map((x) => getPointer(x, String(a[1])) ?? null);
  },
  /** select(list, '/ptr', value): the elements whose pointer value equals value. */
  select: (a) => {
    arity('select', a, 3);
    if (!Array.isArray(a[0])) throw new Error(`select() needs a list, got ${typeName(a[0])}`);
    return a[0].filter((x) => deepEqual(getPointer(x, String(a[1])) ?? null, a[2]));
  },
  /** slice(list, start, end?): elements start..end-1 (negative counts from the end), e.g. the events after index k. */
  slice: (a) => {
    arity('slice', a, 2, 3);
    if (!Array.isArray(a[0])) throw new Error(`slice() needs a list, got ${typeName(a[0])}`);
    const idx = a.slice(1).map((v) => decimalArg('slice', v));
    if (idx.some((d) => !d.isInteger())) throw new Error('slice() needs whole-number indexes');
    return a[0].slice(...idx.map((d) => d.toNumber()));
  },
  /** containing(list, value): the elements in which value occurs anywhere (deep, e.g. a uid inside an event). */
  containing: (a) => {
    arity('containing', a, 2);
    if (!Array.isArray(a[0])) throw new Error(`containing() needs a list, got ${typeName(a[0])}`);
    const occurs = (hay: unknown): boolean =>
      deepEqual(hay, a[1]) || (Array.isArray(hay) ? hay.some(occurs) : isPlainObject(hay) && Object.values(hay).some(occurs));
    return a[0].filter(occurs);
  },
  keys: (a) => {
    arity('keys', a, 1);
    if (!isPlainObject(a[0])) throw new Error(`keys() needs an object, got ${typeName(a[0])}`);
    return Object.keys(a[0]);
  },
  /** fill_path('/cell/{code}', 'code', x, …): a profile path template with each {name} replaced by its URL-encoded value. */
  fill_path: (a) => {
    if (a.length < 1 || a.length % 2 === 0) throw new Error(`fill_path() takes a template and name/value pairs, got ${a.length} argument(s)`);
    const values = new Map<string, string>();
    for (let i = 1; i < a.length; i += 2) values.set(toText(a[i]), toText(a[i + 1]));
    return toText(a[0]).replace(/\{([^{}/]+)\}/g, (_m, name: string) => {
      const v = values.get(name);
      if (v === undefined) throw new Error(`fill_path(): no value for {${name}} in ${JSON.stringify(toText(a[0]))}`);
      return encodeURIComponent(v);
    });
  },
  /** object('k1', v1, 'k2', v2, …): a map, for bodies whose field names come from the profile (target.fields). */
  object: (a) => {
    if (a.length % 2 !== 0) throw new Error(`object() takes name/value pairs, got ${a.length} argument(s)`);
    const out: Record<string, unknown> = {};
    for (let i = 0; i < a.length; i += 2) out[toText(a[i])] = a[i + 1];
    return out;
  },
  /** flatten(list of lists): one level of nesting removed (e.g. the holdings of several entities). */
  flatten: (a) => {
    arity('flatten', a, 1);
    if (!Array.isArray(a[0])) throw new Error(`flatten() needs a list, got ${typeName(a[0])}`);
    return a[0].flatMap((x) => (Array.isArray(x) ? x : [x]));
  },
  /** repeat(s, n): s repeated n times (bounded: oversized request bodies and names for robustness checks). */
  repeat: (a) => {
    arity('repeat', a, 2);
    const s = toText(a[0]);
    const n = decimalArg('repeat', a[1]);
    if (!n.isInteger() || n.isNegative() || n.mul(s.length).gt(MAX_REPEAT_CHARS)) throw new Error(`repeat() needs a whole count ≥ 0 and a result of at most ${MAX_REPEAT_CHARS} characters`);
    return s.repeat(n.toNumber());
  },
  starts_with: (a) => (arity('starts_with', a, 2), typeof a[0] === 'string' && a[0].startsWith(toText(a[1]))),
  type_of: (a) => (arity('type_of', a, 1), typeName(a[0])),
  is_decimal: (a) => (arity('is_decimal', a, 1), typeof a[0] === 'string' && /^-?\d+(\.\d+)?$/.test(a[0])),
  abs: (a) => (arity('abs', a, 1), decimalArg('abs', a[0]).abs()),
  round: (a) => {
    arity('round', a, 1, 2);
    const places = a.length === 2 ? decimalArg('round', a[1]).toNumber() : 0;
    return decimalArg('round', a[0]).toDecimalPlaces(places, D.ROUND_HALF_EVEN);
  },
});

export const FUNCTION_NAMES: ReadonlySet<string> = new Set(Object.keys(FUNCTIONS));

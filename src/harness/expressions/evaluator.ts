/**
 * Evaluates a parsed expression against a variable scope. Property access is limited to own properties of
 * plain objects and list indexes: no prototype walk, no methods, no globals. Variables are the only inputs.
 */
import { ExpressionError } from './errors.js';
import { FUNCTIONS } from './functions.js';
import type { Node } from './parser.js';
import { D, deepEqual, isNumeric, isPlainObject, preview, toDecimal, toText, truthy, typeName, type Dec } from './values.js';

export type Scope = Readonly<Record<string, unknown>>;

const FORBIDDEN_KEYS = new Set(['__proto__', 'prototype', 'constructor']);

export function evaluateNode(node: Node, scope: Scope, src: string): unknown {
  const fail = (pos: number, message: string, hint?: string): never => {
    throw new ExpressionError(src, pos, message, hint);
  };
  const ev = (n: Node): unknown => {
    switch (n.kind) {
      case 'literal':
        return n.value;
      case 'number':
        return new D(n.text);
      case 'list':
        return n.items.map(ev);
      case 'var':
        if (!Object.hasOwn(scope, n.name)) {
          return fail(n.pos, `unknown variable '${n.name}'`, `defined here: ${Object.keys(scope).sort().join(', ') || '(none)'}`);
        }
        return scope[n.name];
      case 'member':
        return member(ev(n.object), ev(n.property), n.pos);
      case 'call': {
        const fn = Object.hasOwn(FUNCTIONS, n.name) ? FUNCTIONS[n.name] : undefined;
        if (!fn) return fail(n.pos, `unknown function '${n.name}'`, `functions: ${Object.keys(FUNCTIONS).join(', ')}`);
        const args = n.args.map(ev);
        try {
          return fn(args);
        } catch (e) {
          return fail(n.pos, (e as Error).message);
        }
      }
      case 'unary': {
        const v = ev(n.arg);
        if (n.op === '!') return !truthy(v);
        const d = toDecimal(v);
        if (!isNumeric(v) || !d) return fail(n.pos, `cannot negate ${typeName(v)} ${preview(v)}`);
        return d.neg();
      }
      case 'cond':
        return truthy(ev(n.test)) ? ev(n.then) : ev(n.otherwise);
      case 'binary':
        return binary(n.op, n.left, n.right, n.pos);
    }
  };

  const member = (obj: unknown, key: unknown, pos: number): unknown => {
    if (obj === null || obj === undefined) return fail(pos, `cannot read ${preview(key)} of ${obj === null ? 'null' : 'undefined'}`);
    if (Array.isArray(obj) || typeof obj === 'string') {
      if (key === 'length') return new D(obj.length);
      const d = toDecimal(key);
      if (!isNumeric(key) || !d || !d.isInteger()) return fail(pos, `a list index must be a whole number, got ${preview(key)}`);
      const i = d.isNegative() ? obj.length + d.toNumber() : d.toNumber();
      return obj[i];
    }
    if (!isPlainObject(obj)) return fail(pos, `cannot read ${preview(key)} of a ${typeName(obj)}`);
    const k = toText(key);
    if (FORBIDDEN_KEYS.has(k)) return fail(pos, `property '${k}' is not accessible`);
    return Object.hasOwn(obj, k) ? obj[k] : undefined;
  };

  const binary = (op: string, ln: Node, rn: Node, pos: number): unknown => {
    if (op === '&&') return truthy(ev(ln)) ? truthy(ev(rn)) : false;
    if (op === '||') return truthy(ev(ln)) ? true : truthy(ev(rn));
    const l = ev(ln);
    const r = ev(rn);
    switch (op) {
      case '==':
        return deepEqual(l, r);
      case '!=':
        return !deepEqual(l, r);
      case '<':
      case '<=':
      case '>':
      case '>=':
        return compare(op, l, r, pos);
      case '+':
        if (typeof l === 'string' || typeof r === 'string') return toText(l) + toText(r);
        if (Array.isArray(l) && Array.isArray(r)) return [...l, ...r];
        return arith(op, l, r, pos, (a, b) => a.plus(b));
      case '-':
        return arith(op, l, r, pos, (a, b) => a.minus(b));
      case '*':
        return arith(op, l, r, pos, (a, b) => a.times(b));
      case '/':
      case '%':
        return arith(op, l, r, pos, (a, b) => {
          if (b.isZero()) fail(pos, 'division by zero');
          return op === '/' ? a.div(b) : a.mod(b);
        });
      default:
        return fail(pos, `unknown operator '${op}'`);
    }
  };

  const arith = (op: string, l: unknown, r: unknown, pos: number, f: (a: Dec, b: Dec) => Dec): Dec => {
    if (!isNumeric(l) || !isNumeric(r)) {
      return fail(pos, `'${op}' needs numbers, got ${typeName(l)} ${preview(l)} and ${typeName(r)} ${preview(r)}`, "decimal strings must be converted with dec('…')");
    }
    return f(toDecimal(l) as Dec, toDecimal(r) as Dec);
  };

  const compare = (op: string, l: unknown, r: unknown, pos: number): boolean => {
    let c: number;
    if (isNumeric(l) && isNumeric(r)) c = (toDecimal(l) as Dec).cmp(toDecimal(r) as Dec);
    else if (typeof l === 'string' && typeof r === 'string') c = l < r ? -1 : l > r ? 1 : 0;
    else return fail(pos, `'${op}' compares numbers or strings, got ${typeName(l)} ${preview(l)} and ${typeName(r)} ${preview(r)}`);
    return op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : c >= 0;
  };

  return ev(node);
}

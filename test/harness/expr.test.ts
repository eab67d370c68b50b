import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ExpressionError } from '../../src/harness/expressions/index.js';
import { evaluate, freeVariables, interpolateString, isDecimal, parseExpression, resolveDeep, toPlainJson } from '../../src/harness/expressions/index.js';

const scope = {
  sub: { body: { uid: 'S-1', amount: 0.1, items: [{ id: 'a' }, { id: 'b' }, { id: 'a' }] } },
  pages: [{ n: 1 }, { n: 2 }],
  minimum: '0.25',
};

const text = (v: unknown): string => (isDecimal(v) ? v.toFixed() : String(v));

describe('expressions: decimal arithmetic', () => {
  it('is exact where floats are not', () => {
    assert.equal(evaluate("dec('0.1') + dec('0.2') == dec('0.3')", scope), true);
    assert.equal(evaluate('0.1 + 0.2 == 0.3', scope), true);
    assert.equal(text(evaluate("dec('0.25') * 1000000", scope)), '250000');
    assert.equal(text(evaluate('dec(minimum) * 1000000 - 1', scope)), '249999');
    assert.equal(text(evaluate('sub.body.amount * 3', scope)), '0.3');
    assert.equal(text(evaluate('1 / 3 * 3', scope)).startsWith('0.99999') || text(evaluate('1 / 3 * 3', scope)) === '1', true);
    assert.equal(text(evaluate('7 % 3', scope)), '1');
  });

  it('compares decimals with JSON numbers by value', () => {
    assert.equal(evaluate('sub.body.amount == 0.10', scope), true);
    assert.equal(evaluate("dec('250000.00') == 250000", scope), true);
    assert.equal(evaluate("'2024-01-02' < '2024-01-10'", scope), true);
  });

  it('num() gives a JSON number, decimals serialise as exact strings', () => {
    assert.equal(evaluate("num(dec('0.25') * 1000000)", scope), 250000);
    assert.deepEqual(toPlainJson({ a: evaluate("dec('1.10') + dec('0.005')", scope) }), { a: '1.105' });
  });

  it('fails on division by zero and on arithmetic with strings, naming the expression', () => {
    assert.throws(() => evaluate('1 / 0', scope), /division by zero in expression `1 \/ 0`/);
    assert.throws(() => evaluate("minimum * 2", scope), (e: ExpressionError) => e.code === 'FTF_E_EXPRESSION' && /needs numbers/.test(e.message) && /dec\(/.test(e.hint ?? ''));
  });
});

describe('expressions: interpolation typing', () => {
  it('a whole ${expr} keeps the type; mixed text renders a string', () => {
    assert.deepEqual(interpolateString('${pages}', scope), scope.pages);
    assert.equal(interpolateString('${sub.body.uid}', scope), 'S-1');
    assert.ok(isDecimal(interpolateString('${1 + 1}', scope)));
    assert.equal(interpolateString('id-${sub.body.uid}-${1 + 1}', scope), 'id-S-1-2');
    assert.equal(interpolateString('no expressions', scope), 'no expressions');
    assert.equal(interpolateString('cost $${x}', scope), 'cost ${x}');
    assert.equal(interpolateString("${'}'}", scope), '}');
  });

  it('resolveDeep interpolates inside maps and lists, keeps other values', () => {
    assert.deepEqual(toPlainJson(resolveDeep({ a: ['${sub.body.uid}', 3, true], b: { c: '${len(pages)}' } }, scope)), { a: ['S-1', 3, true], b: { c: '2' } });
  });

  it('uuid() is a v4 UUID and differs per call', () => {
    const a = evaluate('uuid()', scope) as string;
    assert.match(a, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.notEqual(a, evaluate('uuid()', scope));
  });
});

describe('expressions: access and functions', () => {
  it('dotted, indexed and negative-indexed access', () => {
    assert.equal(evaluate('sub.body.items[1].id', scope), 'b');
    assert.equal(evaluate("sub['body'].items[-1].id", scope), 'a');
    assert.equal(evaluate('sub.body.missing', scope), undefined);
    assert.equal(evaluate('len(sub.body.items) == 3 && contains(pluck(sub.body.items, "/id"), "b")', scope), true);
  });

  it('list helpers', () => {
    assert.deepEqual(evaluate("unique(pluck(sub.body.items, '/id'))", scope), ['a', 'b']);
    assert.equal(evaluate("len(select(sub.body.items, '/id', 'a'))", scope)?.toString(), '2');
    assert.equal(text(evaluate('max(3, 10, 2)', scope)), '10');
    assert.equal(evaluate("min(['2024-02-01', '2024-01-01'])", scope), '2024-01-01');
    assert.equal(evaluate("pointer(sub, '/body/uid')", scope), 'S-1');
    assert.equal(evaluate("date('2024-02-28', 2)", scope), '2024-03-01');
    assert.match(evaluate('today()', scope) as string, /^\d{4}-\d{2}-\d{2}$/);
    assert.equal(evaluate('true ? "y" : "n"', scope), 'y');
    assert.equal(evaluate('not (1 > 2) and 2 >= 2', scope), true);
  });

  it('free variables are found for static checks', () => {
    assert.deepEqual([...freeVariables(parseExpression('a.b + len(c[d]) - 1'))].sort(), ['a', 'c', 'd']);
  });
});

describe('expressions: safety and errors', () => {
  it('has no access to process, env, globals or prototypes', () => {
    assert.throws(() => evaluate('process.env', scope), /unknown variable 'process'/);
    assert.throws(() => evaluate('globalThis', scope), /unknown variable 'globalThis'/);
    assert.throws(() => evaluate('sub.constructor', scope), /not accessible/);
    assert.throws(() => evaluate("sub['__proto__']", scope), /not accessible/);
    assert.throws(() => evaluate('env()', scope), /unknown function 'env'/);
    assert.throws(() => evaluate('sub.body.uid.length.constructor', scope), /cannot read/);
  });

  it('cannot call a value', () => {
    assert.throws(() => evaluate('sub.body()', scope), /only named functions can be called/);
  });

  it('syntax errors name the expression and the 1-based position', () => {
    assert.throws(() => evaluate('1 + * 2', scope), (e: ExpressionError) => e.position === 4 && /at position 5/.test(e.message) && e.expression === '1 + * 2');
    assert.throws(() => evaluate("'open", scope), /unterminated string literal/);
    assert.throws(() => evaluate('a b', scope), /unexpected 'b'/);
    assert.throws(() => interpolateString('x ${oops', scope), /unclosed/);
    assert.throws(() => evaluate('', scope), /empty expression/);
  });

  it('reading through null fails readably', () => {
    assert.throws(() => evaluate('sub.body.missing.deeper', {}), /unknown variable 'sub'/);
    assert.throws(() => evaluate('x.y', { x: null }), /cannot read "y" of null/);
  });
});

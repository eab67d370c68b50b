/**
 * Amount boundary generation and judging (src/harness/boundaries/): the cases at, just inside and just outside each
 * bound at every scale, exact in decimal.js; every reading the spec leaves open accepted, each deviation failed with
 * the clause of its bound.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Decimal } from 'decimal.js';
import { amountBoundaries, jsonNumber, millions } from '../../src/harness/boundaries/amounts.js';
import { BELOW_MINIMUM_DETAIL, judgeBoundaries, type Reply } from '../../src/harness/boundaries/judge.js';

const ok: Reply = { status: 200, text: '{}', json: {} };
const below: Reply = { status: 400, text: '', json: { detail: BELOW_MINIMUM_DETAIL } };
const above: Reply = { status: 400, text: '', json: { detail: 'Amount is above the indication maximum.' } };

describe('amount boundary cases', () => {
  it('each bound exactly, and one whole unit, cent and tenth of a cent outside and inside, digit for digit', () => {
    const cases = amountBoundaries({ minimum: millions(0.25), maximum: millions('50') });
    assert.deepEqual(cases.map((c) => jsonNumber(c.amount)), [
      '250000', '249999', '250001', '249999.99', '250000.01', '249999.999', '250000.001', '-250000',
      '50000000', '50000001', '49999999', '50000000.01', '49999999.99', '50000000.001', '49999999.999',
    ]);
    assert.ok(cases.every((c) => (c.bound === 'minimum') === (c.clause === 'ERR-AMOUNT-MIN')));
    // 0.29 x 1,000,000 in floats is 290000.00000000006; in decimal.js it is exact.
    assert.equal(millions(0.29).toFixed(), '290000');
  });
  it('leaves out an inside value beyond the other bound and amounts not above zero, but the minimum negated', () => {
    const cases = amountBoundaries({ minimum: new Decimal('0.5'), maximum: new Decimal('1') });
    assert.deepEqual(cases.filter((c) => !c.amount.greaterThan(0)).map((c) => [c.scale, c.expect, jsonNumber(c.amount)]), [['sign', 'negative', '-0.5']]);
    assert.ok(!cases.some((c) => c.position === 'inside' && c.amount.greaterThan(1)));
  });
});

describe('judging by the clause of the bound', () => {
  const cases = amountBoundaries({ minimum: new Decimal(1_000_000), maximum: new Decimal(50_000_000) });
  const answer = (f: (c: (typeof cases)[number]) => Reply) => cases.map((c) => ({ c, r: f(c) }));
  const conformant = (c: (typeof cases)[number]): Reply => (c.expect === 'below-minimum' || c.expect === 'negative' ? below : c.expect === 'above-maximum' ? above : ok);
  it('passes a conformant target, enforced or with the reading unknown', () => {
    assert.ok(judgeBoundaries('X', answer(conformant), true).every((r) => r.passed));
    assert.ok(judgeBoundaries('X', answer(conformant), undefined).every((r) => r.passed));
    assert.ok(judgeBoundaries('X', answer((c) => (c.expect === 'below-minimum' || c.expect === 'negative' ? below : ok)), false).every((r) => r.passed));
  });
  it('passes a negative amount refused as such (422, or 400 with its own detail); fails it served (ERR-AMOUNT-MIN: the sign dropped)', () => {
    const schema: Reply = { status: 422, text: '', json: { detail: [{ loc: ['body', 'amount'], msg: 'must be > 0', type: 'x' }] } };
    const own: Reply = { status: 400, text: '', json: { detail: 'amount must be positive' } };
    for (const r of [schema, own]) assert.ok(judgeBoundaries('X', answer((c) => (c.expect === 'negative' ? r : conformant(c))), true).every((x) => x.passed));
    const served = judgeBoundaries('X', answer((c) => (c.expect === 'negative' ? ok : conformant(c))), true).filter((r) => !r.passed);
    assert.deepEqual(served.map((r) => [r.clauses, r.step]), [[['ERR-AMOUNT-MIN'], 'X: minimum x 1,000,000 negated (-1000000)']]);
  });
  it('passes a target that refuses sub-cent amounts as such, consistently', () => {
    const precision: Reply = { status: 422, text: '', json: { detail: [{ loc: ['body', 'amount'], msg: 'at most 2 decimals', type: 'x' }] } };
    assert.ok(judgeBoundaries('X', answer((c) => (c.scale === 'sub-cent' ? precision : conformant(c))), true).every((r) => r.passed));
  });
  it('fails a tenth of a cent below the minimum accepted (ERR-AMOUNT-MIN), above the enforced maximum accepted (ERR-AMOUNT-MAX)', () => {
    const minFail = judgeBoundaries('X', answer((c) => (c.expect === 'below-minimum' && c.scale === 'sub-cent' ? ok : conformant(c))), true).filter((r) => !r.passed);
    assert.deepEqual(minFail.map((r) => r.clauses), [['ERR-AMOUNT-MIN']]);
    const maxFail = judgeBoundaries('X', answer((c) => (c.expect === 'above-maximum' && c.scale === 'sub-cent' ? ok : conformant(c))), true).filter((r) => !r.passed);
    assert.deepEqual(maxFail.map((r) => r.clauses), [['ERR-AMOUNT-MAX']]);
    // Unknown reading: 200 for one amount above the maximum and 400 for another is inconsistent.
    assert.ok(judgeBoundaries('X', answer((c) => (c.expect === 'above-maximum' && c.scale === 'sub-cent' ? ok : conformant(c))), undefined).some((r) => !r.passed));
    const atMin = judgeBoundaries('X', answer((c) => (c.position === 'at' && c.bound === 'minimum' ? below : conformant(c))), true).filter((r) => !r.passed);
    assert.deepEqual(atMin.map((r) => r.clauses), [['ERR-AMOUNT-MIN']]);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evaluate } from '../../src/harness/expressions/index.js';

const scope = { lux: '2026-03-03T10:00:00+01:00', ny: '2026-03-03T14:00:00-05:00', now: '2026-03-03T09:30:00.000Z' };

describe('expressions: instant(), utc(), on_date()', () => {
  it('instant() compares date-times across offsets; utc() renders epoch milliseconds', () => {
    assert.equal(evaluate('instant(lux) == instant("2026-03-03T09:00:00Z")', scope), true);
    assert.equal(evaluate('instant(ny) > instant(lux)', scope), true);
    assert.equal(evaluate('instant(now) > instant(lux)', scope), true);
    assert.equal(evaluate('utc(instant(ny) + 10 * 60000)', scope), '2026-03-03T19:10:00.000Z');
  });

  it('on_date() keeps the wall-clock time and offset on another date', () => {
    assert.equal(evaluate("on_date(lux, '2026-03-05')", scope), '2026-03-05T10:00:00+01:00');
    assert.equal(evaluate("utc(instant(on_date(ny, '2026-03-04')))", scope), '2026-03-04T19:00:00.000Z');
  });

  it('refuses a date-time without a zone, a non-date, fractional milliseconds and a bad date', () => {
    assert.throws(() => evaluate("instant('2026-03-03T10:00:00')", scope), /instant\(\) needs a date-time with a zone/);
    assert.throws(() => evaluate("instant('2026-03-03')", scope), /needs a date-time with a zone/);
    assert.throws(() => evaluate('instant(1)', scope), /needs a date-time with a zone/);
    assert.throws(() => evaluate('utc(0.5)', scope), /whole epoch milliseconds/);
    assert.throws(() => evaluate("on_date(lux, '5 March')", scope), /YYYY-MM-DD/);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evaluate } from '../../src/harness/expressions/index.js';

const scope = { items: [{ uid: 'a' }, { uid: 'b' }, { uid: 'c' }, { uid: 'd' }], k: 1 };

describe('expressions: slice()', () => {
  it('takes start..end-1, with end optional and negative indexes from the end', () => {
    assert.deepEqual(evaluate("pluck(slice(items, k + 1), '/uid')", scope), ['c', 'd']);
    assert.deepEqual(evaluate("pluck(slice(items, 1, 3), '/uid')", scope), ['b', 'c']);
    assert.deepEqual(evaluate("pluck(slice(items, -2), '/uid')", scope), ['c', 'd']);
    assert.deepEqual(evaluate('slice(items, 9)', scope), []);
    assert.equal(evaluate('slice(items, 2) == [items[2], items[3]]', scope), true);
  });

  it('refuses a non-list, fractional indexes and a wrong argument count', () => {
    assert.throws(() => evaluate("slice('abc', 1)", scope), /slice\(\) needs a list/);
    assert.throws(() => evaluate('slice(items, 0.5)', scope), /whole-number/);
    assert.throws(() => evaluate('slice(items)', scope), /takes 2\.\.3 argument/);
  });
});

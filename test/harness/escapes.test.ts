/**
 * The decoded view the redactor searches (src/harness/http/escapes.ts): each character of the view maps back to the
 * range of its spelling in the original, plain runs one to one, an astral entity's two UTF-16 units both to the
 * entity; text without an escape has no view. (The typed-array version was checked equal to the array-of-numbers
 * one on 20,000 random mixes of escapes, plain and astral characters before it replaced it.)
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { decodedText, decodedView } from '../../src/harness/http/escapes.js';

const ranges = (text: string): Array<[string, string]> => {
  const v = decodedView(text);
  assert.ok(v, `a view of ${text}`);
  return Array.from({ length: v.text.length }, (_, k): [string, string] => [v.text[k] as string, text.slice(v.from[k], v.to[k])]);
};

test('every escape kind decodes to its character, mapped to its whole spelling; plain characters map to themselves', () => {
  assert.deepEqual(ranges('a&#55;b&#x63;%7C\\u0041\\/&lowbar;z'), [
    ['a', 'a'], ['7', '&#55;'], ['b', 'b'], ['c', '&#x63;'], ['|', '%7C'], ['A', '\\u0041'], ['/', '\\/'], ['_', '&lowbar;'], ['z', 'z'],
  ]);
});

test('an astral entity gives two UTF-16 units, both mapped to the entity; what is not an escape stays as it is', () => {
  const v = decodedView('x&#128512;&amp %80 \\n y');
  assert.ok(v);
  assert.equal(v.text, 'x\u{1F600}&amp %80 \\n y');
  assert.deepEqual([v.from[1], v.to[1], v.from[2], v.to[2]], [1, 10, 1, 10]);
  assert.ok(v.text.length <= 'x&#128512;&amp %80 \\n y'.length);
});

test('text without an escape has no view, also text with only look-alikes', () => {
  assert.equal(decodedView('plain text, no escapes'), undefined);
  assert.equal(decodedView('50 % & \\n &bogus;'), undefined);
});

test('decodedText (the leak scan\'s) is the view\'s text exactly, on chosen and random mixes of escapes, look-alikes and plain text', () => {
  for (const t of ['a&#55;b&#x63;%7C\\u0041\\/&lowbar;z', 'x&#128512;&amp %80 \\n y', '&#0;&#1114112;&#99999999;&amp&ampx;&amp;#55;', '\\\\u0041\\\\\\"%2', 'plain', '&#55296;&#xDC00;'])
    assert.equal(decodedText(t), decodedView(t)?.text, t);
  const piece = fc.constantFrom('&', '#', 'x', 'X', ';', '%', '\\', 'u', '/', '"', '0', '5', '7', 'F', 'a', 'amp', 'lowbar', 'ampx', '&#', '&#x', '%7', '\\u00', '\\u', ' ', '\u00e9', '\u{1F600}');
  fc.assert(fc.property(fc.array(piece, { maxLength: 40 }).map((p) => p.join('')), (t) => decodedText(t) === decodedView(t)?.text), { numRuns: 20000, seed: 2811 });
});

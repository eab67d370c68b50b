import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldName, parseYaml, pointerSegments } from '../../src/harness/yaml/source.js';

describe('parseYaml: one parse, positions kept', () => {
  it('reports every syntax problem of a file together, in document order', () => {
    const src = parseYaml('a: 1\nb: 2\na: 3\nc: 4\nc: 5\n', 'f.yaml');
    assert.deepEqual(src.problems.map((p) => [p.line, p.column, p.code]), [[3, 1, 'DUPLICATE_KEY'], [5, 1, 'DUPLICATE_KEY']]);
    assert.equal(src.value, undefined, 'a document with problems has no value to trust');
  });

  it('locates an unterminated quote or flow collection where it STARTS, not at the end of the file', () => {
    const quote = parseYaml('a: 1\nb: "unclosed\nc: 2\n', 'q.yaml').problems;
    assert.deepEqual(quote.map((p) => [p.file, p.line, p.column]), [['q.yaml', 2, 4]]);
    const flow = parseYaml('x: 1\nz: {a: 1\n', 'f.yaml').problems;
    assert.deepEqual(flow.map((p) => [p.line, p.column]), [[2, 4]]);
  });

  it('locates keys and values; a missing field resolves to its deepest existing ancestor', () => {
    const src = parseYaml('top:\n  list:\n    - first\n    - { k: v }\n  empty:\n', 'l.yaml');
    assert.deepEqual(src.problems, []);
    assert.deepEqual(src.locate(['top', 'list'], 'key'), { file: 'l.yaml', line: 2, column: 3 });
    assert.deepEqual(src.locate(['top', 'list', 1, 'k']), { file: 'l.yaml', line: 4, column: 12 });
    assert.deepEqual(src.locate(['top', 'list', 1, 'missing']), { file: 'l.yaml', line: 4, column: 7 });
    assert.deepEqual(src.locate(['top', 'empty']), { file: 'l.yaml', line: 5, column: 3 }, 'a key without a value is located at its key');
  });

  it('bounds aliases (a "billion laughs" document is a problem, not a hang)', () => {
    const laughs = ['a: &a [x, x, x, x, x, x, x, x, x, x]', ...Array.from({ length: 6 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(10).fill(`*${String.fromCharCode(97 + i)}`).join(', ')}]`)].join('\n');
    const src = parseYaml(laughs, 'l.yaml');
    assert.equal(src.problems[0]?.code, 'ALIAS_LIMIT');
  });

  it('field names and JSON pointers', () => {
    assert.deepEqual(pointerSegments('/credentials/a~1b/x~0y'), ['credentials', 'a/b', 'x~y']);
    assert.equal(fieldName(['entities', 'allowed', '1']), 'entities.allowed[1]');
    assert.equal(fieldName(['steps', 0, 'request']), 'steps[0].request');
  });
});

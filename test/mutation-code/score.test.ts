/**
 * The score of `npm run mutation:code` (scripts/mutation-code-score.mjs): Stryker's results joined with the written
 * classification; the committed classification file must read cleanly.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
// @ts-expect-error plain JavaScript (scripts/); no declarations
import { readClassification, readClassificationDir, score } from '../../scripts/mutation-code-score.mjs';

type Entry = { at: string; mutator?: string; replacement?: string; verdict: string; why: string };
type Score = { detected: number; equivalent: number; open: number; missed: number; unclassified: number; ignored: number; scorePct?: number; floorPct?: number; timeouts: number; rawPct?: number; stale: Entry[] };
const scoreOf = score as (results: unknown[], entries: Entry[]) => Score;
const read = readClassification as (file: string) => Entry[];
const readDir = readClassificationDir as (dir: string) => Entry[];

const mutant = (file: string, line: number, column: number, mutatorName: string, status: string, replacement = '""') => ({ file: `src/reference/${file}`, location: { start: { line, column }, end: { line, column: column + 1 } }, mutatorName, replacement, status });

describe('mutation:code score', () => {
  it('sets aside the mutants classified equivalent; open, missed and unclassified ones count against', () => {
    const results = [
      mutant('a.ts', 1, 1, 'StringLiteral', 'Killed'),
      mutant('a.ts', 2, 1, 'StringLiteral', 'Timeout'),
      mutant('a.ts', 3, 1, 'StringLiteral', 'Survived'),
      mutant('a.ts', 4, 1, 'BooleanLiteral', 'NoCoverage'),
      mutant('b.ts', 9, 9, 'Regex', 'Survived'),
      mutant('c.ts', 5, 5, 'StringLiteral', 'Survived'),
      mutant('d.ts', 6, 6, 'StringLiteral', 'Survived'),
      mutant('e.ts', 7, 7, 'StringLiteral', 'Ignored'),
      mutant('f.ts', 20, 3, 'StringLiteral', 'Survived'),
      mutant('f.ts', 31, 3, 'StringLiteral', 'Survived'),
    ];
    const entries: Entry[] = [
      { at: 'a.ts:3:1', mutator: 'StringLiteral', verdict: 'equivalent', why: 'a text the spec does not show' },
      { at: 'a.ts:4:1', mutator: 'StringLiteral', verdict: 'equivalent', why: 'another mutator at this spot: no match' },
      { at: 'b.ts', verdict: 'equivalent', why: 'a whole file outside the spec' },
      { at: 'c.ts:5:5', mutator: 'StringLiteral', verdict: 'open', why: 'the spec leaves it open' },
      { at: 'z.ts:1:1', mutator: 'StringLiteral', verdict: 'equivalent', why: 'matches nothing: stale' },
      { at: 'f.ts', verdict: 'missed', why: 'the whole file: less precise than the range' },
      { at: 'f.ts:10-30', verdict: 'equivalent', why: 'lines 10 to 30: a variant-only function' },
    ];
    const s = scoreOf(results, entries);
    // f.ts:20 is in the range (equivalent), f.ts:31 only in the whole file's entry (missed).
    assert.deepEqual([s.detected, s.equivalent, s.open, s.missed, s.unclassified, s.ignored], [2, 3, 1, 1, 2, 1]);
    // 2 detected of 2 + 7 undetected - 3 equivalent = 6; Stryker's own: 2 of 9.
    assert.equal(Math.round(s.scorePct! * 10) / 10, 33.3);
    // The floor: the timeout (a.ts:2) not counted as detected, 1 of 6.
    assert.equal(s.timeouts, 1);
    assert.equal(Math.round(s.floorPct! * 10) / 10, 16.7);
    assert.equal(Math.round(s.rawPct! * 10) / 10, 22.2);
    assert.deepEqual(s.stale.map((e) => e.at), ['a.ts:4:1', 'z.ts:1:1']);
  });

  it('refuses a malformed entry, naming it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ftf-classified-'));
    try {
      const file = join(dir, 'c.yaml');
      writeFileSync(file, '- at: a.ts:1:1\n  verdict: maybe\n  why: not a verdict\n');
      assert.throws(() => read(file), /entry 1 \(a\.ts:1:1\): `verdict` must be one of equivalent, missed, open/);
      writeFileSync(file, '- at: a.ts:1:1\n  verdict: equivalent\n  why: no mutator for a spot\n');
      assert.throws(() => read(file), /a spot needs its `mutator`/);
      writeFileSync(file, '- at: a.ts\n  verdict: equivalent\n  why: short\n');
      assert.throws(() => read(file), /`why` must say why/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the committed classification reads cleanly, one file per folder of src/reference, each entry in its folder\'s file', () => {
    const dir = join(import.meta.dirname, '..', '..', 'fixtures', 'mutation-code');
    const entries = readDir(dir);
    for (const folder of ['domain', 'routes', 'auth', 'http']) {
      for (const e of read(join(dir, `${folder}.yaml`))) assert.ok(e.at.startsWith(`${folder}/`), `${e.at} is in ${folder}.yaml`);
    }
    // domain/events has a file of its own.
    for (const e of read(join(dir, 'domain-events.yaml'))) assert.ok(e.at.startsWith('domain/events/'), `${e.at} is in domain-events.yaml`);
    assert.ok(entries.length > 0);
    for (const e of entries) assert.ok(e.why.length >= 10, e.at);
  });
});

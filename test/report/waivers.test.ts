import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { FtfError } from '../../src/shared/errors.js';
import { summarize } from '../../src/harness/report/verdicts/verdicts.js';
import { applyWaivers, defaultWaiversFile, loadWaivers } from '../../src/harness/report/verdicts/waivers.js';
import { catalogue, demoReport, only, outcomes } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'ftf-waivers-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
function waiversFile(text: string): string {
  const file = join(dir, `w${++n}.waivers.yaml`);
  writeFileSync(file, text);
  return file;
}
const TODAY = '2025-06-01';

test('the default waivers file sits next to the profile', () => {
  assert.equal(defaultWaiversFile('/x/fixtures/targets/sandbox.yaml'), '/x/fixtures/targets/sandbox.waivers.yaml');
  assert.deepEqual(loadWaivers(join(dir, 'absent.yaml')), [], 'no file = no waivers');
});

test('a matching waiver turns a failure into waived and the run conformant', () => {
  const file = waiversFile(`waivers:
  - scenario: demo.wrong-status
    reason: vendor ticket 123, fix due in release 4.2
    owner: alice@example.com
    expires: 2025-12-31
`);
  const scen = outcomes(only(demoReport(), ['demo.health', 'demo.wrong-status']));
  const r = applyWaivers(scen, loadWaivers(file), catalogue, { today: TODAY });
  assert.deepEqual(r.problems, []);
  const waived = r.scenarios.find((s) => s.id === 'demo.wrong-status');
  assert.equal(waived?.verdict, 'waived');
  assert.match(waived?.waivedBy?.[0] ?? '', /alice@example\.com.*vendor ticket 123/);
  const s = summarize(r.scenarios, catalogue, { problems: r.problems });
  assert.equal(s.overall, 'conformant');
  assert.equal(s.clauses.find((c) => c.id === 'RES-HEALTH')?.verdict, 'waived');
});

test('a clause waiver waives scenarios whose every clause is waived', () => {
  const file = waiversFile(`waivers:
  - clause: ERR-NO-SERVER-ERROR
    reason: known 5xx under load
    owner: ops
    expires: 2025-07-01
`);
  const r = applyWaivers(outcomes(only(demoReport(), ['demo.should-only'])), loadWaivers(file), catalogue, { today: TODAY });
  assert.equal(r.scenarios[0]?.verdict, 'waived');
  assert.deepEqual(r.problems, []);
});

test('an expired waiver fails the run and does not waive', () => {
  const file = waiversFile(`waivers:
  - scenario: demo.wrong-status
    reason: old excuse
    owner: bob
    expires: 2025-05-31
`);
  const r = applyWaivers(outcomes(only(demoReport(), ['demo.wrong-status'])), loadWaivers(file), catalogue, { today: TODAY });
  assert.equal(r.scenarios[0]?.verdict, 'failed');
  assert.equal(r.problems.length, 1);
  assert.match(r.problems[0]!, /expired on 2025-05-31/);
  assert.match(r.problems[0]!, /w\d+\.waivers\.yaml:2/);
});

test('a stale waiver (its scenario passes, or matches nothing) fails the run', () => {
  const file = waiversFile(`waivers:
  - scenario: demo.health
    reason: was broken last month
    owner: bob
    expires: 2026-01-01
  - scenario: demo.renamed-long-ago
    reason: gone
    owner: bob
    expires: 2026-01-01
`);
  const scen = outcomes(only(demoReport(), ['demo.health']));
  const r = applyWaivers(scen, loadWaivers(file), catalogue, { today: TODAY });
  const s = summarize(r.scenarios, catalogue, { problems: r.problems });
  assert.equal(s.overall, 'non-conformant');
  assert.equal(r.problems.length, 2);
  assert.match(r.problems[0]!, /stale: it ran and was passed/);
  assert.match(r.problems[1]!, /stale: no scenario of this run matches it/);
  // In a filtered run (--grep/--shard) a waiver whose scenario did not run is only a note.
  const filtered = applyWaivers(scen, loadWaivers(file), catalogue, { today: TODAY, filtered: true });
  assert.equal(filtered.problems.length, 1);
  assert.equal(filtered.notes.length, 1);
});

test('certification ignores waivers of must-clauses but keeps should-only ones', () => {
  const file = waiversFile(`waivers:
  - scenario: demo.wrong-status
    reason: known bug 1
    owner: o
    expires: 2026-01-01
  - clause: ERR-NO-SERVER-ERROR
    reason: known bug 2
    owner: o
    expires: 2026-01-01
`);
  const scen = outcomes(only(demoReport(), ['demo.wrong-status', 'demo.should-only']));
  const r = applyWaivers(scen, loadWaivers(file), catalogue, { today: TODAY, certification: true });
  assert.equal(r.scenarios.find((s) => s.id === 'demo.wrong-status')?.verdict, 'failed');
  assert.equal(r.scenarios.find((s) => s.id === 'demo.should-only')?.verdict, 'waived');
  assert.match(r.notes.join('\n'), /certification ignores the waiver for scenario 'demo.wrong-status'/);
});

test('invalid waiver files name the file, line and field', () => {
  const cases: [string, RegExp, number][] = [
    ['waivers:\n  - scenario: x\n    reason: because\n    expires: 2025-01-01\n', /waivers\[0\]\.owner is required/, 2],
    ['waivers:\n  - scenario: x\n    reason: because\n    owner: me\n    expires: 31/12/2025\n', /waivers\[0\]\.expires must be a date YYYY-MM-DD/, 5],
    ['waivers:\n  - scenario: x\n    reason: because\n    owner: me\n    expires: 2025-02-30\n', /not a calendar date/, 2],
    ['waivers:\n  - reason: because\n    owner: me\n    expires: 2025-01-01\n', /exactly one of scenario or clause/, 2],
    ['waivers:\n  - scenario: x\n    reason: because\n    owner: me\n    expires: 2025-01-01\n    until: never\n', /until is not a known field/, 2],
  ];
  for (const [text, message, line] of cases) {
    const file = waiversFile(text);
    assert.throws(() => loadWaivers(file), (e: unknown) => {
      assert.ok(e instanceof FtfError);
      assert.equal(e.code, 'FTF_E_WAIVERS_INVALID');
      assert.match(e.message, message);
      assert.equal(e.location?.file, file);
      assert.equal(e.location?.line, line, `line of ${message}`);
      return true;
    });
  }
});

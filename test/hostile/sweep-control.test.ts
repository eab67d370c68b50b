/**
 * Controls of the in-process hostile sweep (sweep.ts, verdict.ts judgeSweep): the sweep must be able to see
 * a pass, a hang, a skip and a readable check failure, and the judge must name every kind of defect; else a
 * green sweep would prove nothing.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FtfError } from '../../src/shared/errors.js';
import { fakeSchemas, json, makeTarget, scenarioFromYaml, startStub } from '../harness/engine-helpers.js';
import { reportText, sweep, type ScenarioResult, type SweepRun } from './sweep.js';
import { judgeSweep } from './verdict.js';

const yaml = (id: string, covers: string, steps: string): string => `id: t.${id}\ntitle: ${id}\ncovers: [${covers}]\nsteps:\n${steps}`;

describe('sweep: what it reports for each outcome', () => {
  it('a pass, a named check failure at its YAML line, a skip for a missing capability, and a hang', async () => {
    const stub = await startStub((req, res) => {
      if (req.url === '/oauth/token') return json(res, 200, { access_token: 'tok-control-0123456789', token_type: 'Bearer', expires_in: 3600 });
      if (req.url?.startsWith('/api/v1/hang')) return; // never answers
      json(res, 200, { ok: true });
    });
    const target = makeTarget(stub.url, { requestMs: 5_000 });
    target.capabilities.delete('clock');
    const scenarios = [
      scenarioFromYaml(yaml('pass', 'T-ONE', '  - request: { method: GET, path: /fine }\n  - fail_if: last.status != 200\n')),
      scenarioFromYaml(yaml('check', 'T-ONE', '  - request: { method: GET, path: /fine }\n  - fail_if: last.status == 200\n    message: the control fails here\n')),
      scenarioFromYaml(yaml('skip', 'T-CLOCK', '  - fail_if: "1 == 1"\n')),
      scenarioFromYaml(yaml('hang', 'T-ONE', '  - request: { method: GET, path: /hang }\n')),
    ];
    let run: SweepRun;
    try {
      run = await sweep({ target, schemas: fakeSchemas(), scenarios, concurrency: 4, watchdogMs: 1_000 });
    } finally {
      await stub.close();
    }
    const by = new Map(run.results.map((r) => [r.id, r]));
    assert.equal(by.get('t.pass')?.status, 'passed', by.get('t.pass')?.text);
    assert.equal(by.get('t.check')?.status, 'failed');
    assert.match(by.get('t.check')?.text ?? '', /^\[fail_if\] [\s\S]*the control fails here[\s\S]*\n {4}at \S+scenario\.yaml:\d+$/);
    assert.equal(by.get('t.check')?.typed, true);
    assert.equal(by.get('t.skip')?.status, 'skipped');
    assert.equal(by.get('t.skip')?.skipReason, 'needs clock');
    assert.equal(by.get('t.hang')?.status, 'hung');
    // Node's timers run on a coarser clock than performance.now(): a 1000 ms timer may read as 999 ms.
    assert.ok((by.get('t.hang')?.elapsedMs ?? 0) >= 995, `the watchdog fired early (${by.get('t.hang')?.elapsedMs} ms)`);

    const problems = judgeSweep(run, { limitMs: 10_000 }).problems.join('\n');
    assert.match(problems, /PASSED against garbage \(harness or scenario defect\): t\.pass/);
    assert.match(problems, /no harness bound fired \(still running after 1000 ms\): t\.hang/);
    assert.doesNotMatch(problems, /t\.check|t\.skip/);
  });
});

describe('judgeSweep: every defect is named, a clean run has none', () => {
  const failed = (id: string, text: string, extra: Partial<ScenarioResult> = {}): ScenarioResult => ({ id, status: 'failed', elapsedMs: 100, text, typed: true, ...extra });
  const runOf = (results: ScenarioResult[], extra: Partial<SweepRun> = {}): SweepRun => ({ results, wallMs: 1, unhandled: [], disposeHung: false, ...extra });

  it('accepts readable typed failures and skips', () => {
    const s = judgeSweep(runOf([
      failed('a', 'FTF_E_TARGET_TIMEOUT: GET http://127.0.0.1:1/api/v1/x: no complete response within 1000 ms'),
      failed('b', '[fail_if] the stream is empty\n    at paging/traversal.yaml:25'),
      { id: 'c', status: 'skipped', elapsedMs: 0, text: '', typed: true, skipReason: 'needs production' },
    ]), { limitMs: 15_000 });
    assert.deepEqual(s.problems, []);
    assert.equal(s.failed, 2);
    assert.deepEqual(s.skips, ['c (needs production)']);
  });

  it('names an unreadable, an untyped and a slow failure, an unhandled rejection and a transport that never closed', () => {
    const s = judgeSweep(runOf([
      failed('mute', 'something went wrong'),
      failed('raw', 'FTF_E_X: Cannot read properties of undefined', { typed: false }),
      failed('slow', 'FTF_E_TARGET_TIMEOUT: GET http://h/x', { elapsedMs: 15_001 }),
    ], { unhandled: ['unhandledRejection: Error: boom\n    at x'], disposeHung: true }), { limitMs: 15_000 });
    const text = s.problems.join('\n');
    assert.match(text, /unreadable failure .*: mute: something went wrong/);
    assert.match(text, /untyped error .*: raw: FTF_E_X/);
    assert.match(text, /took 15001 ms, over the 15000 ms per-scenario limit \(scenario_ms \+ grace\): slow/);
    assert.match(text, /process-level unhandledRejection: Error: boom/);
    assert.match(text, /transport did not close/);
    assert.equal(s.problems.length, 5);
  });

  it('reportText puts the error location, else the failing step, under the message', () => {
    const at = { file: 'fam/s.yaml', line: 7, column: 3 };
    assert.equal(reportText(new FtfError('FTF_E_X', 'msg', { location: { file: 'a.yaml', line: 2 } }), at), 'msg\n    at a.yaml:2');
    assert.equal(reportText(new Error('plain'), at), 'plain\n    at fam/s.yaml:7');
    assert.equal(reportText('thrown string', undefined), 'thrown string');
  });
});

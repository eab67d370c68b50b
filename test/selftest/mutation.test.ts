/**
 * The mutation runner's pure parts: reading Playwright's JSON report, verdicts, title patterns (as Playwright
 * matches them: title path + " @tags"), fault selection, flags, and the shape of reports/mutation.json.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { FAULTS } from '../../src/reference/faults.js';
import { parseMutationArgs, MutationUsageError } from '../../src/selftest/mutation.js';
import { byFamily, formatMatrix, readSection, renderFamilyTables, renderGrepSection, renderMarkdown, sectionId, writeJsonReport, writeMarkdown, writeSection, type RunFacts } from '../../src/selftest/output.js';
import { CLOCK_ONLY_FAULTS } from '../../src/selftest/no-control.js';
import { defaultPlan, projectMetadata, titlesPattern } from '../../src/selftest/plan.js';
import { encodeOutcome, type OutcomeRecord } from '../../src/harness/report/records/outcome.js';
import { globalErrors, testsOf, type PwAnnotation, type PwJsonReport } from '../../src/selftest/pw-report.js';
import { CI_SUBSET, selectFaults } from '../../src/selftest/subsets.js';
import { cleanResult, faultResult, matrixOk, verdictOf, type MutationReport, type Verdict } from '../../src/selftest/verdict.js';

const ann = (scenario: string, clauses: string[]) => [
  ...clauses.map((description) => ({ type: 'clause', description })),
  { type: 'scenario', description: scenario },
  { type: 'allure.label.epic', description: 'FTF conformance' },
];

/** The record the conformance entry writes (specs/conformance.spec.ts), as the JSON report carries it. */
const rec = (record: Partial<OutcomeRecord> & Pick<OutcomeRecord, 'status'>) => encodeOutcome({ clauses: [], checks: [], exchanges: [], warnings: [], ...record });
const failedCheck = (clauses: string[], body = '') => rec({ status: 'failed', code: 'FTF_E_CHECK_FAILED', kind: 'non-conformance', clauses, checks: ['status'], reason: `FTF_E_CHECK_FAILED: [status] expected 200, got 500; body: ${body}` });
const run = (status: string, ...annotations: PwAnnotation[]) => [{ status, annotations, errors: status === 'failed' ? [{ message: 'Error: whatever Playwright printed' }] : [] }];

const REPORT: PwJsonReport = {
  suites: [{
    suites: [{
      specs: [
        { title: 'paging.traversal: pages concatenate', tests: [
          { projectName: 'clean', status: 'expected', annotations: ann('paging.traversal', ['EP-EVENT-PAGING']), results: run('passed', rec({ status: 'passed' })) },
          { projectName: 'paging-gap', status: 'unexpected', annotations: ann('paging.traversal', ['EP-EVENT-PAGING']), results: run('failed', failedCheck(['EP-EVENT-PAGING'])) },
        ] },
        { title: 'resources.health: health', tests: [
          { projectName: 'clean', status: 'skipped', annotations: ann('resources.health', ['RES-HEALTH']), results: run('skipped') },
          { projectName: 'paging-gap', status: 'flaky', annotations: ann('resources.health', ['RES-HEALTH']), results: run('failed', failedCheck(['RES-HEALTH'])) },
        ] },
        { title: 'resources.cells: cells', tests: [
          // Playwright could not run it: no record, so it errored and kills nothing.
          { projectName: 'paging-gap', status: 'unexpected', annotations: ann('resources.cells', ['EP-EVENT-PAGING']),
            results: [{ status: 'failed', errors: [{ message: 'Test not found in the worker process. Make sure test title does not change.' }] }] },
        ] },
        { title: 'paging.fence: fence', tests: [
          // The harness timed out on a scenario covering the fault's clause: errored, never a kill.
          { projectName: 'paging-gap', status: 'unexpected', timeout: 60_000, annotations: ann('paging.fence', ['EP-EVENT-PAGING']), results: run('timedOut') },
          // A transport failure whose message quotes check words is still target trouble (the record says so).
          { projectName: 'paging-slow', status: 'unexpected', annotations: ann('paging.fence', ['EP-EVENT-PAGING']),
            results: run('failed', rec({ status: 'errored', code: 'FTF_E_TARGET_RESET', kind: 'target', reason: 'FTF_E_TARGET_RESET: [status] expected status 200, CheckFailure:' })) },
        ] },
      ],
    }],
  }],
  errors: [],
};

describe('mutation runner', () => {
  it('reads tests, scenarios, covered clauses and outcome records from the JSON report', () => {
    const tests = testsOf(REPORT);
    assert.equal(tests.length, 7);
    const cells = tests.find((t) => t.scenario === 'resources.cells')!;
    assert.equal(cells.outcome.status, 'errored', 'a test Playwright could not run wrote no record: errored');
    assert.deepEqual(cleanResult([{ ...cells, project: 'clean' }]), { passed: 0, failed: 1 }, 'an error in the clean run is a false alarm');
    const gap = tests.filter((t) => t.project === 'paging-gap');
    assert.deepEqual(gap.map((t) => [t.scenario, t.clauses, t.outcome.status, t.outcome.clauses]), [
      ['paging.traversal', ['EP-EVENT-PAGING'], 'failed', ['EP-EVENT-PAGING']],
      ['resources.health', ['RES-HEALTH'], 'failed', ['RES-HEALTH']],
      ['resources.cells', ['EP-EVENT-PAGING'], 'errored', []],
      ['paging.fence', ['EP-EVENT-PAGING'], 'errored', []],
    ]);
    assert.equal(gap[3]?.outcome.code, 'FTF_E_SCENARIO_TIMEOUT');
    assert.match(gap[3]?.outcome.reason ?? '', /60000 ms/);
    assert.deepEqual(cleanResult(tests.filter((t) => t.project === 'clean')), { passed: 1, failed: 0 });
    assert.deepEqual(globalErrors({ errors: [{ message: 'config broke' }] }), ['config broke']);
  });

  it('killed only when a scenario fails a check naming one of the fault\'s clauses; errors never kill', () => {
    const tests = testsOf(REPORT);
    const gap = tests.filter((t) => t.project === 'paging-gap');
    const erroredOnly = gap.filter((t) => t.scenario === 'resources.cells' || t.scenario === 'paging.fence');
    assert.equal(faultResult('x', ['EP-EVENT-PAGING'], erroredOnly).verdict, 'survived', 'errored and timed-out scenarios kill nothing');
    assert.equal(faultResult('paging-slow', ['EP-EVENT-PAGING'], tests.filter((t) => t.project === 'paging-slow')).verdict, 'survived');
    const health = gap.filter((t) => t.scenario === 'resources.health');
    assert.equal(verdictOf(['EP-EVENT-PAGING'], gap), 'killed');
    assert.equal(verdictOf(['EP-EVENT-PAGING'], health), 'killed-incidentally');
    assert.equal(verdictOf(['EP-EVENT-PAGING'], []), 'survived');
    assert.deepEqual(faultResult('paging-gap', ['EP-EVENT-PAGING'], gap), {
      name: 'paging-gap', clauses: ['EP-EVENT-PAGING'], failingScenarios: ['paging.traversal', 'resources.health'],
      erroredScenarios: ['paging.fence', 'resources.cells'], verdict: 'killed', named: ['EP-EVENT-PAGING', 'RES-HEALTH'], precision: 'one-extra',
    });
  });

  it('the failing check\'s clauses decide, not the scenario\'s covers', () => {
    // A scenario covering the fault's clause whose failing check names another clause does not kill it.
    const [t] = testsOf({ suites: [{ specs: [{ title: 's: t', tests: [{ projectName: 'f', status: 'unexpected', annotations: ann('s', ['EP-EVENT-PAGING', 'RES-HEALTH']),
      results: run('failed', failedCheck(['RES-HEALTH'], '"FTF_E_TARGET_TIMEOUT StepError: Test timeout of 1ms exceeded TypeError:"')) }] }] }] });
    assert.equal(t?.outcome.status, 'failed', 'body text quoting harness words does not make it an error');
    assert.equal(verdictOf(['EP-EVENT-PAGING'], [t!]), 'killed-incidentally');
    assert.equal(verdictOf(['RES-HEALTH'], [t!]), 'killed');
  });

  it('a run is ok only with a clean run without failures and every fault killed', () => {
    const killed = { name: 'a', clauses: ['X'], failingScenarios: ['s'], erroredScenarios: [], verdict: 'killed' as const };
    assert.ok(matrixOk({ clean: { passed: 3, failed: 0 }, faults: [killed] }));
    assert.ok(!matrixOk({ clean: { passed: 3, failed: 1 }, faults: [killed] }));
    assert.ok(!matrixOk({ clean: { passed: 3, failed: 0 }, faults: [killed, { ...killed, verdict: 'killed-incidentally' }] }));
  });

  it('title patterns match exactly the given titles as Playwright sees them', () => {
    const p = titlesPattern(['token.root: the endpoint (root)', 'a.b: x']);
    assert.ok(p.test(' clean conformance.spec.ts token.root: the endpoint (root) @token @auth'));
    assert.ok(p.test(' clean conformance.spec.ts a.b: x'));
    assert.ok(!p.test(' clean conformance.spec.ts a.b: x and more @t'), 'a prefix of another title must not select it');
    assert.ok(!p.test(' clean conformance.spec.ts token.rootX the endpoint (root)'));
  });

  it('selects all, a named list or the CI subset (every family), refusing unknown names', () => {
    assert.equal(selectFaults({}).length, FAULTS.length);
    assert.deepEqual(selectFaults({ faults: ['paging-gap', 'health-body-wrong'] }).map((f) => f.name).sort(), ['health-body-wrong', 'paging-gap']);
    assert.throws(() => selectFaults({ faults: ['nope'] }), /unknown fault: nope/);
    const ci = selectFaults({ subset: 'ci' });
    assert.equal(ci.length, CI_SUBSET.length);
    assert.deepEqual(new Set(ci.map((f) => f.family)), new Set(FAULTS.map((f) => f.family)));
    // Every fault runs, in the server mode of its profile; the clean reference runs in both modes.
    const plan = defaultPlan().projects;
    assert.equal(plan.filter((p) => p.fault !== null).length, FAULTS.length);
    assert.ok(plan.every((p) => p.fault === null || FAULTS.some((f) => f.name === p.fault && (f.profile === 'production') === (p.mode === 'production'))));
    assert.deepEqual(plan.filter((p) => p.fault === null).map((p) => p.mode ?? 'sandbox'), ['sandbox', 'production']);
    const prod = plan.find((p) => p.fault === 'api-key-accepted-in-production');
    assert.deepEqual(prod && projectMetadata(prod), { fault: 'api-key-accepted-in-production', mode: 'production', profile: 'fixtures/targets/reference-production.yaml' });
  });

  it('parses flags strictly', () => {
    assert.deepEqual(parseMutationArgs(['--faults', 'a, b', '--workers', '2', '--full']), { faults: ['a', 'b'], workers: 2, full: true });
    assert.deepEqual(parseMutationArgs(['--subset', 'ci']), { subset: 'ci' });
    assert.throws(() => parseMutationArgs(['--subset', 'nightly']), MutationUsageError);
    assert.throws(() => parseMutationArgs(['--workers', '0']), MutationUsageError);
    assert.throws(() => parseMutationArgs(['--bogus']), MutationUsageError);
    assert.deepEqual(parseMutationArgs(['--faults', 'paging-gap', '--grep', '^model: ']), { faults: ['paging-gap'], grep: '^model: ' });
    assert.throws(() => parseMutationArgs(['--grep', '(unclosed']), MutationUsageError);
    assert.throws(() => parseMutationArgs(['--grep', '']), MutationUsageError);
    assert.deepEqual(parseMutationArgs(['--mode', 'no-control', '--faults', 'a']), { faults: ['a'], mode: 'no-control' });
    assert.deepEqual(parseMutationArgs(['--mode', 'reference']), {});
    assert.throws(() => parseMutationArgs(['--mode', 'clockless']), MutationUsageError);
  });

  it('no-control mode: the clock-only faults are real faults, and a not-run fault shows its reason in the table', () => {
    for (const name of Object.keys(CLOCK_ONLY_FAULTS)) assert.ok(FAULTS.some((f) => f.name === name), name);
    const report: MutationReport = {
      clean: { passed: 2, failed: 0 },
      faults: [
        { name: 'paging-gap', clauses: ['EP-EVENT-PAGING'], failingScenarios: ['paging.traversal'], erroredScenarios: [], verdict: 'killed' },
        { name: 'default-date-wrong', clauses: ['ST-DEFAULT-DATE'], failingScenarios: [], erroredScenarios: [], verdict: 'survived' },
      ],
    };
    const facts: RunFacts = { wallMs: 1000, workers: 1, mode: 'targeted', notRunnable: { 'default-date-wrong': 'not observable without a clock: x' }, generatedAt: '2026-01-01T00:00:00Z', target: 'no-control' };
    const table = formatMatrix(report, facts);
    assert.match(table, /default-date-wrong +not run +- .*\[not run: not observable without a clock: x\]/);
    assert.match(table, /1 killed, 0 killed incidentally, 0 survived, 1 not run/);
    const md = renderFamilyTables(report, facts);
    assert.match(md, /\| family \| faults \| killed \| killed incidentally \| survived \| not run \| scenarios that failed \|/);
    assert.ok(md.includes('| **all** | 2 | 1 | 0 | 0 | 1 | |'), md);
    assert.match(md, /\| `default-date-wrong` \| .* \| \*\*not run \(not observable without a clock: x\)\*\* \|/);
  });

  it('writes reports/mutation.json exactly in the agreed shape and a markdown table row per fault', () => {
    const report: MutationReport = {
      clean: { passed: 2, failed: 0 },
      faults: [{ name: 'paging-gap', clauses: ['EP-EVENT-PAGING'], failingScenarios: ['paging.traversal'], erroredScenarios: [], verdict: 'killed' }],
    };
    const dir = mkdtempSync(join(tmpdir(), 'ftf-mutation-test-'));
    try {
      writeJsonReport(join(dir, 'm.json'), report);
      assert.deepEqual(JSON.parse(readFileSync(join(dir, 'm.json'), 'utf8')), report);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const facts: RunFacts = { wallMs: 1000, workers: 2, mode: 'targeted', notRunnable: {}, generatedAt: '2026-01-01T00:00:00Z' };
    const md = renderMarkdown(report, facts);
    assert.match(md, /### paging \(1: 1 killed\)\n\n\| fault \| deviation[^\n]*\n[^\n]*\n\| `paging-gap` \| .* \| EP-EVENT-PAGING \| `paging.traversal` \| \*\*killed\*\* \|/);
  });

  it('groups the kill table by family: a summary row per family in catalogue order, the total, one section per family', () => {
    const result = (name: string, verdict: Verdict, failing: string[] = []) =>
      ({ name, clauses: ['X'], failingScenarios: failing, erroredScenarios: [], verdict });
    const report: MutationReport = {
      clean: { passed: 3, failed: 0 },
      faults: [
        result('paging-gap', 'killed', ['paging.traversal']),
        result('client-auth-ignored', 'killed', ['token.bad-client']),
        result('fence-exclusive', 'survived'),
        result('page-size-off-by-one', 'killed-incidentally', ['amounts.validation-422', 'paging.traversal']),
      ],
    };
    const facts: RunFacts = { wallMs: 1000, workers: 1, mode: 'targeted', notRunnable: {}, generatedAt: '2026-01-01T00:00:00Z' };
    assert.deepEqual(byFamily(report).map((g) => [g.family, g.faults.map((f) => f.name)]), [
      ['token', ['client-auth-ignored']],
      ['paging', ['paging-gap', 'fence-exclusive', 'page-size-off-by-one']],
    ]);
    const md = renderFamilyTables(report, facts);
    const summary = md.split('\n').filter((l) => l.startsWith('| [') || l.startsWith('| **all**'));
    assert.deepEqual(summary, [
      '| [token](#family-token) | 1 | 1 | 0 | 0 | `token.bad-client` |',
      '| [paging](#family-paging) | 3 | 1 | 1 | 1 | `amounts.validation-422`, `paging.traversal` |',
      '| **all** | 4 | 2 | 1 | 1 | |',
    ]);
    assert.ok(md.indexOf('### token (1: 1 killed)') < md.indexOf('### paging (3: 1 killed)'));
    assert.match(md, /\| `fence-exclusive` \| .* \| X \| — \| \*\*survived\*\* \|/);
    assert.match(renderMarkdown(report, facts), /## Kill table by family\n\n\| family \| faults \|/);
  });

  it('a --grep run writes its own section of the page; a full run keeps it, a second run of the pattern replaces it', () => {
    const report: MutationReport = {
      clean: { passed: 1, failed: 0 },
      faults: [{ name: 'paging-gap', clauses: ['EP-EVENT-PAGING'], failingScenarios: ['properties.model-stateful'], erroredScenarios: [], verdict: 'killed' }],
    };
    const facts: RunFacts = { wallMs: 1000, workers: 1, mode: 'targeted', notRunnable: {}, generatedAt: '2026-01-01T00:00:00Z' };
    const run = { command: "ftf-conformance selftest --faults paging-gap --grep '^model: ' --workers 1 --write-docs", generatedAt: '2026-01-02T00:00:00Z', wallMs: 61_000, workers: 1, loadAtStart: [3, 2.5, 2], cores: 2 };
    assert.equal(sectionId('grep', '^model: '), 'grep-model');
    const dir = mkdtempSync(join(tmpdir(), 'ftf-mutation-test-'));
    const file = join(dir, 'mutation.md');
    try {
      writeMarkdown(file, report, facts);
      writeSection(file, 'grep-model', renderGrepSection(report, run, '^model: '));
      const once = readFileSync(file, 'utf8');
      assert.match(once, /<!-- section:grep-model -->\n## Restricted to `--grep \^model: `/);
      assert.match(once, /wall time 61\.0 s, load average at start 3\.00 \/ 2\.50 \/ 2\.00 \(1\/5\/15 min\) on 2 cores/);
      assert.match(once, /\| `paging-gap` \| paging \| \*\*killed\*\* \| `properties.model-stateful` \| EP-EVENT-PAGING \|/);
      writeMarkdown(file, report, { ...facts, generatedAt: '2026-01-03T00:00:00Z' });
      const regenerated = readFileSync(file, 'utf8');
      assert.match(regenerated, /2026-01-03T00:00:00Z: targeted mode/);
      assert.equal(regenerated.split('<!-- section:grep-model -->').length, 2, 'the section is kept once');
      writeSection(file, 'grep-model', renderGrepSection({ ...report, clean: { passed: 2, failed: 0 } }, run, '^model: '));
      const replaced = readFileSync(file, 'utf8');
      assert.equal(replaced.split('<!-- section:grep-model -->').length, 2);
      assert.match(replaced, /the selected tests only\): 2 passed/);
      assert.doesNotMatch(replaced, /the selected tests only\): 1 passed/);
      // A run of other faults keeps the rows of the faults it did not run, under the earlier run's line.
      const other: MutationReport = { clean: { passed: 1, failed: 0 }, faults: [{ name: 'fence-exclusive', clauses: ['EP-EVENT-FENCE'], failingScenarios: [], erroredScenarios: [], verdict: 'survived' }] };
      writeSection(file, 'grep-model', renderGrepSection(other, { ...run, generatedAt: '2026-01-04T00:00:00Z' }, '^model: ', readSection(file, 'grep-model')));
      const merged = readFileSync(file, 'utf8');
      assert.match(merged, /\| `fence-exclusive` \| paging \| \*\*survived\*\* \|/);
      assert.match(merged, /Kept from the earlier run of this section \(faults this run did not run; 1: 1 killed, 0 killed incidentally, 0 survived\)\. Its line: 2026-01-02T00:00:00Z: /);
      assert.match(merged, /\| `paging-gap` \| paging \| \*\*killed\*\* \|/);
      // Rerunning the kept fault moves it back into the run's own table.
      writeSection(file, 'grep-model', renderGrepSection(report, run, '^model: ', readSection(file, 'grep-model')));
      const back = readSection(file, 'grep-model') ?? '';
      assert.equal(back.split('| `paging-gap` |').length, 2, 'each fault has one row');
      assert.match(back, /1: 0 killed, 0 killed incidentally, 1 survived\)\. Its line: 2026-01-04T00:00:00Z: /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('precision: the clauses a fault\'s verdict names against its own (issue 24)', () => {
  const record = (scenario: string, clauses: string[]) => testsOf({ suites: [{ specs: [{ title: `${scenario}: t`, tests: [
    { projectName: 'f', status: 'unexpected', annotations: ann(scenario, ['EP-EVENT-PAGING', 'EVS-ORDER']), results: run('failed', failedCheck(clauses)) },
  ] }] }] } as PwJsonReport);

  it('exact, one extra, more; the named clauses are the failed checks\' own, not the scenarios\' covers', () => {
    const exact = faultResult('f', ['EP-EVENT-PAGING'], record('paging.traversal', ['EP-EVENT-PAGING']));
    assert.deepEqual([exact.verdict, exact.named, exact.precision], ['killed', ['EP-EVENT-PAGING'], 'exact']);
    const one = faultResult('f', ['EP-EVENT-PAGING'], [...record('paging.traversal', ['EP-EVENT-PAGING']), ...record('paging.fence-head', ['EVS-ORDER'])]);
    assert.deepEqual([one.named, one.precision], [['EP-EVENT-PAGING', 'EVS-ORDER'], 'one-extra']);
    const more = faultResult('f', ['EP-EVENT-PAGING'], record('paging.traversal', ['EP-EVENT-PAGING', 'EVS-ORDER', 'RES-DATE']));
    assert.equal(more.precision, 'more');
    assert.equal(faultResult('f', ['EP-EVENT-PAGING'], []).precision, 'none');
  });

  it('a check in doubt names its clauses only when none of them is proven broken by another failed check', () => {
    const doubtRecord = (scenario: string) => testsOf({ suites: [{ specs: [{ title: `${scenario}: t`, tests: [
      { projectName: 'f', status: 'unexpected', annotations: ann(scenario, ['EP-EVENT-FENCE']), results: run('failed', rec({
        status: 'failed', code: 'FTF_E_CHECK_FAILED', kind: 'non-conformance', clauses: ['EP-EVENT-FENCE', 'EP-EVENT-PAGING'], checks: ['where'],
        outcomes: [{ check: 'where', clauses: ['EP-EVENT-FENCE', 'EP-EVENT-PAGING'], level: 'must', status: 'failed', inDoubt: true }],
      })) },
    ] }] }] } as PwJsonReport);
    const proof = testsOf({ suites: [{ specs: [{ title: 'paging.traversal: t', tests: [
      { projectName: 'f', status: 'unexpected', annotations: ann('paging.traversal', ['EP-EVENT-PAGING']), results: run('failed', rec({
        status: 'failed', code: 'FTF_E_CHECK_FAILED', kind: 'non-conformance', clauses: ['EP-EVENT-PAGING'], checks: ['where'],
        outcomes: [{ check: 'where', clauses: ['EP-EVENT-PAGING'], level: 'must', status: 'failed' }],
      })) },
    ] }] }] } as PwJsonReport);
    const explained = faultResult('paging-gap', ['EP-EVENT-PAGING'], [...doubtRecord('paging.fence-append'), ...proof]);
    assert.deepEqual([explained.named, explained.precision], [['EP-EVENT-PAGING'], 'exact']);
    const unexplained = faultResult('paging-gap', ['EP-EVENT-PAGING'], doubtRecord('paging.fence-append'));
    assert.deepEqual([unexplained.named, unexplained.precision], [['EP-EVENT-FENCE', 'EP-EVENT-PAGING'], 'one-extra']);
  });

  it('the console prints per fault the clauses named vs the fault\'s, and the precision figure', () => {
    const faults = [
      faultResult('a', ['EP-EVENT-PAGING'], record('paging.traversal', ['EP-EVENT-PAGING'])),
      faultResult('b', ['EP-EVENT-PAGING'], record('paging.traversal', ['EP-EVENT-PAGING', 'EVS-ORDER'])),
    ];
    const text = formatMatrix({ clean: { passed: 1, failed: 0 }, faults }, { wallMs: 1, workers: 1, mode: 'targeted', notRunnable: {}, generatedAt: '' });
    assert.match(text, /named\s+EP-EVENT-PAGING, EVS-ORDER vs the fault's EP-EVENT-PAGING: one-extra/);
    assert.match(text, /precision: 1 of 2 killed faults name exactly their clauses \(50 %\), 1 one extra, 0 more/);
  });
});

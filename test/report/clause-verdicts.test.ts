/**
 * Verdicts from the checks' own clauses and levels (issue 24): a must-level check fails the run inside a
 * scenario that covers only a should clause; a should-level check stays a warning; a clause is failed only by
 * a failed check of that clause, never because its scenario failed on another clause's check. The records are
 * built by the real record builder (record-outcome.ts) from CheckResults as the engine makes them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { result, type CheckResult } from '../../src/harness/checks/types.js';
import { CheckFailure } from '../../src/harness/engine/errors.js';
import { outcomeFromError, passedOutcome } from '../../src/harness/report/record-outcome.js';
import type { OutcomeRecord } from '../../src/harness/report/outcome.js';
import type { ScenarioResult } from '../../src/harness/report/scenario-results.js';
import { exitCodeFor, scenarioOutcome, summarize } from '../../src/harness/report/verdicts.js';
import { loadClauseCatalogue } from '../../src/harness/spec/clauses.js';

const catalogue = loadClauseCatalogue();

const check = (name: string, passed: boolean, clauses: string[], severity: 'must' | 'should' = 'must'): CheckResult => ({
  ...result(name, passed, severity, 'x', passed ? 'x' : 'y', passed ? 'ok' : `${name} failed`),
  clauses,
});

function scenario(id: string, covers: string[], checks: CheckResult[]): ScenarioResult {
  const context = { covers, evidence: { exchanges: [] }, checks };
  const failing = checks.filter((c) => !c.passed && c.severity === 'must');
  const record: OutcomeRecord = failing.length > 0 ? outcomeFromError(new CheckFailure(failing), context) : passedOutcome(context);
  return {
    id, title: id, file: `specs/x/${id}.yaml`, family: 'x', clauses: covers, tags: [], project: 'sandbox',
    outcome: record.status === 'passed' ? 'expected' : 'unexpected', lastStatus: record.status === 'passed' ? 'passed' : 'failed',
    warnings: [], errors: [], record, durationMs: 1, retries: 0,
  };
}

test('the clause catalogue still has the should clause these tests lean on', () => {
  assert.equal(catalogue.byId.get('ERR-NO-SERVER-ERROR')?.level, 'should');
  assert.equal(catalogue.byId.get('RES-VALIDATION-ERROR')?.level, 'must');
});

test('a must-level check failing inside a should-level scenario fails the run', () => {
  // errors.no-server-error-*: covers a should clause; the 422 body's layout is judged by a must-level rule.
  const s = scenario('errors.no-server-error-write', ['ERR-NO-SERVER-ERROR'], [
    check('status', true, ['ERR-NO-SERVER-ERROR']),
    check('rule:validation-layout', false, ['RES-VALIDATION-ERROR', 'ERR-VALIDATION-422']),
  ]);
  const outcome = scenarioOutcome(s, catalogue);
  assert.equal(outcome.verdict, 'failed', 'the check\'s clause, not the scenario\'s, decides the level');
  const summary = summarize([outcome], catalogue, { failOn: 'must' });
  assert.equal(summary.overall, 'non-conformant');
  assert.equal(exitCodeFor(summary), 1);
  const verdict = (id: string) => summary.clauses.find((c) => c.id === id)?.verdict;
  assert.equal(verdict('RES-VALIDATION-ERROR'), 'failed', 'the rule\'s clause is failed, though the scenario does not cover it');
  assert.equal(verdict('ERR-NO-SERVER-ERROR'), 'passed', 'the covered clause whose check passed is not blamed');
});

test('a should-level check stays a warning, and must-level checks of should clauses are warnings too', () => {
  const s = scenario('errors.no-server-error-read', ['ERR-NO-SERVER-ERROR'], [check('status', false, ['ERR-NO-SERVER-ERROR'])]);
  const outcome = scenarioOutcome(s, catalogue);
  assert.equal(outcome.verdict, 'warning');
  const summary = summarize([outcome], catalogue, { failOn: 'must' });
  assert.equal(summary.overall, 'conformant');
  assert.equal(summary.clauses.find((c) => c.id === 'ERR-NO-SERVER-ERROR')?.verdict, 'warning');
  assert.equal(summarize([outcome], catalogue, { failOn: 'should' }).overall, 'non-conformant');
});

test('a clause covered by a failing scenario whose own checks passed is not blamed', () => {
  // The model property's shape: many clauses covered, one check fails on ERR-AMOUNT-MIN.
  const model = scenario('properties.model', ['RES-CHECKPOINT', 'ERR-AMOUNT-MIN', 'EP-SUBSCRIBE-REPLAY'], [
    check('schema', true, ['RES-CHECKPOINT']),
    check('status', false, ['ERR-AMOUNT-MIN']),
  ]);
  const checkpoints = scenario('checkpoints.create', ['RES-CHECKPOINT'], [check('schema', true, ['RES-CHECKPOINT'])]);
  const summary = summarize([model, checkpoints].map((s) => scenarioOutcome(s, catalogue)), catalogue);
  const clause = (id: string) => summary.clauses.find((c) => c.id === id);
  assert.equal(clause('ERR-AMOUNT-MIN')?.verdict, 'failed');
  assert.equal(clause('RES-CHECKPOINT')?.verdict, 'passed');
  assert.deepEqual(clause('RES-CHECKPOINT')?.scenarios, [{ id: 'properties.model', verdict: 'passed' }, { id: 'checkpoints.create', verdict: 'passed' }]);
  assert.equal(clause('EP-SUBSCRIBE-REPLAY')?.verdict, 'not-tested', 'covered, no check of it ran before the failure');
  assert.deepEqual(summary.clauses.filter((c) => c.verdict === 'failed').map((c) => c.id), ['ERR-AMOUNT-MIN']);
});

test('the failed check outcome carries its clause, level, step and YAML position', () => {
  const failing = { ...check('detail', false, ['ERR-AMOUNT-MIN']), step: 'expect last: detail', at: { file: `${process.cwd()}/specs/amounts/minimum-primary.yaml`, line: 12, column: 5 } };
  const record = outcomeFromError(new CheckFailure([failing]), { covers: ['ERR-AMOUNT-MIN', 'EP-SUBSCRIBE-BODY'], evidence: { exchanges: [] }, checks: [failing] });
  assert.deepEqual(record.outcomes, [{ check: 'detail', clauses: ['ERR-AMOUNT-MIN'], level: 'must', status: 'failed', message: 'detail failed', expected: 'x', actual: 'y', step: 'expect last: detail', location: 'specs/amounts/minimum-primary.yaml:12:5' }]);
  assert.deepEqual(record.clauses, ['ERR-AMOUNT-MIN']);
});

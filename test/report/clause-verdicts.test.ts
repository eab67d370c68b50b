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
import { outcomeFromError, passedOutcome } from '../../src/harness/report/records/record-outcome.js';
import type { OutcomeRecord } from '../../src/harness/report/records/outcome.js';
import type { ScenarioResult } from '../../src/harness/report/records/scenario-results.js';
import { exitCodeFor, scenarioOutcome, summarize } from '../../src/harness/report/verdicts/verdicts.js';
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

test('"in doubt between A and B" is a verdict of its own, with the evidence, in every output', async () => {
  const { formatSummary } = await import('../../src/cli/pipeline.js');
  const { junitXml } = await import('../../src/harness/report/outputs/junit.js');
  const { allureMessageOf, CATEGORIES } = await import('../../src/harness/report/outputs/allure.js');
  const { buildCertificateBody } = await import('../../src/harness/report/outputs/certificate.js');
  const { certificateMarkdown } = await import('../../src/harness/report/outputs/certificate-render.js');
  // amounts.subscription-date-past's shape: an Issued holding dated D, and the target still lists D - 3 days as valid.
  const doubt: CheckResult = {
    ...check('where', false, ['ERR-SUBSCRIPTION-DATE', 'ST-ISSUE-AFTER-CUTOFF']),
    doubt: true,
    message: 'holding H1 is Issued with issueDate 2026-03-09, yet 2026-03-06 is listed and accepted',
    at: { file: 'specs/amounts/subscription-date-past.yaml', line: 40, column: 5 },
  };
  const s = scenario('amounts.subscription-date-past', ['ERR-SUBSCRIPTION-DATE'], [check('status', true, ['EP-SUBSCRIBE-BODY']), doubt]);
  const outcome = scenarioOutcome(s, catalogue);
  assert.equal(outcome.verdict, 'failed', 'one of the two clauses is broken for sure: the run fails');
  const summary = summarize([outcome], catalogue, { failOn: 'must' });
  assert.equal(summary.overall, 'non-conformant');
  const clause = (id: string) => summary.clauses.find((c) => c.id === id);
  for (const [id, other] of [['ERR-SUBSCRIPTION-DATE', 'ST-ISSUE-AFTER-CUTOFF'], ['ST-ISSUE-AFTER-CUTOFF', 'ERR-SUBSCRIPTION-DATE']] as const) {
    assert.equal(clause(id)?.verdict, 'in-doubt');
    assert.deepEqual(clause(id)?.doubts?.map((d) => ({ with: d.with, scenario: d.scenario, location: d.location })), [{ with: [other], scenario: 'amounts.subscription-date-past', location: 'specs/amounts/subscription-date-past.yaml:40:5' }]);
  }
  assert.equal(summary.clauses.filter((c) => c.verdict === 'failed').length, 0, 'neither clause is called broken on its own');
  // A proof elsewhere (a check naming the clause alone) makes it failed, not in doubt.
  const proof = scenario('amounts.subscription-date-invalid', ['ERR-SUBSCRIPTION-DATE'], [check('status', false, ['ERR-SUBSCRIPTION-DATE'])]);
  const both = summarize([outcome, scenarioOutcome(proof, catalogue)], catalogue);
  assert.equal(both.clauses.find((c) => c.id === 'ERR-SUBSCRIPTION-DATE')?.verdict, 'failed');

  const console = formatSummary(summary);
  assert.match(console, /clauses in doubt: ERR-SUBSCRIPTION-DATE \/ ST-ISSUE-AFTER-CUTOFF \(one of them is broken\): amounts\.subscription-date-past at specs\/amounts\/subscription-date-past\.yaml:40:5: holding H1 is Issued/);
  assert.doesNotMatch(console, /clauses broken:/);
  const parsed = JSON.parse(JSON.stringify(summary)) as typeof summary;
  assert.equal(parsed.clauses.find((c) => c.id === 'ST-ISSUE-AFTER-CUTOFF')?.verdict, 'in-doubt', 'verdicts.json carries it');
  const xml = junitXml(summary);
  assert.match(xml, /<property name="in_doubt" value="ERR-SUBSCRIPTION-DATE \/ ST-ISSUE-AFTER-CUTOFF"\/>/);
  assert.match(xml, /in doubt between ERR-SUBSCRIPTION-DATE and ST-ISSUE-AFTER-CUTOFF \(one of them is broken\): holding H1/);
  const message = allureMessageOf(outcome.record) ?? '';
  const category = CATEGORIES.find((c) => c.messageRegex && new RegExp(c.messageRegex).test(message));
  assert.equal(category?.name, 'In doubt between clauses');
  assert.match(message, /in doubt between ERR-SUBSCRIPTION-DATE and ST-ISSUE-AFTER-CUTOFF: holding H1/);
  const body = buildCertificateBody({
    target: { name: 'ref', base_url: 'embedded', auth_url: 'embedded', environment: 'sandbox', capabilities: [] },
    summary, catalogue, startedAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-01T00:01:00.000Z', waivers: [], evidence: [],
  });
  const entry = body.clauses.find((c) => c.id === 'ERR-SUBSCRIPTION-DATE');
  assert.equal(entry?.verdict, 'in-doubt');
  assert.deepEqual(entry?.in_doubt_with?.[0]?.clauses, ['ST-ISSUE-AFTER-CUTOFF']);
  assert.match(certificateMarkdown({ ...body, signature: { algorithm: 'Ed25519', public_key: '', public_key_sha256: '', value: '' } }), /\| ERR-SUBSCRIPTION-DATE \| must \| IN DOUBT with ST-ISSUE-AFTER-CUTOFF: holding H1/);
});

test('an errored scenario blames none of its clauses: not judged, with the code and kind, unless a check of one had failed', async () => {
  const { formatSummary } = await import('../../src/cli/pipeline.js');
  const { FtfError } = await import('../../src/shared/errors.js');
  // A should-level check of ERR-NO-SERVER-ERROR failed, then the target timed out: that judgement stands, the rest is not judged.
  const checks = [check('status', true, ['EP-HOLDING-GET']), check('schema', false, ['ERR-NO-SERVER-ERROR'], 'should')];
  const record = outcomeFromError(new FtfError('FTF_E_TARGET_TIMEOUT', 'no answer within 2000 ms'), { covers: ['EP-HOLDING-GET', 'ERR-NOT-FOUND'], evidence: { exchanges: [] }, checks });
  assert.equal(record.status, 'errored');
  const s: ScenarioResult = {
    id: 'errors.not-found', title: 'errors.not-found', file: 'specs/errors/not-found.yaml', family: 'errors', clauses: ['EP-HOLDING-GET', 'ERR-NOT-FOUND'], tags: [],
    project: 'sandbox', outcome: 'unexpected', lastStatus: 'failed', warnings: [], errors: [], record, durationMs: 1, retries: 0,
  };
  const outcome = scenarioOutcome(s, catalogue);
  assert.equal(outcome.verdict, 'errored');
  const summary = summarize([outcome], catalogue);
  const verdict = (id: string) => summary.clauses.find((c) => c.id === id)?.verdict;
  assert.equal(verdict('EP-HOLDING-GET'), 'errored');
  assert.equal(verdict('ERR-NOT-FOUND'), 'errored');
  assert.equal(verdict('ERR-NO-SERVER-ERROR'), 'warning', 'a check that had failed keeps its judgement');
  const text = formatSummary(summary);
  assert.doesNotMatch(text, /clauses broken:/);
  assert.match(text, /clauses not judged \(errored\): EP-HOLDING-GET \(FTF_E_TARGET_TIMEOUT target\), ERR-NOT-FOUND \(FTF_E_TARGET_TIMEOUT target\)/);
});

test('a doubt explained by a proven breach of one of its clauses blames nothing more', () => {
  // paging.fence-append's shape: a short read is in doubt between the fence and the paging; paging.traversal proves the paging broke.
  const doubt: CheckResult = { ...check('where', false, ['EP-EVENT-FENCE', 'EP-EVENT-PAGING']), doubt: true };
  const fence = scenario('paging.fence-append', ['EP-EVENT-FENCE'], [doubt]);
  const proof = scenario('paging.traversal', ['EP-EVENT-PAGING'], [check('where', false, ['EP-EVENT-PAGING'])]);
  const summary = summarize([fence, proof].map((s) => scenarioOutcome(s, catalogue)), catalogue);
  const verdict = (id: string) => summary.clauses.find((c) => c.id === id)?.verdict;
  assert.equal(verdict('EP-EVENT-PAGING'), 'failed');
  assert.equal(verdict('EP-EVENT-FENCE'), 'not-tested', 'the proven paging breach accounts for the short read');
  assert.equal(summary.clauses.some((c) => c.doubts?.length), false);
  // Alone, the same check leaves both in doubt.
  const alone = summarize([scenarioOutcome(fence, catalogue)], catalogue);
  assert.equal(alone.clauses.find((c) => c.id === 'EP-EVENT-FENCE')?.verdict, 'in-doubt');
});

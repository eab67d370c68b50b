import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { allureMetadataFor, CATEGORIES, readAllureEnvironment, writeAllureSupportFiles } from '../../src/harness/report/allure.js';
import { historyKey, runIdentity, runLabel } from '../../src/harness/report/allure-history.js';
import { outcomeLine, type OutcomeRecord } from '../../src/harness/report/outcome.js';
import { catalogue, demoReport, outcomes } from './helpers.js';

test('labels: epic = spec area, feature = family, story = scenario, severity from the clause level, links to clauses', () => {
  const must = allureMetadataFor({ id: 'token.root', title: 'token endpoint at the root', family: 'token', clauses: ['AUTH-TOKEN-ROOT', 'RES-ERROR-BODY'], tags: ['@smoke'] }, catalogue);
  const label = (name: string) => must.labels.filter((l) => l.name === name).map((l) => l.value);
  assert.deepEqual(label('epic'), ['Authentication', 'Resources']);
  assert.deepEqual(label('feature'), ['token']);
  assert.deepEqual(label('story'), ['token endpoint at the root']);
  assert.deepEqual(label('severity'), ['critical']);
  assert.deepEqual(label('tag'), ['smoke']);
  assert.deepEqual(must.links.map((l) => l.name), ['AUTH-TOKEN-ROOT', 'RES-ERROR-BODY']);
  assert.ok(must.annotations.some((a) => a.type === 'allure.label.epic' && a.description === 'Authentication'));
  const should = allureMetadataFor({ id: 'x', title: 'no 5xx', family: 'errors', clauses: ['ERR-NO-SERVER-ERROR'] }, catalogue);
  assert.deepEqual(should.labels.filter((l) => l.name === 'severity').map((l) => l.value), ['normal']);
  assert.deepEqual(should.labels.filter((l) => l.name === 'epic').map((l) => l.value), ['Errors and limits']);
  const fromLevel = allureMetadataFor({ id: 'x', title: 't', family: 'f', clauses: ['ERR-NO-SERVER-ERROR'], level: 'should' });
  assert.deepEqual(fromLevel.labels.filter((l) => l.name === 'severity').map((l) => l.value), ['normal'], 'Scenario.level works without the catalogue');
});

test('categories classify failures by the outcome line the entry ends their trace with, not by body text', () => {
  const categoryOf = (status: string, trace: string) =>
    CATEGORIES.find((c) => c.matchedStatuses.includes(status) && (!c.traceRegex || new RegExp(c.traceRegex).test(trace)))?.name;
  const traceOf = (o: ReturnType<typeof outcomes>[number]) => `${o.messages.join('\n')}\n${outcomeLine(o.record)}`;
  const byId = new Map(outcomes(demoReport()).map((o) => [o.id, o]));
  assert.equal(categoryOf('failed', traceOf(byId.get('demo.wrong-status')!)), 'Wrong status');
  assert.equal(categoryOf('failed', traceOf(byId.get('demo.timeout')!)), 'Target error');
  assert.equal(categoryOf('broken', 'Test timeout of 60000ms exceeded.'), 'Scenario timeout');
  const rec = (over: Partial<OutcomeRecord>): OutcomeRecord => ({ status: 'failed', kind: 'non-conformance', code: 'FTF_E_CHECK_FAILED', clauses: ['X'], checks: [], exchanges: [], warnings: [], ...over });
  // The body quotes every word the old message regexes looked for; the outcome line alone decides.
  const hostile = 'CheckFailure: [schema] GET /x → 200: body: {"detail":"FTF_E_TARGET_RESET StepError: Test timeout of 1ms exceeded TypeError: [status] [count]"}\n    at specs/x.yaml:3:5';
  assert.equal(categoryOf('failed', `${hostile}\n${outcomeLine(rec({ checks: ['schema'] }))}`), 'Schema violation');
  assert.equal(categoryOf('failed', `${hostile}\n${outcomeLine(rec({ checks: ['detail'] }))}`), 'Wrong detail text');
  assert.equal(categoryOf('failed', `${hostile}\n${outcomeLine(rec({ checks: ['json', 'count'] }))}`), 'Race / concurrency');
  assert.equal(categoryOf('failed', `${hostile}\n${outcomeLine(rec({ checks: ['rule:validation-layout'] }))}`), 'Response rule (failure layout / fixed text)');
  assert.equal(categoryOf('failed', `${hostile}\n${outcomeLine(rec({ checks: ['json', 'rule:forbidden-detail'] }))}`), 'Response rule (failure layout / fixed text)');
  assert.equal(categoryOf('failed', `${hostile}\n${outcomeLine(rec({ checks: ['json'] }))}`), 'Other check failure');
  assert.equal(categoryOf('failed', `${hostile}\n${outcomeLine(rec({ status: 'errored', kind: 'internal', code: 'FTF_E_INTERNAL', clauses: [] }))}`), 'Harness error');
  assert.equal(categoryOf('failed', `${hostile}\n${outcomeLine(rec({ status: 'errored', kind: 'input', code: 'FTF_E_STEP_FAILED', clauses: [] }))}`), 'Harness error');
  assert.equal(categoryOf('failed', hostile), 'Failed outside the scenario', 'without the outcome line the body text classifies nothing');
  assert.equal(categoryOf('failed', `${outcomeLine(rec({ checks: ['status'] }))}\nbody: later text`), 'Failed outside the scenario', 'only the last line counts');
  // Every regex also works as a Java full match would: it spans the whole multi-line trace.
  for (const c of CATEGORIES) if (c.traceRegex) assert.match(c.traceRegex, /^\[\\s\\S\]\*.*\$$/);
  assert.ok(CATEGORIES.every((c) => c.messageRegex === undefined), 'no category reads the message');
});

test('environment.properties and categories.json are written into allure-results', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ftf-allure-env-'));
  try {
    writeAllureSupportFiles(dir, { targetName: 'Sandbox: EU=1', baseUrl: 'https://s.example/api/v1', environment: 'sandbox', capabilities: ['mutation'], specSha256: 'ab'.repeat(32), harnessVersion: '0.1.0' });
    const props = readFileSync(join(dir, 'environment.properties'), 'utf8');
    assert.match(props, /^Target=Sandbox\\: EU\\=1$/m);
    assert.match(props, /^Base\.URL=https\\:\/\/s\.example\/api\/v1$/m);
    assert.match(props, /^Spec\.sha256=(ab){32}$/m);
    assert.match(props, /^Harness\.version=0\.1\.0$/m);
    const cats = JSON.parse(readFileSync(join(dir, 'categories.json'), 'utf8')) as { name: string }[];
    assert.ok(cats.some((c) => c.name === 'Schema violation'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('environment.properties reads back as written; the history key and run label come from it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ftf-allure-id-'));
  try {
    writeAllureSupportFiles(dir, {
      targetName: 'Sandbox: EU=1 #2',
      baseUrl: 'https://s.example/api/v1',
      environment: 'sandbox',
      capabilities: ['mutation', 'clock'],
      specSha256: 'ab'.repeat(32),
      harnessVersion: '0.1.0',
      harnessCommit: 'c0ffee',
      implementationVersion: '2.0 (header x-version)',
    });
    const env = readAllureEnvironment(dir);
    assert.equal(env['Target'], 'Sandbox: EU=1 #2');
    assert.equal(env['Base.URL'], 'https://s.example/api/v1');
    assert.equal(env['Capabilities'], 'mutation, clock');
    const id = runIdentity(dir);
    assert.deepEqual(runLabel(id), { Target: 'Sandbox: EU=1 #2 (https://s.example/api/v1)', Implementation: '2.0 (header x-version)', Harness: 'commit c0ffee' });
    assert.match(historyKey(id.target, id.baseUrl), /^sandbox-eu-1-2-[0-9a-f]{8}$/);
    assert.notEqual(historyKey('t', 'https://a'), historyKey('t', 'https://b'), 'the base URL is part of the key');
    assert.equal(historyKey('t', 'https://a'), historyKey('t', 'https://a'), 'the key is stable');
    assert.equal(runLabel({ target: 't', baseUrl: '', harnessVersion: '0.1.0' }).Harness, 'version 0.1.0', 'without git the package version stands in');
    assert.deepEqual(runIdentity(join(dir, 'missing')), { target: 'unknown-target', baseUrl: '' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("each test's Allure description carries the wording of the clauses it covers, from clauses.yaml", () => {
  const meta = allureMetadataFor({ id: 'x', title: 't', family: 'token', clauses: ['AUTH-TOKEN-ROOT', 'ERR-NO-SERVER-ERROR', 'NOT-A-CLAUSE'], description: 'Checks the token endpoint.\n' }, catalogue);
  const root = catalogue.byId.get('AUTH-TOKEN-ROOT')!;
  const noServerError = catalogue.byId.get('ERR-NO-SERVER-ERROR')!;
  assert.equal(
    meta.description,
    [
      'Checks the token endpoint.',
      '',
      'Covers:',
      '',
      `- **AUTH-TOKEN-ROOT** (must; ${root.ref}): ${root.says.trim()}`,
      `- **ERR-NO-SERVER-ERROR** (should; ${noServerError.ref}): ${noServerError.says.trim()}`,
      '- **NOT-A-CLAUSE** (not in clauses.yaml)',
    ].join('\n'),
  );
  assert.ok(root.says.length > 20, 'the wording, not only the id');
  // allure-playwright makes an annotation of type `description` the test's description.
  assert.deepEqual(meta.annotations.filter((a) => a.type === 'description'), [{ type: 'description', description: meta.description }]);
  assert.equal(allureMetadataFor({ id: 'x', title: 't', family: 'f', clauses: [] }, catalogue).description, 'Covers no clause.');
});

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { allureMessageOf, allureMetadataFor, allureStatusOf, CATEGORIES, readAllureEnvironment, writeAllureSupportFiles } from '../../src/harness/report/outputs/allure.js';
import { historyKey, runIdentity, runLabel } from '../../src/harness/report/outputs/allure-history.js';
import type { OutcomeRecord } from '../../src/harness/report/records/outcome.js';
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

test('categories classify by the record (its status, kind and failing checks), never by body text', () => {
  // Allure matches a category's regex against the whole status message (a full match) of a result whose status it lists.
  const categoryOf = (record: OutcomeRecord) => {
    const status = allureStatusOf(record);
    const message = allureMessageOf(record);
    return CATEGORIES.find((c) => c.matchedStatuses.includes(status) && (!c.messageRegex || new RegExp(`^(?:${c.messageRegex})$`).test(message ?? '')))?.name;
  };
  const byId = new Map(outcomes(demoReport()).map((o) => [o.id, o]));
  assert.equal(categoryOf(byId.get('demo.wrong-status')!.record), 'Wrong status');
  assert.equal(categoryOf(byId.get('demo.timeout')!.record), 'Target error');
  // The reason quotes every word a text classifier would look for; the record's line alone decides.
  const hostile = 'CheckFailure: [schema] GET /x → 200: body: {"detail":"outcome: errored internal FTF_E_TARGET_RESET StepError: Test timeout of 1ms exceeded TypeError: [status] [count]"}';
  const rec = (over: Partial<OutcomeRecord>): OutcomeRecord => ({ status: 'failed', kind: 'non-conformance', code: 'FTF_E_CHECK_FAILED', clauses: ['X'], checks: [], exchanges: [], warnings: [], reason: hostile, ...over });
  assert.equal(categoryOf(rec({ checks: ['schema'] })), 'Schema violation');
  assert.equal(categoryOf(rec({ checks: ['detail'] })), 'Wrong detail text');
  assert.equal(categoryOf(rec({ checks: ['json', 'count'] })), 'Race / concurrency');
  assert.equal(categoryOf(rec({ checks: ['rule:validation-layout'] })), 'Response rule (failure layout / fixed text)');
  assert.equal(categoryOf(rec({ checks: ['json', 'rule:forbidden-detail'] })), 'Response rule (failure layout / fixed text)');
  assert.equal(categoryOf(rec({ checks: ['property'], code: 'FTF_E_PROPERTY_VIOLATION' })), 'Property violation');
  assert.equal(categoryOf(rec({ checks: ['json'] })), 'Other check failure');
  assert.equal(categoryOf(rec({ status: 'errored', kind: 'internal', code: 'FTF_E_INTERNAL', clauses: [] })), 'Harness error');
  assert.equal(categoryOf(rec({ status: 'errored', kind: 'input', code: 'FTF_E_STEP_FAILED', clauses: [] })), 'Invalid input (scenario, profile)');
  assert.equal(categoryOf(rec({ status: 'errored', kind: 'target', code: 'FTF_E_SCENARIO_TIMEOUT', clauses: [] })), 'Scenario timeout');
  assert.equal(categoryOf(rec({ status: 'errored', kind: 'target', code: 'FTF_E_TARGET_RESET', clauses: [] })), 'Target error');
  assert.equal(allureStatusOf(rec({ status: 'errored' })), 'broken', 'errored is broken');
  assert.equal(allureStatusOf(rec({ status: 'not-applicable' })), 'skipped');
  assert.ok(CATEGORIES.every((c) => c.traceRegex === undefined), 'no category reads the trace (error text)');
  for (const c of CATEGORIES) if (c.messageRegex) assert.match(c.messageRegex, /^\^outcome: /, 'anchored at the harness-written first line');
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

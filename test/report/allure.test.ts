import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { allureMetadataFor, CATEGORIES, writeAllureSupportFiles } from '../../src/harness/report/allure.js';
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

test('categories classify the messages the engine produces', () => {
  const categoryOf = (message: string) => CATEGORIES.find((c) => c.matchedStatuses.includes('broken') && (!c.messageRegex || new RegExp(c.messageRegex).test(message)))?.name;
  const msgs = new Map(outcomes(demoReport()).map((o) => [o.id, o.messages.join('\n')]));
  assert.equal(categoryOf(msgs.get('demo.wrong-status')!), 'Wrong status');
  assert.equal(categoryOf(msgs.get('demo.timeout')!), 'Timeout or target error');
  assert.equal(categoryOf('CheckFailure: [schema] GET /x → 200: body does not match holding: /cost must be number'), 'Schema violation');
  assert.equal(categoryOf('CheckFailure: [detail] POST /subscribe → 400: expected detail "Amount is below the indication minimum.", got "too small"'), 'Wrong detail text');
  assert.equal(categoryOf('CheckFailure: [count] PATCH x10: expected exactly one 200, got 3'), 'Race / concurrency');
  // Every regex also works as a Java full match would: it spans the whole multi-line message.
  for (const c of CATEGORIES) if (c.messageRegex) assert.match(c.messageRegex, /^\[\\s\\S\]\*\(\?:.*\)\[\\s\\S\]\*$/);
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

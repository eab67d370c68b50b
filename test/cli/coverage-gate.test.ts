/**
 * Issue 30, item 2: coverage as a gate. The console, verdicts.json, JUnit and the certificate state the clauses
 * judged / not judged (by level) and the scenarios skipped by reason; `--min-clauses <n|all-must>` and
 * `--max-skipped <n>` fail the gate (exit 1, with the list); the certificate says "partial" when must clauses
 * were not judged. The recorded report of the fixture catalogue (test/fixtures/report: 4 must clauses, 1 should).
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { JSONReport, JSONReportSuite } from '@playwright/test/reporter';
import { clauseCoverage, coverageGateProblems } from '../../src/harness/report/verdicts/clause-coverage.js';
import { buildCertificateBody, signCertificate } from '../../src/harness/report/outputs/certificate.js';
import { certificateMarkdown } from '../../src/harness/report/outputs/certificate-render.js';
import { loadSigningKey } from '../../src/harness/report/outputs/signing.js';
import { summarize } from '../../src/harness/report/verdicts/verdicts.js';
import { loadClauseCatalogue } from '../../src/harness/spec/clauses.js';
import { cli, fakePlaywright, FIXTURES, scratch } from './helpers.js';

const dir = scratch('ftf-cli-coverage-gate-');
after(() => rmSync(dir, { recursive: true, force: true }));
const reports = process.env.FTF_REPORTS_DIR!;
process.env.FTF_SPECS_DIR = join(FIXTURES, 'specs');
process.env.FTF_SPEC_DIR = join(FIXTURES, 'spec');
const recorded = JSON.parse(readFileSync(join(FIXTURES, 'playwright-results.json'), 'utf8')) as JSONReport;

function only(...ids: string[]): JSONReport {
  const keep = (s: JSONReportSuite): JSONReportSuite => ({ ...s, specs: s.specs.filter((sp) => ids.some((id) => sp.title.startsWith(`${id}:`))), suites: (s.suites ?? []).map(keep) });
  return { ...recorded, suites: recorded.suites.map(keep) };
}

interface Coverage {
  status: string;
  must: { judged: number; total: number };
  should: { judged: number; total: number };
  notJudged: { must: { id: string; reason: string }[]; should: { id: string }[] };
  skipped: { reason: string; scenarios: string[] }[];
}

test('a partial run says so everywhere: console, verdicts.json, JUnit', async () => {
  // demo.health passes (RES-HEALTH, AUTH-BEARER); demo.production-only is skipped.
  fakePlaywright(only('demo.health', 'demo.production-only'));
  const r = await cli('run', '--no-report', '--grep', 'health|production-only');
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^clauses judged: 2 of 5 \(must 2 of 4, should 0 of 1\)$/m);
  assert.match(r.out, /^ {2}not judged \(must\): AUTH-API-KEY, EP-WEBHOOK$/m);
  assert.match(r.out, /^ {2}not judged \(should\): ERR-NO-SERVER-ERROR$/m);
  assert.match(r.out, /^coverage: PARTIAL \(2 must clauses not judged/m);
  assert.match(r.out, /^verdict: CONFORMANT \(partial: 2 must clauses not judged\)/m);
  const v = JSON.parse(readFileSync(join(reports, 'verdicts.json'), 'utf8')) as { coverage: Coverage };
  assert.equal(v.coverage.status, 'partial');
  assert.deepEqual(v.coverage.must, { judged: 2, total: 4 });
  assert.deepEqual(v.coverage.notJudged.must.map((c) => c.id), ['AUTH-API-KEY', 'EP-WEBHOOK']);
  assert.match(v.coverage.notJudged.must.find((c) => c.id === 'AUTH-API-KEY')!.reason, /demo\.production-only skipped: needs production/);
  assert.deepEqual(v.coverage.skipped.map((s) => s.scenarios), [['demo.production-only']]);
  const junit = readFileSync(join(reports, 'junit.xml'), 'utf8');
  assert.match(junit, /<property name="coverage" value="partial"\/>/);
  assert.match(junit, /<property name="clauses_judged_must" value="2\/4"\/>/);
  assert.match(junit, /<property name="clauses_not_judged_must" value="AUTH-API-KEY,EP-WEBHOOK"\/>/);
  assert.match(junit, /<property name="scenarios_skipped" value="1"\/>/);
});

test('--min-clauses and --max-skipped fail the gate (exit 1) with the list, and pass when met', async () => {
  fakePlaywright(only('demo.health', 'demo.production-only'));
  const allMust = await cli('run', '--no-report', '--min-clauses', 'all-must');
  assert.equal(allMust.code, 1, allMust.out);
  assert.match(allMust.out, /^PROBLEM coverage: --min-clauses all-must, but 2 of 4 must clauses were not judged: AUTH-API-KEY, EP-WEBHOOK$/m);
  assert.match(allMust.out, /verdict: NON-CONFORMANT/);
  const v = JSON.parse(readFileSync(join(reports, 'verdicts.json'), 'utf8')) as { overall: string; problems: string[] };
  assert.equal(v.overall, 'non-conformant');
  assert.ok(v.problems.some((p) => p.startsWith('coverage: --min-clauses all-must')));

  assert.equal((await cli('run', '--no-report', '--min-clauses', '2')).code, 0);
  const three = await cli('run', '--no-report', '--min-clauses', '3');
  assert.equal(three.code, 1);
  assert.match(three.out, /PROBLEM coverage: --min-clauses 3, but 2 clauses were judged; not judged: AUTH-API-KEY, EP-WEBHOOK, ERR-NO-SERVER-ERROR/);

  const skipped = await cli('run', '--no-report', '--max-skipped', '0');
  assert.equal(skipped.code, 1);
  assert.match(skipped.out, /PROBLEM coverage: --max-skipped 0, but 1 scenarios were skipped: demo\.production-only \(needs production/);
  assert.equal((await cli('run', '--no-report', '--max-skipped', '1')).code, 0);

  // Bad values are usage errors, decided before anything runs.
  for (const bad of [['--min-clauses', 'most'], ['--max-skipped', '-1'], ['--min-clauses', '1.5']]) {
    const r = await cli('run', '--no-report', ...bad);
    assert.equal(r.code, 2, `${bad.join(' ')}: ${r.out}`);
    assert.match(r.err, new RegExp(bad[0]!));
  }
});

test('the certificate says partial when must clauses were not judged, and states the coverage', () => {
  const catalogue = loadClauseCatalogue();
  const scenario = (id: string, verdict: 'passed' | 'skipped' | 'failed', clauses: string[], broke: string[] = []) => ({ id, verdict, clauses, reason: verdict === 'skipped' ? 'needs clock' : undefined, record: { clauses: broke } });
  // A failed scenario judges the clause its check broke, not every clause it covers; a skipped one judges nothing.
  const c = clauseCoverage([scenario('a', 'passed', ['RES-HEALTH']), scenario('b', 'failed', ['AUTH-BEARER', 'EP-WEBHOOK'], ['AUTH-BEARER']), scenario('c', 'skipped', ['AUTH-API-KEY'])], catalogue);
  assert.deepEqual(c.must, { judged: 2, total: 4 });
  assert.deepEqual(c.notJudged.must.map((x) => [x.id, x.reason]), [['AUTH-API-KEY', 'c skipped: needs clock'], ['EP-WEBHOOK', 'b failed']]);
  assert.equal(c.status, 'partial');
  assert.deepEqual(coverageGateProblems(c, {}), []);

  const summary = summarize([], catalogue);
  const body = buildCertificateBody({
    target: { name: 't', base_url: 'http://x', auth_url: 'http://x', environment: 'sandbox', capabilities: [] },
    summary: { ...summary, coverage: c },
    catalogue,
    startedAt: '2026-01-01T00:00:00Z',
    finishedAt: '2026-01-01T00:00:01Z',
    waivers: [],
    evidence: [],
    scenarioDir: join(FIXTURES, 'specs'),
    schemaDir: join(FIXTURES, 'spec'),
  });
  assert.equal(body.coverage.status, 'partial');
  const md = certificateMarkdown(signCertificate(body, loadSigningKey({ keyDir: join(dir, 'keys') })));
  assert.match(md, /\*\*partial\*\*: 2 must clauses not judged/);
  assert.match(md, /Coverage: PARTIAL: must 2 of 4, should 0 of 1 clauses judged; must clauses not judged: AUTH-API-KEY, EP-WEBHOOK/);
});

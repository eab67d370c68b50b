/**
 * A YAML scenario's test is shown at its YAML file and line (scenario-location.ts, applied by the redacting
 * reporter), in the Playwright HTML report, the JSON report and the list; tests without a scenario file keep
 * their own location. The end-to-end part runs one scenario against the embedded reference (sandbox project)
 * and also checks that the Allure result carries the clause wording in its description.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { JSONReport } from '@playwright/test/reporter';
import { REPO_ROOT } from '../../src/harness/repo-root.js';
import { locateAtScenario, scenarioLocation } from '../../src/harness/report/outputs/scenario-location.js';
import { zipEntries } from '../../src/harness/report/redaction/zip-text.js';
import { runTimeoutMs, testTimeoutMs } from '../../src/harness/target/bounds.js';
import { TIMEOUT_DEFAULTS } from '../../src/harness/target/defaults.js';
import { runCatalogue } from '../../src/selftest/catalogue-run.js';
import { catalogue, specs } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'ftf-location-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('the scenario-file annotation decides the location: repository-relative or absolute, line 1; other tests keep theirs', () => {
  assert.deepEqual(scenarioLocation([{ type: 'clause', description: 'RES-HEALTH' }, { type: 'scenario-file', description: 'specs/resources/health.yaml' }]), {
    file: join(REPO_ROOT, 'specs/resources/health.yaml'),
    line: 1,
    column: 1,
  });
  assert.deepEqual(scenarioLocation([{ type: 'scenario-file', description: '/elsewhere/x.yaml' }]), { file: '/elsewhere/x.yaml', line: 1, column: 1 });
  assert.equal(scenarioLocation([{ type: 'clause', description: 'RES-HEALTH' }]), undefined);
  const property = { annotations: [], location: { file: join(REPO_ROOT, 'specs/properties/paging.spec.ts'), line: 12, column: 3 } };
  locateAtScenario(property);
  assert.deepEqual(property.location, { file: join(REPO_ROOT, 'specs/properties/paging.spec.ts'), line: 12, column: 3 });
});

const OUTER_MS = runTimeoutMs(TIMEOUT_DEFAULTS, 1, 1) + testTimeoutMs(TIMEOUT_DEFAULTS);

test('a run shows the scenario YAML as the test location in the HTML, JSON and list reports', { timeout: OUTER_MS + testTimeoutMs(TIMEOUT_DEFAULTS) }, async () => {
  const scenarios = join(dir, 'specs');
  mkdirSync(join(scenarios, 'fam'), { recursive: true });
  const yaml = join(scenarios, 'fam', 'health.yaml');
  copyFileSync(join(REPO_ROOT, 'specs/resources/health.yaml'), yaml);
  const run = await runCatalogue({
    workers: 1,
    timeoutMs: OUTER_MS,
    args: ['specs/conformance.spec.ts', '--project=sandbox'],
    dir: join(dir, 'out'),
    env: { FTF_SPECS_DIR: scenarios, FTF_TARGET: undefined, CI: undefined },
  });
  assert.equal(run.killed, false, 'the run hung');
  assert.equal(run.exitCode, 0, `${run.stdout.slice(-800)}\n${run.stderr.slice(-800)}`);

  // JSON report: the spec sits at the YAML, line 1.
  const json = JSON.parse(readFileSync(join(run.reportsDir, 'results.json'), 'utf8')) as JSONReport;
  const spec = specs(json).find((s) => s.title.startsWith('resources.health:'));
  assert.ok(spec, 'the scenario ran');
  assert.match(spec.file, /fam\/health\.yaml$/);
  assert.deepEqual([spec.line, spec.column], [1, 1]);

  // Playwright HTML report: its data is a zip embedded in index.html; the test's location is the YAML.
  const html = readFileSync(join(run.reportsDir, 'playwright-html', 'index.html'), 'utf8');
  const zip = /id="playwrightReportBase64">data:application\/zip;base64,([^<]+)</.exec(html)?.[1];
  assert.ok(zip, 'the HTML report embeds its data');
  const locations = zipEntries(Buffer.from(zip, 'base64'))
    .map((e) => JSON.parse(e.data.toString('utf8')) as { tests?: { title: string; location: { file: string; line: number } }[] })
    .flatMap((d) => d.tests ?? [])
    .filter((t) => t.title.startsWith('resources.health:'))
    .map((t) => t.location);
  assert.ok(locations.length > 0, 'the HTML report lists the test');
  for (const l of locations) {
    assert.match(l.file, /fam\/health\.yaml$/);
    assert.equal(l.line, 1);
  }

  // The list reporter names the YAML too.
  assert.match(run.stdout, /fam\/health\.yaml:1:1 › resources\.health:/);

  // Allure: the description quotes the covered clause's wording.
  const allure = join(run.reportsDir, 'allure-results');
  const result = readdirSync(allure)
    .filter((f) => f.endsWith('-result.json'))
    .map((f) => JSON.parse(readFileSync(join(allure, f), 'utf8')) as { name: string; description?: string })
    .find((r) => r.name.startsWith('resources.health:'));
  assert.ok(result?.description?.includes(catalogue.byId.get('RES-HEALTH')!.says.trim()), result?.description);
});

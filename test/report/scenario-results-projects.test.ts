/**
 * Two Playwright projects (the reference in sandbox and in production mode) run every scenario twice; the
 * verdict is per scenario: failed in either = failed, passed in one and skipped in the other = passed.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JSONReport, JSONReportTest } from '@playwright/test/reporter';
import { scenarioResults, testResults } from '../../src/harness/report/records/scenario-results.js';
import { demoReport, outcomes, skippedRun, twoProjects } from './helpers.js';

const verdictOf = (report: JSONReport, id: string) => outcomes(report).find((o) => o.id === id);

describe('scenario results across two projects', () => {
  it('one result per scenario id, ids without a project prefix', () => {
    const results = scenarioResults(twoProjects((t) => skippedRun(t, 'production')));
    const ids = results.map((r) => r.id);
    assert.equal(ids.length, new Set(ids).size);
    assert.equal(ids.length, scenarioResults(demoReport()).length);
    assert.ok(ids.includes('demo.health'));
  });

  it('passed in one project and skipped in the other is passed; failed in one and skipped in the other is failed', () => {
    const report = twoProjects((t) => skippedRun(t, 'production'));
    assert.equal(verdictOf(report, 'demo.health')?.verdict, 'passed');
    assert.equal(verdictOf(report, 'demo.wrong-status')?.verdict, 'failed');
    assert.equal(verdictOf(report, 'demo.production-only')?.verdict, 'skipped');
  });

  it('failed in the second project turns a first-project pass into failed, naming that project', () => {
    const report = twoProjects((t, title) => {
      if (!title.startsWith('demo.health:')) return skippedRun(t, 'production');
      const failing = demoReport().suites.flatMap(function all(s): JSONReportTest[] {
        return [...s.specs.filter((sp) => sp.title.startsWith('demo.wrong-status:')).flatMap((sp) => sp.tests), ...(s.suites ?? []).flatMap(all)];
      })[0]!;
      return { ...failing, projectName: 'production', annotations: t.annotations };
    });
    const health = scenarioResults(report).find((r) => r.id === 'demo.health');
    assert.equal(health?.project, 'production');
    assert.equal(verdictOf(report, 'demo.health')?.verdict, 'failed');
  });

  it("a test's scenario-file annotation is the scenario's file (the JUnit `file`), else the spec file", () => {
    const report = twoProjects((t, title) => {
      const second = skippedRun(t, 'production');
      return title.startsWith('demo.health:') ? { ...second, annotations: [...second.annotations, { type: 'scenario-file', description: 'specs/demo/health.yaml' }] } : second;
    });
    const byId = new Map(testResults(report).map((r) => [`${r.project} ${r.id}`, r.file]));
    assert.equal(byId.get('production demo.health'), 'specs/demo/health.yaml');
    assert.match(byId.get('sandbox demo.health') ?? '', /conformance\.spec\.ts$/);
  });
});

/**
 * Conformance run configuration. API only: no browser is ever launched or installed. Traces and videos are
 * off (they would contain secrets); the harness's recorder is the one place exchanges are written, redacted.
 *
 * Projects: against the embedded reference (FTF_TARGET unset) the catalogue runs twice, once per server mode:
 * `sandbox` (fixtures/targets/reference.yaml, every scenario) and `production` (the reference started with
 * mode 'production' and fixtures/targets/reference-production.yaml: no control API, API keys refused; the
 * production guard skips mutating scenarios). The worker fixture (specs/fixtures.ts) reads `metadata`.
 * Against an external target (FTF_TARGET set) every worker shares ONE server, so the catalogue is cut in two
 * phases (SHARED_TARGET_PROJECTS): `shared` runs everything that may run side by side, with all workers;
 * then `exclusive` runs, one scenario at a time, the scenarios that change state the others depend on (the
 * sandbox clock, a user's one webhook URL; src/harness/scenario/isolation.ts tags them @exclusive).
 * `exclusive` is the teardown of `shared`, not a dependent: it runs even when a shared scenario failed
 * (src/harness/shared-phases.ts; with --shard, one plain project: shards cannot be ordered).
 */
import { defineConfig, type PlaywrightTestConfig } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { sharedTargetProjects } from './src/harness/shared-phases.js';

const ci = Boolean(process.env.CI);
// FTF_REPORTS_DIR moves every report (same variable as src/harness/report/paths.ts); self-tests use temp folders.
const reports = (process.env.FTF_REPORTS_DIR ?? 'reports').replace(/\/+$/, '');

type Project = NonNullable<PlaywrightTestConfig['projects']>[number];

export const REFERENCE_PROJECTS: Project[] = [
  { name: 'sandbox', metadata: { mode: 'sandbox', profile: 'fixtures/targets/reference.yaml' } },
  { name: 'production', metadata: { mode: 'production', profile: 'fixtures/targets/reference-production.yaml' } },
];

// The runner's own argv: the teardown phase ignores command-line filters, so they are folded in (shared-phases.ts).
export const SHARED_TARGET_PROJECTS: Project[] = sharedTargetProjects(process.argv, fileURLToPath(new URL('specs/conformance.spec.ts', import.meta.url)));

const projects: Project[] = process.env.FTF_TARGET?.trim() ? SHARED_TARGET_PROJECTS : REFERENCE_PROJECTS;

export default defineConfig({
  testDir: 'specs',
  testMatch: '**/*.spec.ts',
  fullyParallel: true,
  workers: Number(process.env.FTF_WORKERS ?? 2),
  retries: 0,
  forbidOnly: ci,
  outputDir: 'test-results',
  reporter: [
    [ci ? 'line' : 'list'],
    ['html', { outputFolder: `${reports}/playwright-html`, open: 'never' }],
    ['junit', { outputFile: `${reports}/junit.xml` }],
    ['json', { outputFile: `${reports}/results.json` }],
    // Every test's outcome record (src/harness/report/outcome.ts, the reader every report uses) as one file.
    ['./src/harness/report/outcome-reporter.ts', { outputFile: `${reports}/outcomes.json` }],
    ['allure-playwright', { resultsDir: `${reports}/allure-results`, detail: true, suiteTitle: false }],
  ],
  use: { trace: 'off' },
  projects,
});

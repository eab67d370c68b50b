/**
 * Mutation matrix configuration (issue 5): the base conformance config with one project per run — `clean`
 * (the reference as is), `clean-production` (the reference in production mode) and one per injected fault
 * (`metadata.fault`; production faults also `metadata.mode`/`profile`, read by the worker fixture in
 * specs/fixtures.ts). The projects and the tests each one runs come from the plan file named by
 * the run setting `plan` (FTF_RUN, src/shared/run-settings.ts; written by src/selftest/playwright-run.ts); without it: clean + every sandbox fault, full suite.
 * Reporters: only Playwright's JSON report (parsed by the runner) and a dot line for progress, both behind the
 * redaction boundary (src/harness/report/outputs/redacting-reporter.ts) like every other run.
 */
import { dirname, join } from 'node:path';
import { defineConfig, type PlaywrightTestConfig } from '@playwright/test';
import base from './playwright.config.js';
import { projectMetadata, readPlan, oneWorker, titlesPattern, MATCH_NOTHING, type PlanProject } from './src/selftest/plan.js';

const plan = readPlan();

function project(p: PlanProject): NonNullable<PlaywrightTestConfig['projects']>[number] {
  return {
    name: p.name,
    // fault, and for production faults / clean-production: mode 'production' + the production profile.
    metadata: projectMetadata(p),
    // A fault's few tests run in one worker (projects run in parallel instead): fewer worker starts.
    fullyParallel: p.fault === null,
    // A targeted variant run: one worker for the project (plan.ts oneWorker), however many files its tests span.
    ...(oneWorker(p) ? { workers: 1 } : {}),
    ...(p.only ? { grep: p.only.length > 0 ? titlesPattern(p.only) : MATCH_NOTHING } : {}),
    ...(p.except && p.except.length > 0 ? { grepInvert: titlesPattern(p.except) } : {}),
  };
}

export default defineConfig({
  ...base,
  outputDir: plan.outputDir,
  // Failures are expected under faults: no retries, no early stop.
  retries: 0,
  maxFailures: 0,
  reporter: [
    [
      './src/harness/report/outputs/redacting-reporter.ts',
      { digestsFile: join(dirname(plan.reportFile), 'mutation-secret-digests.json'), reporters: [['dot'], ['json', { outputFile: plan.reportFile }]] },
    ],
  ],
  projects: plan.projects.map(project),
});

/**
 * TEST-ONLY configuration for test/hostile/canary-bypass.test.ts: the reporters listed raw (no redacting
 * reporter) and a spec whose steps skip the step-boundary redaction. It exists to show that the canary search
 * finds secrets when the boundary is missing; nothing in the product can select it.
 */
import { defineConfig } from '@playwright/test';

const reports = (process.env.FTF_REPORTS_DIR ?? 'reports').replace(/\/+$/, '');

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  workers: 2,
  retries: 0,
  outputDir: 'test-results',
  reporter: [
    ['line'],
    ['json', { outputFile: `${reports}/results.json` }],
    ['junit', { outputFile: `${reports}/junit.xml` }],
    ['allure-playwright', { resultsDir: `${reports}/allure-results`, detail: true, suiteTitle: false }],
  ],
  use: { trace: 'off' },
});

/**
 * Conformance run configuration. API only: no browser is ever launched or installed. Traces and videos are
 * off (they would contain secrets); the harness's recorder is the one place exchanges are written, redacted.
 */
import { defineConfig } from '@playwright/test';

const ci = Boolean(process.env.CI);
// FTF_REPORTS_DIR moves every report (same variable as src/harness/report/paths.ts); self-tests use temp folders.
const reports = (process.env.FTF_REPORTS_DIR ?? 'reports').replace(/\/+$/, '');

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
    ['allure-playwright', { resultsDir: `${reports}/allure-results`, detail: true, suiteTitle: false }],
  ],
  use: { trace: 'off' },
});

/**
 * Where report inputs and outputs live. Everything is relative to the repository root (found from this
 * file, not from the working directory, so the CLI works from any folder); env vars override for CI.
 */
import { resolve } from 'node:path';
import { REPO_ROOT } from '../repo-root.js';

/** Root of every generated report (FTF_REPORTS_DIR overrides; tests point it at a temp folder). */
export function reportsDir(): string {
  return process.env.FTF_REPORTS_DIR ? resolve(process.env.FTF_REPORTS_DIR) : resolve(REPO_ROOT, 'reports');
}

export const reportPaths = (root = reportsDir()) => ({
  root,
  playwrightJson: resolve(root, 'results.json'),
  junit: resolve(root, 'junit.xml'),
  verdicts: resolve(root, 'verdicts.json'),
  allureResults: resolve(root, 'allure-results'),
  allureReport: resolve(root, 'allure-report'),
  allureHistory: resolve(root, 'allure-history'),
  certificate: resolve(root, 'certificate'),
  har: resolve(root, 'har'),
});

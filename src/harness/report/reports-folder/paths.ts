/**
 * Where report inputs and outputs live. In the repository everything is relative to the repository root (found
 * from this file, not from the working directory, so the CLI works from any folder); an installed package
 * writes to `reports/` in the working directory instead (never inside node_modules). Env vars override for CI.
 */
import { resolve } from 'node:path';
import { PACKAGED, REPO_ROOT } from '../../repo-root.js';

/** Root of every generated report (FTF_REPORTS_DIR overrides; tests point it at a temp folder). */
export function reportsDir(env: NodeJS.ProcessEnv = process.env, packaged = PACKAGED): string {
  if (env.FTF_REPORTS_DIR) return resolve(env.FTF_REPORTS_DIR);
  return packaged ? resolve(process.cwd(), 'reports') : resolve(REPO_ROOT, 'reports');
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

/**
 * What the property specs share: the test details (tags, clause annotations like the YAML scenarios, so
 * coverage and the mutation matrix count them) and the outcome record every test writes
 * (src/harness/report/records/outcome.ts), passed or failed.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestInfo } from '@playwright/test';
import type { CheckResult } from '../../src/harness/checks/types.js';
import { propertyTest } from '../../src/harness/properties/catalogue.js';
import { extraTestTags, loadSelection, selectionFromEnv } from '../../src/harness/scenario/selection.js';
import { encodeOutcome } from '../../src/harness/report/records/outcome.js';
import { outcomeFromError, passedOutcome, type Evidence } from '../../src/harness/report/records/record-outcome.js';

// Declared only when the CLI's selection (--grep/--tag/--shard, scenario/selection.ts) picks them.
const SELECTED = new Set(loadSelection(process.env.FTF_SPECS_DIR ?? join(dirname(fileURLToPath(import.meta.url)), '..'), selectionFromEnv(process.env)).extras.map((x) => x.id));

export const isSelected = (id: string): boolean => SELECTED.has(id);

/** Title, tags (src/harness/properties/catalogue.ts, + @production by scenario/environment.ts) and clause annotations of a property test. */
export function propertyDetails(id: string, clauses: readonly string[]) {
  return {
    tag: extraTestTags(propertyTest(id)).map((t) => `@${t}`),
    annotation: [
      ...clauses.map((c) => ({ type: 'clause', description: c })),
      { type: 'scenario', description: id },
      { type: 'allure.label.epic', description: 'FTF conformance' },
      { type: 'allure.label.feature', description: 'properties' },
      { type: 'allure.label.story', description: clauses.join(', ') },
    ],
  };
}

/**
 * Runs `body` and writes its outcome record like the YAML scenarios do; a failure is stamped and rethrown. Checks
 * the body pushes into `checks` are recorded with the clause each names (a failed one is thrown by the body as a
 * CheckFailure).
 */
export async function withOutcome(clauses: readonly string[], testInfo: TestInfo, body: (evidence: Evidence, checks: CheckResult[]) => Promise<void>): Promise<void> {
  const evidence = { exchanges: [] as string[] };
  const checks: CheckResult[] = [];
  const context = { covers: [...clauses], evidence, checks };
  try {
    await body(evidence, checks);
    testInfo.annotations.push(encodeOutcome(passedOutcome(context)));
  } catch (error) {
    const record = outcomeFromError(error, context);
    testInfo.annotations.push(encodeOutcome(record));
    throw error;
  }
}

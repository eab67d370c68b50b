/**
 * What the property specs share: the test details (tags, clause annotations like the YAML scenarios, so
 * coverage and the mutation matrix count them) and the outcome record every test writes
 * (src/harness/report/outcome.ts), passed or failed.
 */
import type { TestInfo } from '@playwright/test';
import { encodeOutcome } from '../../src/harness/report/outcome.js';
import { outcomeFromError, passedOutcome, stampOutcome, type Evidence } from '../../src/harness/report/record-outcome.js';

export function propertyDetails(id: string, clauses: readonly string[], tags: readonly string[]) {
  return {
    tag: ['@properties', ...tags],
    annotation: [
      ...clauses.map((c) => ({ type: 'clause', description: c })),
      { type: 'scenario', description: id },
      { type: 'allure.label.epic', description: 'FTF conformance' },
      { type: 'allure.label.feature', description: 'properties' },
      { type: 'allure.label.story', description: clauses.join(', ') },
    ],
  };
}

/** Runs `body` and writes its outcome record like the YAML scenarios do; a failure is stamped and rethrown. */
export async function withOutcome(clauses: readonly string[], testInfo: TestInfo, body: (evidence: Evidence) => Promise<void>): Promise<void> {
  const evidence = { exchanges: [] as string[] };
  const context = { covers: [...clauses], evidence, checks: [] };
  try {
    await body(evidence);
    testInfo.annotations.push(encodeOutcome(passedOutcome(context)));
  } catch (error) {
    const record = outcomeFromError(error, context);
    testInfo.annotations.push(encodeOutcome(record));
    stampOutcome(error, record);
    throw error;
  }
}

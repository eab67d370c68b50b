/**
 * fast-check properties of GET /event paging (issue 4, point 2). Each property generates start cursors and
 * fences taken from a snapshot of the stream, page limits (1..50, occasionally large) and appends between
 * page reads, and checks every walk against the snapshot (src/harness/properties/oracle.ts). Annotated with `clause` like the YAML
 * scenarios so coverage and the mutation matrix count them. FTF_FC_RUNS / FTF_FC_SEED / FTF_FC_PATH override.
 */
import type { TestInfo } from '@playwright/test';
import type { Evidence } from '../../src/harness/report/records/record-outcome.js';
import type { ResolvedTarget } from '../../src/harness/target/types.js';
import { test, type PagingFixture } from './fixtures.js';
import { PAGING_CLAUSES, propertyTest } from '../../src/harness/properties/catalogue.js';
import { isSelected, propertyDetails, withOutcome } from './record.js';
import { preparePagingProperty } from '../../src/harness/properties/paging-property.js';
import { propertySettings } from '../../src/harness/properties/runner.js';
import type { PagingClause } from '../../src/harness/properties/types.js';

const DEFAULT_RUNS = 25;
const ALL: readonly PagingClause[] = PAGING_CLAUSES;
const details = propertyDetails;

/** Runs the property and writes its outcome record (src/harness/report/records/outcome.ts) like the YAML scenarios do. */
async function runProperty(title: string, fence: 'event' | 'head', target: ResolvedTarget, paging: PagingFixture, testInfo: TestInfo): Promise<void> {
  await withOutcome(ALL, testInfo, (evidence) => runPropertyOnce(title, fence, target, paging, testInfo, evidence));
}

async function runPropertyOnce(title: string, fence: 'event' | 'head', target: ResolvedTarget, paging: PagingFixture, testInfo: TestInfo, evidence: Evidence): Promise<void> {
  test.setTimeout(target.timeouts.scenarioMs);
  const prepared = await preparePagingProperty(paging.api, paging.log, target, {
    title,
    fence,
    settings: propertySettings(process.env, DEFAULT_RUNS),
    // Leaves room for the report inside the test timeout; what was found by then (shrunk or not) is reported.
    timeLimitMs: Math.round(target.timeouts.scenarioMs * 0.75),
    command: `npx playwright test specs/properties -g "${title}"`,
    onFailure: async (text, exchanges) => {
      await testInfo.attach('counterexample.txt', { body: text, contentType: 'text/plain' });
      await testInfo.attach('counterexample-exchanges.json', { body: JSON.stringify(exchanges, null, 2), contentType: 'application/json' });
      evidence.exchanges.push('counterexample-exchanges.json');
    },
  });
  test.skip(prepared.skip !== undefined, prepared.skip ?? '');
  const stats = await prepared.run();
  testInfo.annotations.push({
    type: 'property',
    description: `${stats.numRuns} runs, ${stats.numSkips} skipped${stats.interrupted ? ' (stopped by the time limit)' : ''}; snapshot of ${prepared.snapshot.events.length} events; appends ${paging.api.canAppend ? 'on' : 'off (no control API)'}`,
  });
}

const FENCED_SLICE = propertyTest('properties.paging-fenced-slice').title;
if (isSelected('properties.paging-fenced-slice')) {
  test(FENCED_SLICE, details('properties.paging-fenced-slice', ALL), async ({ target, paging }, testInfo) => {
    await runProperty(FENCED_SLICE, 'event', target, paging, testInfo);
  });
}

const HEAD_FENCE = propertyTest('properties.paging-head-fence').title;
if (isSelected('properties.paging-head-fence')) {
  test(HEAD_FENCE, details('properties.paging-head-fence', ALL), async ({ target, paging }, testInfo) => {
    await runProperty(HEAD_FENCE, 'head', target, paging, testInfo);
  });
}

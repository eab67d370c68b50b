/**
 * Amount boundaries (issue 26): every amount limit the clauses state (ERR-AMOUNT-MIN, ERR-AMOUNT-MAX), at, just
 * inside and just outside its bound in whole units, cents and sub-cent, for each indication the profile names for
 * an amount role, judged by the clause of its bound (src/harness/boundaries/). It writes (subscriptions), so it
 * runs only where the target allows mutations. Every case is a check naming its clause; all are sent, then the
 * failed ones fail the test together.
 */
import { CheckFailure } from '../../src/harness/engine/errors.js';
import { runAmountBoundaries } from '../../src/harness/boundaries/run.js';
import { propertyTest } from '../../src/harness/properties/catalogue.js';
import { cliAllowsMutations, mutationSkipReason } from '../../src/harness/target/guard.js';
import { modelSkipReasonFor } from '../../src/harness/properties/model/property.js';
import { test } from './fixtures.js';
import { isSelected, propertyDetails, withOutcome } from './record.js';

const ID = 'boundaries.amounts';
const CLAUSES = propertyTest(ID).covers;

if (isSelected(ID)) test(propertyTest(ID).title, propertyDetails(ID, CLAUSES), async ({ target, model }, testInfo) => {
  await withOutcome(CLAUSES, testInfo, async (_evidence, checks) => {
    test.setTimeout(target.timeouts.scenarioMs);
    const skip = mutationSkipReason(target, ['mutation'], cliAllowsMutations()) ?? modelSkipReasonFor(ID, target);
    test.skip(skip !== undefined, skip ?? '');
    const run = await runAmountBoundaries(model.api, target);
    checks.push(...run.checks);
    const failed = run.checks.filter((c) => !c.passed);
    testInfo.annotations.push({ type: 'boundaries', description: `${run.checks.length} checks, ${run.requests} requests, ${failed.length} failed` });
    if (failed.length) throw new CheckFailure(failed);
  });
});

/**
 * The stateful model property (issue 13): random sequences of subscribes (new key, same-key retries with the
 * same or a changed body, requests released together), checkpoint GET/PATCH (current and stale versions,
 * concurrent), appends and event reads with cursors and fences, run against the executable model of
 * src/harness/properties/model/state.ts. It writes, so it runs only where the target allows mutations.
 * Bounds: FTF_FC_RUNS runs of at most FTF_FC_COMMANDS commands, cut by a time limit from the profile.
 * Replay: FTF_FC_SEED / FTF_FC_PATH / FTF_FC_REPLAY_PATH as printed with the counterexample.
 */
import { cliAllowsMutations, mutationSkipReason } from '../../src/harness/target/guard.js';
import { MODEL_CLAUSES, modelSettings, prepareModelProperty } from '../../src/harness/properties/model/property.js';
import { propertySettings } from '../../src/harness/properties/runner.js';
import { test } from './fixtures.js';
import { propertyTest } from '../../src/harness/properties/catalogue.js';
import { isSelected, propertyDetails, withOutcome } from './record.js';

const DEFAULT_RUNS = 20;
const ID = 'properties.model-stateful';
const TITLE = propertyTest(ID).title;

if (isSelected(ID)) test(TITLE, propertyDetails(ID, MODEL_CLAUSES), async ({ target, model }, testInfo) => {
  await withOutcome(MODEL_CLAUSES, testInfo, async (evidence) => {
    test.setTimeout(target.timeouts.scenarioMs);
    const { maxCommands, replayPath } = modelSettings(process.env);
    const prepared = await prepareModelProperty(model.api, model.events, model.log, target, {
      title: TITLE,
      settings: propertySettings(process.env, DEFAULT_RUNS),
      maxCommands,
      replayPath,
      // Leaves room for the report inside the test timeout; what was found by then (shrunk or not) is reported.
      timeLimitMs: Math.round(target.timeouts.scenarioMs * 0.75),
      command: `npx playwright test specs/properties/model.spec.ts`,
      onFailure: async (text, exchanges) => {
        await testInfo.attach('counterexample.txt', { body: text, contentType: 'text/plain' });
        await testInfo.attach('counterexample-exchanges.json', { body: JSON.stringify(exchanges, null, 2), contentType: 'application/json' });
        evidence.exchanges.push('counterexample-exchanges.json');
      },
    });
    const skip = mutationSkipReason(target, ['mutation'], cliAllowsMutations()) ?? prepared.skip;
    test.skip(skip !== undefined, skip ?? '');
    const stats = await prepared.run();
    testInfo.annotations.push({
      type: 'property',
      description: `${stats.numRuns} runs of at most ${maxCommands} commands, ${stats.numSkips} skipped${stats.interrupted ? ' (stopped by the time limit)' : ''}; appends ${model.events.canAppend ? 'on' : 'off (no control API)'}`,
    });
  });
});

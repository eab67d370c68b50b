/**
 * The one structure the CLI hands its Playwright child (src/shared/run-settings.ts, FTF_RUN): every field read back
 * as written, anything malformed read as absent (the safe value), and an inherited mutation grant never reaching
 * the child while this run's settings and the process's own caches do.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runEnvironment } from '../../src/cli/playwright.js';
import { readRunSettings, RUN_ENV, runSettingsEnv, updateRunSettings, type RunSettings } from '../../src/shared/run-settings.js';

test('every field survives the round trip; a wrong type, bad JSON or a non-object reads as absent', () => {
  const all: RunSettings = {
    selection: { grep: 'g', tag: 't', clause: 'A,B', shard: '1/2', phase: 'shared', only: { ids: ['x'], files: ['/f'] } },
    grant: 'n@/tmp/g.json', fault: 'paging-gap', events: 5, plan: '/tmp/p.json', codeKey: 'k:/r', profilesChecked: ['d1'], scenarioCache: '/tmp/s.v8',
  };
  assert.deepEqual(readRunSettings(runSettingsEnv(all)), all);
  for (const text of ['not json', '[1]', '"x"', 'null']) assert.deepEqual(readRunSettings({ [RUN_ENV]: text }), {}, text);
  assert.deepEqual(readRunSettings({}), {});
  const wrong = { plan: 1, grant: {}, fault: '', events: -1, profilesChecked: 'd1', selection: { grep: 2, only: 'x' } };
  assert.deepEqual(readRunSettings({ [RUN_ENV]: JSON.stringify(wrong) }), { selection: { only: { ids: [], files: [] } } }, 'a malformed --last-failed selects nothing, not everything');
});

test('updateRunSettings changes one field in place and removes one given as undefined', () => {
  const env: NodeJS.ProcessEnv = runSettingsEnv({ codeKey: 'k:/r', fault: 'f' });
  updateRunSettings(env, { scenarioCache: '/tmp/s.v8', fault: undefined });
  assert.deepEqual(readRunSettings(env), { codeKey: 'k:/r', scenarioCache: '/tmp/s.v8' });
});

test("Playwright's environment: an inherited grant is dropped, this run's settings win, the process's caches are kept", () => {
  const own: NodeJS.ProcessEnv = { PATH: '/bin', ...runSettingsEnv({ grant: 'forged@/tmp/g.json', codeKey: 'k:/r', selection: { grep: 'old' } }) };
  const child = readRunSettings(runEnvironment(own, runSettingsEnv({ selection: {}, events: 5 })));
  assert.deepEqual(child, { codeKey: 'k:/r', selection: {}, events: 5 });
  assert.equal(readRunSettings(runEnvironment(own, runSettingsEnv({ grant: 'mine@/tmp/m.json' }))).grant, 'mine@/tmp/m.json', "this run's own grant is passed");
  assert.equal(readRunSettings(runEnvironment(own, { FTF_BLOB_REPORT: '' })).grant, undefined, 'a run with no settings of its own (merge) inherits no grant');
});

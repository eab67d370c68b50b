/**
 * TEST-ONLY: the catalogue as specs/conformance.spec.ts declares it, but with the engine's steps run as plain
 * test.steps (no pointAtScenario, so no step-boundary redaction). Used with ./playwright.config.ts only.
 */
import { join } from 'node:path';
import { runScenario } from '../../../src/harness/engine/run.js';
import { loadScenarioSuite } from '../../../src/harness/scenario/load.js';
import { test as product } from '../../../specs/fixtures.js';
import { REPO_ROOT } from '../../../src/harness/repo-root.js';

const test = product.extend({
  engine: async ({ engine }, use) => {
    await use({ ...engine, runStep: (title, fn) => product.step(title, fn) });
  },
});

for (const scenario of loadScenarioSuite(join(REPO_ROOT, 'specs')).scenarios) {
  test(`${scenario.id}: ${scenario.title}`, async ({ engine, target }) => {
    test.setTimeout(target.timeouts.scenarioMs);
    await runScenario(scenario, engine);
  });
}

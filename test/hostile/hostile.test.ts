/**
 * The hostile-target suite: for each stub mode, the WHOLE scenario catalogue runs (`playwright test`,
 * fixtures/targets/hostile.yaml, 2 workers) against a target that hangs, resets, answers HTML or garbage,
 * pages in a loop or hands out tokens that expire at once. Asserted per mode (test/hostile/verdict.ts):
 * non-zero exit, every scenario failed or skipped (a pass against garbage is a defect and is named), every
 * failure readable (method + URL or an FTF_E_ code), no scenario over scenario_ms or killed by Playwright's
 * timeout, no unhandled rejection, JUnit + JSON reports written, the run within its outer bound.
 *
 * Modes: FTF_HOSTILE_MODES=all (npm run test:hostile) or a comma list; default: the CI subset below
 * (docs/robustness.md explains the choice). FTF_HOSTILE_GREP narrows the catalogue for local debugging only.
 *
 * Catalogue: with the CI modes, one scenario per family (the first by id) plus the property specs. Every
 * scenario against every mode already runs in-process through the real engine (sweep.test.ts); this run is
 * about the Playwright path (runner, reporters, bounds). Playwright restarts its worker after every failed
 * test, and on a busy machine a restart costs seconds that no profile bound can know: fewer tests keep the
 * run inside its derived bound there. `npm run test:hostile` (all modes) runs the whole catalogue.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { exclusiveReasons } from '../../src/harness/scenario/isolation.js';
import { PROPERTY_TESTS } from '../../src/harness/properties/catalogue.js';
import { loadScenarioSuite } from '../../src/harness/scenario/load.js';
import { runCatalogue } from '../../src/selftest/catalogue-run.js';
import { REPO_ROOT } from '../../src/harness/repo-root.js';
import { runTimeoutMs, testTimeoutMs } from '../../src/harness/target/bounds.js';
import { hostileEnv, hostileSecrets, loadHostileProfile } from './profile.js';
import { HOSTILE_MODES, startHostileStub, type HostileMode } from './stub.js';
import { judgeHostileRun } from './verdict.js';

/** One mode per failure class: a body that never completes, a garbage answer, a logically broken API. */
const CI_MODES: HostileMode[] = ['slow-drip', 'paging-loop'];
const WORKERS = 2;

function selectedModes(): HostileMode[] {
  const raw = process.env.FTF_HOSTILE_MODES?.trim();
  if (!raw) return CI_MODES;
  if (raw === 'all') return [...HOSTILE_MODES];
  const modes = raw.split(',').map((m) => m.trim()) as HostileMode[];
  for (const m of modes) assert.ok(HOSTILE_MODES.includes(m), `unknown hostile mode ${m} (known: ${HOSTILE_MODES.join(', ')})`);
  return modes;
}

const secrets = hostileSecrets();
const profile = loadHostileProfile(secrets);
const suite = loadScenarioSuite(process.env.FTF_SPECS_DIR ?? join(REPO_ROOT, 'specs'));
const wholeCatalogue = Boolean(process.env.FTF_HOSTILE_MODES?.trim() || process.env.FTF_HOSTILE_GREP);
const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** One scenario per family, the first by id: every family's steps and checks meet the hostile target. */
const perFamily = [...new Map([...suite.scenarios].sort((a, b) => a.id.localeCompare(b.id)).reverse().map((s) => [s.family, s.id])).values()].sort();
/**
 * In slow-drip every route stalls alike, token endpoint included, so each scenario ends in its first exchange:
 * what tells scenarios apart there is the step kind that makes that exchange. The CI selection of that mode is
 * one per-family scenario per first step kind (use, request, parallel, listen) and one property spec; the
 * other modes get every family and every property spec.
 */
const byFirstStep = [...new Map(perFamily.map((id) => [suite.scenarios.find((s) => s.id === id)?.steps[0]?.kind, id])).values()].sort();
const SLOW_DRIP_PROPERTY = 'properties.paging-fenced-slice';

interface Selection {
  grep: string | undefined;
  scenarios: number;
  exclusive: number;
}

function selectionFor(mode: HostileMode): Selection {
  const isExclusive = (id: string): boolean => {
    const s = suite.scenarios.find((x) => x.id === id);
    return s !== undefined && exclusiveReasons(s).length > 0;
  };
  const exclusiveProperties = PROPERTY_TESTS.filter((p) => p.tags.includes('@exclusive'));
  if (process.env.FTF_HOSTILE_GREP) return { grep: process.env.FTF_HOSTILE_GREP, scenarios: suite.scenarios.length + PROPERTY_TESTS.length, exclusive: suite.scenarios.filter((s) => isExclusive(s.id)).length + exclusiveProperties.length };
  if (wholeCatalogue) return { grep: undefined, scenarios: suite.scenarios.length + suite.problems.length + PROPERTY_TESTS.length, exclusive: suite.scenarios.filter((s) => isExclusive(s.id)).length + exclusiveProperties.length };
  if (mode === 'slow-drip') {
    // A property test's title is its title, not its id.
    const property = PROPERTY_TESTS.find((p) => p.id === SLOW_DRIP_PROPERTY)?.title as string;
    return { grep: `(?:${byFirstStep.map(escapeRegExp).join('|')}): |${escapeRegExp(property)}`, scenarios: byFirstStep.length + 1, exclusive: byFirstStep.filter(isExclusive).length };
  }
  return { grep: `(?:${perFamily.map(escapeRegExp).join('|')}): |@properties`, scenarios: perFamily.length + PROPERTY_TESTS.length, exclusive: perFamily.filter(isExclusive).length + exclusiveProperties.length };
}

/**
 * Outer bound of one mode's run: the run bound target/bounds.ts derives from the hostile profile (each test
 * at Playwright's test timeout plus a grace for the worker restart Playwright makes after every failure),
 * the same number playwright.config.ts gives Playwright as globalTimeout, plus one test bound for the
 * process start and the reports. Against a shared target (FTF_TARGET, as here) the @exclusive scenarios run
 * one at a time after the rest (playwright.config.ts, src/harness/scenario/isolation.ts).
 */
const outerMs = (sel: Selection): number => runTimeoutMs(profile.timeouts, sel.scenarios, WORKERS, sel.exclusive) + testTimeoutMs(profile.timeouts);

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('hostile target', () => {
  for (const mode of selectedModes()) {
    const selection = selectionFor(mode);
    const OUTER_MS = outerMs(selection);
    const grep = selection.grep;
    test(`mode ${mode}: every scenario fails readably within its bound (${selection.scenarios} tests, outer bound ${OUTER_MS} ms)`, { timeout: OUTER_MS + testTimeoutMs(profile.timeouts) }, async (t) => {
      const stub = await startHostileStub(mode);
      let run;
      try {
        run = await runCatalogue({
          workers: WORKERS,
          timeoutMs: OUTER_MS,
          args: grep ? ['--grep', grep] : [],
          env: hostileEnv(stub.url, secrets),
        });
      } finally {
        await stub.close();
      }
      dirs.push(run.dir);
      const summary = judgeHostileRun(run, { limitMs: testTimeoutMs(profile.timeouts), outerMs: OUTER_MS });
      t.diagnostic(`${mode}: ${summary.total} scenarios, ${summary.failed} failed, ${summary.skipped} skipped, wall ${run.wallMs} ms, slowest scenario ${summary.maxScenarioMs} ms, ${[...stub.seen.values()].reduce((a, b) => a + b, 0)} requests`);
      for (const skip of summary.skips) t.diagnostic(`skipped: ${skip}`);
      assert.ok(stub.seen.size > 0, 'the stub saw no request: the run did not reach the target');
      assert.deepEqual(summary.problems, [], `mode ${mode}: ${summary.problems.length} problem(s):\n${summary.problems.join('\n')}`);
      assert.ok(run.wallMs <= OUTER_MS, `mode ${mode}: wall ${run.wallMs} ms over the bound ${OUTER_MS} ms`);
    });
  }
});

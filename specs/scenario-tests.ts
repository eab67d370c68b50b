/**
 * The YAML scenarios as Playwright tests, declared by the entry files (conformance.spec.ts; production.spec.ts
 * for the embedded reference's production project): loads every YAML scenario under specs/ and declares one
 * test per scenario (tags: @family + tags; one `clause` annotation per covered clause; Allure
 * epic/feature/story and a description with the covered clauses' wording). A broken scenario file becomes a
 * failing test carrying the loader's message, so the other scenarios still run. Only what the selection
 * (FTF_RUN `selection`, from `run --grep/--tag/--shard`, scenario/selection.ts) picks is declared.
 *
 * The production guard's skip is declared here when the entry knows its target's environment from the profile
 * file (`guard`): a test declared skipped never reaches a worker (Playwright reports it at once), so a
 * production target does not start a worker, open the target and set up fixtures only to skip ~40 mutating
 * scenarios. The `productionGuard` fixture (fixtures.ts) stays: it decides whatever was not declared.
 */
import { dirname, isAbsolute, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NotApplicable } from '../src/harness/engine/errors.js';
import { allureMetadataFor } from '../src/harness/report/outputs/allure.js';
import { encodeOutcome } from '../src/harness/report/records/outcome.js';
import { outcomeFromError, passedOutcome } from '../src/harness/report/records/record-outcome.js';
import { redactError } from '../src/harness/report/redaction/redact-error.js';
import { FtfError } from '../src/shared/errors.js';
import { describeProblem } from '../src/harness/scenario/load.js';
import { loadSelection, scenarioTestTags, selectionFromEnv } from '../src/harness/scenario/selection.js';
import { planScenario } from '../src/harness/scenario/plan.js';
import { targetView } from '../src/harness/engine/target-view.js';
import { _baseTest as plainTest } from '@playwright/test';
import { testTimeoutMs } from '../src/harness/target/bounds.js';
import { test } from './fixtures.js';
import { cliAllowsMutations, mutationSkipReason, type GuardTarget } from '../src/harness/target/guard.js';
import { REPO_ROOT } from '../src/harness/repo-root.js';
import { loadClauseCatalogue } from '../src/harness/spec/clauses.js';

const SPECS_DIR = dirname(fileURLToPath(import.meta.url));
const SCENARIO_DIR = process.env.FTF_SPECS_DIR ?? SPECS_DIR;

/** The scenario's YAML path as reports show it: repository-relative (specs/<family>/<name>.yaml), else absolute. */
function yamlPath(file: string): string {
  const rel = relative(REPO_ROOT, file).split('\\').join('/');
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : file;
}

/** `guard`: the target's environment and allow_mutations, when the entry file knows them from the profile. */
export function declareScenarioTests(guard?: GuardTarget): void {
  // The CLI's --grep/--tag/--shard (src/harness/scenario/selection.ts, the one selection `list` shows too):
  // only the selected scenarios and broken files are declared.
  const suite = loadSelection(SCENARIO_DIR, selectionFromEnv(process.env));
  // The clauses' wording for each test's Allure description (the one catalogue loader, spec/clauses.ts).
  const catalogue = loadClauseCatalogue();
  const cliAllow = cliAllowsMutations();

  // Declared on Playwright's plain `test`: an invalid file is reported as invalid (file:line:col) without
  // waiting for the `target` fixture, whose server start may itself fail or time out.
  // The verdict names it by the id it still carries (unless a loaded scenario has that id: a duplicate) and
  // counts it against the clauses it names: those clauses are errored, never judged by a file that did not load.
  const loadedIds = new Set(suite.suite.scenarios.map((s) => s.id));
  for (const problem of suite.problems) {
    const id = problem.partial?.id !== undefined && !loadedIds.has(problem.partial.id) ? problem.partial.id : undefined;
    const covers = (problem.partial?.covers ?? []).filter((c) => catalogue.byId.has(c));
    const annotation = [{ type: 'scenario-file', description: yamlPath(problem.file) }, ...(id ? [{ type: 'scenario', description: id }] : []), ...covers.map((c) => ({ type: 'clause', description: c }))];
    // eslint-disable-next-line no-empty-pattern -- Playwright requires a destructuring pattern as the first argument
    plainTest(`scenario file is invalid: ${relative(SCENARIO_DIR, problem.file)}`, { tag: ['@invalid-scenario'], annotation }, ({}, testInfo) => {
      const typed = problem.errors[0] ?? new FtfError('FTF_E_SCENARIO_INVALID', describeProblem(problem));
      const record = outcomeFromError(typed, { covers, evidence: { exchanges: [] }, checks: [] });
      testInfo.annotations.push(encodeOutcome(record));
      const error = new Error(describeProblem(problem));
      throw error;
    });
  }

  const byId = new Map(suite.scenarios.map((s) => [s.id, s]));

  // A clock-less form is no test of its own: it runs inside the test of the scenario it stands in for.
  for (const scenario of suite.scenarios.filter((s) => s.formOf === undefined)) {
    const allureMeta = allureMetadataFor({
      id: scenario.id,
      title: scenario.title,
      family: scenario.family,
      clauses: scenario.covers,
      tags: scenario.tags,
      level: scenario.level,
      ...(scenario.description !== undefined ? { description: scenario.description } : {}),
    }, catalogue);
    // The guard's reason when it is known now (the same function as the productionGuard fixture's): declared skipped.
    const guardSkip = guard ? mutationSkipReason(guard, scenario.needs, cliAllow) : undefined;
    test(
      `${scenario.id}: ${scenario.title}`,
      {
        // @exclusive: runs alone on a shared target (isolation.ts); @production: the embedded reference's production
        // project runs it (environment.ts). Both derived, in playwright.config.ts's projects.
        tag: scenarioTestTags(scenario).map((t) => `@${t}`),
        annotation: [
          ...(guardSkip ? [{ type: 'skip', description: guardSkip }] : []),
          ...scenario.covers.map((id) => ({ type: 'clause', description: id })),
          { type: 'scenario', description: scenario.id },
          { type: 'scenario-file', description: yamlPath(scenario.source.file) },
          ...allureMeta.annotations,
        ],
      },
      async ({ target, engine, checks, evidence }, testInfo) => {
        // The one plan of every command (scenario/plan.ts): the scenario or its clock-less form, or the skip reason.
        // A role the profile leaves out (no fractional-minimum product, no entities...) is the target's shape, not a failure.
        const { runs: run, via, skip } = planScenario(scenario, byId, { capabilities: target.capabilities, view: targetView(target) });
        if (via) testInfo.annotations.push({ type: 'form', description: `clock-less form ${via} (the target has no clock control)` });
        test.skip(skip !== undefined, skip);
        // The engine stops the scenario at scenario_ms, naming the step; Playwright's timeout is the outer net.
        test.setTimeout(testTimeoutMs(target.timeouts));
        // The one place a scenario's outcome is written, as data (src/harness/report/records/outcome.ts).
        const context = { covers: scenario.covers, evidence, checks };
        try {
          const { runScenario } = await import('../src/harness/engine/run.js');
          await runScenario(run, engine);
          testInfo.annotations.push(encodeOutcome(passedOutcome(context)));
        } catch (error) {
          // Errors raised outside a step (the engine's own) leave redacted too (steps redact in fixtures.ts),
          // before the outcome record is built from them.
          redactError(error, (text) => engine.redact?.(text) ?? text);
          // A `skip_if` that held: the target lacks what the scenario needs; skipped with the reason, never failed.
          if (error instanceof NotApplicable) test.skip(true, error.message);
          const record = outcomeFromError(error, context);
          testInfo.annotations.push(encodeOutcome(record));
          throw error;
        } finally {
          for (const w of checks.filter((c) => !c.passed && c.severity === 'should')) {
            testInfo.annotations.push({ type: 'warning', description: `[${w.check}] ${w.message}` });
          }
        }
      },
    );
  }
}

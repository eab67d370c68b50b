/**
 * Conformance run configuration. API only: no browser is ever launched or installed. Traces and videos are
 * off (they would contain secrets); the harness's recorder is the one place exchanges are written, redacted,
 * and every reporter sits behind the redacting reporter (docs/robustness.md, "The redaction boundary").
 *
 * Projects: against the embedded reference (FTF_TARGET unset) the catalogue runs once per server mode:
 * `sandbox` (fixtures/targets/reference.yaml, every scenario) and `production` (the reference started with
 * mode 'production' and fixtures/targets/reference-production.yaml: no control API, API keys refused; the
 * production guard skips mutating scenarios), which runs only the tests tagged @production: those whose run
 * can differ by environment (src/harness/scenario/environment.ts; the reports count the others as "sandbox
 * only", report/verdicts/test-tally.ts). The worker fixture (specs/fixtures.ts) reads `metadata`.
 * Against an external target (FTF_TARGET set) every worker shares ONE server, so the catalogue is cut in two
 * phases (SHARED_TARGET_PROJECTS): `shared` runs everything that may run side by side, with all workers;
 * then `exclusive` runs, one scenario at a time, the scenarios that change state the others depend on (the
 * sandbox clock, a user's one webhook URL; src/harness/scenario/isolation.ts tags them @exclusive).
 * `exclusive` is the teardown of `shared`, not a dependent: it runs even when a shared scenario failed
 * (src/harness/shared-phases.ts; with --shard, one plain project: shards cannot be ordered).
 */
import { readdirSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { defineConfig, type PlaywrightTestConfig, type ReporterDescription } from '@playwright/test';
import { configuredWorkers, runTimeoutMs, testTimeoutMs } from './src/harness/target/bounds.js';
import { profileTimeouts, REFERENCE_PROFILE, resolveTargetFile } from './src/harness/target/load.js';
import { fileURLToPath } from 'node:url';
import { sharedTargetProjects } from './src/harness/shared-phases.js';
import { exclusiveReasons } from './src/harness/scenario/isolation.js';
import { PRODUCTION_GREP, PRODUCTION_TAG, SCOPE_METADATA } from './src/harness/scenario/environment.js';
import { loadScenarioSuiteOnce } from './src/harness/scenario/suite-cache.js';
import { PROPERTY_TESTS, unpickedEntries } from './src/harness/properties/catalogue.js';
import { loadSelection, selectionFromEnv } from './src/harness/scenario/selection.js';
import { workerNodeOptions } from './src/harness/worker-heap.js';
import { BUNDLE, bundledSpecsFolder } from './src/shared/bundle.js';

const ci = Boolean(process.env.CI);
// The workers' heap ceiling (src/harness/worker-heap.ts): Playwright forks them with this process's environment.
process.env.NODE_OPTIONS = workerNodeOptions(process.env.NODE_OPTIONS);
// '.ts' in the repository (Playwright transpiles), '.js' when this config runs compiled in the installed package
// (dist/, scripts/build-package.mjs): the test files and reporters below are named with the same extension. Bundled
// (src/shared/bundle.ts), '.mjs': this file and the reporters are the bundle's (Playwright resolves them from where
// the config file is), the test files the bundle's shims under specs/; import.meta.url is still this source's.
const ext = BUNDLE ? 'mjs' : import.meta.url.endsWith('.js') ? 'js' : 'ts';
const root = fileURLToPath(new URL('.', import.meta.url));
const testDir = join(root, 'specs');
/** The test files' folder under testDir: the bundle's shims, or testDir itself. */
const entries = BUNDLE ? `${bundledSpecsFolder(BUNDLE.key)}/` : '';
const specsDir = process.env.FTF_SPECS_DIR ?? 'specs';
const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/**
 * Test files as a RegExp over the absolute path, not a glob: for a glob Playwright's listing makes a new minimatch
 * for every file and pattern (~25 ms of a one-scenario run's listing, CPU profile of the runner). `glob` is relative
 * to the entries' folder: `*` within a name, a `**` folder any folders; case-insensitive, as Playwright matches globs.
 */
function testFiles(glob: string): RegExp {
  const folder = join(testDir, entries).split(sep).join('/').replace(/\/$/, '');
  const body = glob.split('**/').map((part) => part.split('*').map(escapeRegExp).join('[^/]*')).join('(?:[^/]*/)*');
  return new RegExp(`^${escapeRegExp(folder)}/${body}$`, 'i');
}
/** The property tests the run's selection picks; all of them when it cannot be read (the spec files then say why). */
function pickedExtras(): Set<string> {
  try {
    return new Set(loadSelection(specsDir, selectionFromEnv(process.env)).extras.map((x) => x.id));
  } catch {
    return new Set(PROPERTY_TESTS.map((p) => p.id));
  }
}
// Property spec files none of whose tests the run's selection picks are not loaded at all (fast-check and the models:
// ~80 ms of a one-scenario run's listing, 3 pairs of timelines); the spec files declare only what is picked anyway.
const unpicked = unpickedEntries(pickedExtras()).map((e) => testFiles(`properties/${e}.spec.${ext}`));
// FTF_REPORTS_DIR moves every report (same variable as src/harness/report/reports-folder/paths.ts); self-tests use temp folders.
const reports = resolve(root, process.env.FTF_REPORTS_DIR ?? 'reports');

type Project = NonNullable<PlaywrightTestConfig['projects']>[number];

/**
 * `no-control`: the reference as a sandbox WITHOUT the control API (fixtures/targets/reference-no-control.yaml:
 * real-time clock, the target's own timing declared in the profile), where the clock-less forms run and the
 * clock forms are skipped. Opt-in (FTF_NO_CONTROL=1, or `--project no-control` with it set): it repeats the
 * catalogue a third time and waits out a short-lived token in real time, so the default run does not pay for
 * it; CI runs it as its own stage, and `selftest --mode no-control` runs the fault matrix there.
 */
export const NO_CONTROL_PROJECT: Project = { name: 'no-control', metadata: { mode: 'sandbox', profile: 'fixtures/targets/reference-no-control.yaml' } };

export const REFERENCE_PROJECTS: Project[] = [
  { name: 'sandbox', metadata: { mode: 'sandbox', profile: 'fixtures/targets/reference.yaml' } },
  // `scope` marks the project trimmed by the rule of environment.ts (the reports name it for what it leaves out).
  // Its share is small and mostly the guard's skips: one worker, so one production-mode server start, not one per worker.
  // Its own entry file (specs/production.spec.ts) declares the guard's skips, so they never reach its worker.
  { name: 'production', grep: PRODUCTION_GREP, workers: 1, testMatch: [testFiles(`production.spec.${ext}`), testFiles(`properties/*.spec.${ext}`)], testIgnore: unpicked, metadata: { mode: 'production', profile: 'fixtures/targets/reference-production.yaml', [SCOPE_METADATA]: PRODUCTION_TAG } },
  ...(process.env.FTF_NO_CONTROL === '1' ? [NO_CONTROL_PROJECT] : []),
];

// The runner's own argv: the teardown phase ignores command-line filters, so they are folded in (shared-phases.ts).
export const SHARED_TARGET_PROJECTS: Project[] = sharedTargetProjects(process.argv, join(testDir, `${entries}conformance.spec.${ext}`));

const shared = Boolean(process.env.FTF_TARGET?.trim());
const projects: Project[] = shared ? SHARED_TARGET_PROJECTS : REFERENCE_PROJECTS;
const workers = configuredWorkers();

/** YAML scenario files (step groups under _steps excluded): an upper bound of the tests per project. */
function countScenarioFiles(dir: string): number {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.yaml') && !f.split(/[\\/]/).includes('_steps')).length;
}

// Every bound derives from the profile's timeouts (src/harness/target/bounds.ts): the test timeout (it also
// covers fixture set-up, e.g. the embedded server's start) sits above scenario_ms, the run bound above all.
const timeouts = profileTimeouts(shared ? resolveTargetFile(process.env) : REFERENCE_PROFILE);
// + the property tests (specs/properties, listed in properties/catalogue.ts) beside the YAML catalogue (an upper
// bound: the production project runs only its @production share). Against a shared target each
// scenario runs in one of the two phases, and the @exclusive ones run one at a time.
const tests = (countScenarioFiles(specsDir) + PROPERTY_TESTS.length) * (shared ? 1 : projects.length);
const serial = shared
  ? loadScenarioSuiteOnce(specsDir).scenarios.filter((s) => exclusiveReasons(s).length > 0).length + PROPERTY_TESTS.filter((p) => p.tags.includes('@exclusive')).length
  : 0;

export default defineConfig({
  testDir,
  testMatch: testFiles(`**/*.spec.${ext}`),
  // The production project's entry (REFERENCE_PROJECTS): every other project declares the scenarios once, from conformance.spec.
  testIgnore: [testFiles(`production.spec.${ext}`), ...unpicked],
  fullyParallel: true,
  workers,
  timeout: testTimeoutMs(timeouts),
  globalTimeout: runTimeoutMs(timeouts, tests, workers, serial),
  retries: 0,
  forbidOnly: ci,
  // Inside the reports folder (one run at a time holds it: reports-lock.ts): runs with their own reports folders never
  // clear or scan each other's output (a shared <repo>/test-results did both), and Playwright's .last-run.json is per folder.
  outputDir: `${reports}/test-results`,
  // The redaction boundary (src/harness/report/outputs/redacting-reporter.ts): the only reporter Playwright sees. It
  // builds the reporters below and redacts everything before they get it; add a reporter by adding a line here.
  // No junit reporter: reports/junit.xml is written by the CLI from the verdicts (src/harness/report/outputs/junit.ts).
  reporter: [
    [
      `./src/harness/report/outputs/redacting-reporter.${ext}`,
      {
        digestsFile: `${reports}/secret-digests.json`,
        reporters: [
          [ci ? 'line' : 'list'],
          ['html', { outputFolder: `${reports}/playwright-html`, open: 'never' }],
          ['json', { outputFile: `${reports}/results.json` }],
          // Every test's outcome record (src/harness/report/records/outcome.ts, the reader every report uses) as one file.
          [`./src/harness/report/outputs/outcome-reporter.${ext}`, { outputFile: `${reports}/outcomes.json` }],
          // allure-playwright with a writer that does not fsync each file (src/harness/report/outputs/allure-reporter.ts).
          [`./src/harness/report/outputs/allure-reporter.${ext}`, { resultsDir: `${reports}/allure-results`, detail: true, suiteTitle: false }],
          // `run --shard` sets FTF_BLOB_REPORT: a redacted blob that `ftf-conformance merge` replays through this config.
          ...(process.env.FTF_BLOB_REPORT ? [['blob', { outputDir: `${reports}/blob-report` }] as ReporterDescription] : []),
        ] satisfies ReporterDescription[],
      },
    ],
  ],
  use: { trace: 'off' },
  projects,
});

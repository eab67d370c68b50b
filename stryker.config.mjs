// StrykerJS: mutation testing of the reference server (issue 26). The test of every mutant is the conformance suite
// against the embedded reference, run in process by the `ftf-conformance` runner (scripts/stryker-runner.mjs ->
// src/mutation-code/); run it with `npm run mutation:code` (scripts/mutation-code.mjs: the spec folder, the sampling
// option, the summary), not `npx stryker run` alone. docs/mutation-code.md: how to run it, the last run, every
// surviving mutant. `npm run mutation:code -- --runner command` uses Stryker's command runner instead (the suite
// through the CLI and Playwright per mutant, scripts/stryker-test.mjs: the settings are in mutation-code.mjs).
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'ftf-conformance',
  plugins: ['./scripts/stryker-runner.mjs', './scripts/stryker-ignorer.mjs'],
  // Fault switches, and code only a fault lets run, are ignored with their reason in the report: the reference under
  // test has no fault on, and the fault matrix judges them (scripts/stryker-ignorer.mjs). Variants are tested.
  ignorers: ['ftf-switches'],
  // The runner and the tests are the sandbox's TypeScript (src/mutation-code), loaded through tsx.
  testRunnerNodeArgs: ['--import', 'tsx'],
  // Only with `--runner command` (mutation-code.mjs): Stryker's command runner, the whole suite through the CLI.
  commandRunner: { command: 'node scripts/stryker-test.mjs' },
  mutate: [
    'src/reference/domain/**/*.ts',
    'src/reference/routes/**/*.ts',
    'src/reference/auth/**/*.ts',
    'src/reference/http/**/*.ts',
  ],
  // The dry run records which test reaches which mutant; a mutant runs only the tests that reach it (stopping at
  // the first that fails). No type checker: the tests run the TypeScript through tsx, which strips types.
  coverageAnalysis: 'perTest',
  checkers: [],
  concurrency: 2,
  // The time budget of a mutant, from the dry run: the time its tests took there x 2 + 15 s (+ Stryker's measured
  // overhead); past it the mutant is a timeout. Generous: the machine is shared, and a slow mutant is no kill.
  timeoutFactor: 2,
  timeoutMS: 15_000,
  // The clean run itself may take minutes on a loaded machine (Stryker's default bound is 5).
  dryRunTimeoutMinutes: 30,
  // A rerun tests only the mutants of code that changed since (or whose result the file does not hold).
  incremental: true,
  // Stryker's files live in .ftf/stryker/, not reports/: its reports embed the reference's source (e.g. `access_token:`
  // fields of auth/tokens.ts), and every file under reports/ is a run's output that the run's leak scan reads (a
  // `run` after mutation:code would end FTF_E_SECRET_LEAK and quarantine them).
  incrementalFile: '.ftf/stryker/incremental.json',
  reporters: ['clear-text', 'progress', 'json', 'html'],
  jsonReporter: { fileName: '.ftf/stryker/mutation.json' },
  htmlReporter: { fileName: '.ftf/stryker/mutation.html' },
  clearTextReporter: { allowColor: false, logTests: false, reportMutants: true, reportScoreTable: true },
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
  // What the suite does not need in the sandbox copy (node_modules is linked, not copied).
  ignorePatterns: ['reports', 'dist', 'bench/peers', '.ftf', 'test-results', 'playwright-report', 'allure-results', 'allure-report'],
};

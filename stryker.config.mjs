// StrykerJS: mutation testing of the reference server (issue 26). The test of every mutant is the conformance suite
// against the embedded reference (scripts/stryker-test.mjs, through Stryker's command runner); run it with
// `npm run mutation:code` (scripts/mutation-code.mjs: the spec folder, the sampling option, the summary), not
// `npx stryker run` alone. docs/mutation-code.md: how to run it, the last run, every surviving mutant.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'command',
  commandRunner: { command: 'node scripts/stryker-test.mjs' },
  mutate: [
    'src/reference/domain/**/*.ts',
    'src/reference/routes/**/*.ts',
    'src/reference/auth/**/*.ts',
    'src/reference/http/**/*.ts',
  ],
  // The command runner cannot tell which test covers which mutant: every mutant runs the suite (stopping at its
  // first failure). No type checker: the suite runs the TypeScript through tsx, which strips types.
  coverageAnalysis: 'off',
  checkers: [],
  concurrency: 2,
  // The time budget of a mutant: the clean run's (the dry run's) time x 1.5 + 30 s; past it the mutant is a timeout.
  timeoutFactor: 1.5,
  timeoutMS: 30_000,
  // The clean run itself may take minutes on a loaded machine (Stryker's default bound is 5).
  dryRunTimeoutMinutes: 30,
  // A rerun tests only the mutants of code that changed since (or whose result the file does not hold).
  incremental: true,
  incrementalFile: 'reports/stryker/incremental.json',
  reporters: ['clear-text', 'progress', 'json', 'html'],
  jsonReporter: { fileName: 'reports/stryker/mutation.json' },
  htmlReporter: { fileName: 'reports/stryker/mutation.html' },
  clearTextReporter: { allowColor: false, logTests: false, reportMutants: true, reportScoreTable: true },
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
  // What the suite does not need in the sandbox copy (node_modules is linked, not copied).
  ignorePatterns: ['reports', 'dist', 'bench/peers', '.ftf', 'test-results', 'playwright-report', 'allure-results', 'allure-report'],
};

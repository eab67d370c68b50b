/**
 * What the in-process mutation runner (runner.ts) runs: a list of named tests, each a function that runs one test
 * of the conformance suite against a fresh system under test and says how it ended. The conformance test set is
 * conformance-tests.ts; the runner's self-test gives a tiny one of its own.
 */

/** How one test ended. `failed` is a verdict of the test (a check failed, or the scenario errored). */
export type TestVerdict =
  | { status: 'passed' }
  | { status: 'skipped'; reason: string }
  | { status: 'failed'; message: string };

export interface InProcessTest {
  /** Stable id (Stryker's test id: coverage, killedBy and the incremental file name tests by it). */
  id: string;
  name: string;
  /** Where the test is declared (a scenario's YAML file). */
  fileName?: string;
  /** Runs the test; never rejects (an error of the test is a `failed` verdict). */
  run(): Promise<TestVerdict>;
}

/** The tests and what they run against. */
export interface TestSet {
  /** Lists the tests (once per process). Loads no code under test. */
  load(): Promise<InProcessTest[]>;
  /**
   * Imports the code under test. The runner calls it outside any test (so its module-level code counts as static
   * coverage, not as the first test's), once per process: before the dry run's tests, and for a static mutant with
   * the mutant on. Code that does not load is no error here: the tests import it too, and fail on it.
   */
  loadCode(): Promise<void>;
  /** Closes what `load` opened (transports). */
  dispose?(): Promise<void>;
}

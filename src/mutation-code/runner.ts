/**
 * The in-process StrykerJS test runner (issue 26): runs a TestSet (types.ts; the conformance suite against the
 * embedded reference: conformance-tests.ts) inside Stryker's test-runner process, instead of spawning the CLI and
 * Playwright for every mutant. The Stryker plugin (scripts/stryker-runner.mjs) is a thin shell around this class.
 *
 * - Mutant switching: the instrumented code is loaded once per process; a mutant is switched on by setting
 *   `__stryker__.activeMutant` before its tests run, off after.
 * - Coverage per test (`coverageAnalysis: 'perTest'`): the dry run sets `__stryker__.currentTestId` before each test,
 *   so the instrumented code records which test reached which mutant; Stryker then runs a mutant only against the
 *   tests that reached it. The id stays set until the next test starts: work a test leaves behind (a timer of its
 *   closed server) counts for it, never as module-level (static) coverage.
 * - Static mutants (reached only while the code loads: module-level constants and tables): `capabilities()` says
 *   the environment cannot be reloaded, so Stryker starts a new runner process for each of them; `mutantRun` with
 *   `mutantActivation: 'static'` switches the mutant on BEFORE the code loads (load() is lazy), and runs every test.
 * - A mutant's tests run side by side (testConcurrency, each against a server of its own), quickest first.
 * - A kill is a test's verdict failing (a check failed, the scenario errored, or a should clause's check warned), named in `killedBy`; the first
 *   failing test ends the run (no further test starts; those running finish) unless Stryker's disableBail is on. A
 *   test skipped under a mutant is no kill.
 * - `hitLimit` (an infinite loop's guard): the instrumented code throws past it; the run is then a timeout.
 * - An exception the code under test throws outside any request (uncaught, or a rejection nobody handles) while a
 *   test runs fails that test: a server in a process of its own would have crashed there.
 * Only type imports from Stryker's API: Stryker's values are plain strings and numbers (cast below), so nothing of
 * Stryker is loaded with this module.
 */
import { performance } from 'node:perf_hooks';
import type { DryRunOptions, DryRunResult, DryRunStatus, MutantRunOptions, MutantRunResult, MutantRunStatus, TestResult, TestRunnerCapabilities, TestStatus } from '@stryker-mutator/api/test-runner';
import type { MutantCoverage } from '@stryker-mutator/api/core';
import type { InProcessTest, TestSet, TestVerdict } from './types.js';

const DRY_COMPLETE = 'complete' as DryRunStatus.Complete;
const DRY_ERROR = 'error' as DryRunStatus.Error;
const KILLED = 'killed' as MutantRunStatus.Killed;
const SURVIVED = 'survived' as MutantRunStatus.Survived;
const TIMEOUT = 'timeout' as MutantRunStatus.Timeout;
const ERROR = 'error' as MutantRunStatus.Error;
const SUCCESS = 0 as TestStatus.Success;
const FAILED = 1 as TestStatus.Failed;
const SKIPPED = 2 as TestStatus.Skipped;

/** Stryker's namespace on globalThis (the instrumenter's header creates and reads it). */
interface StrykerNamespace {
  activeMutant?: string;
  currentTestId?: string;
  mutantCoverage?: MutantCoverage;
  hitCount?: number;
  hitLimit?: number;
}

function namespace(): StrykerNamespace {
  const g = globalThis as { __stryker__?: StrykerNamespace };
  return (g.__stryker__ ??= {});
}

/** Tests of one mutant run side by side by default (FTF_MUTATION_TEST_CONCURRENCY in the plugin). */
export const DEFAULT_TEST_CONCURRENCY = 4;

const HIT_LIMIT = /Stryker: Hit count limit reached/;

export class InProcessTestRunner {
  private tests: InProcessTest[] | undefined;
  /** Each test's time in this process's dry run: a mutant's tests run quickest first (a kill comes sooner). */
  private readonly dryRunMs = new Map<string, number>();
  /** Errors thrown outside any awaited call while a test runs (see the header). */
  private stray: unknown[] = [];
  private readonly onStray = (error: unknown): void => void this.stray.push(error);

  /**
   * How many of a mutant's tests run side by side (each against a server of its own). Measured: the four tests that
   * wait in real time (a token's life, a uid's rotation, an issue after the cut-off: ~21 s of the clean run's 27 s)
   * overlap instead of adding up, which a surviving mutant they reach pays in full. The dry run stays one at a time
   * (coverage per test is recorded by the test id set before each test).
   */
  private readonly testConcurrency: number;

  constructor(private readonly set: TestSet, options: { testConcurrency?: number } = {}) {
    this.testConcurrency = Math.max(1, options.testConcurrency ?? DEFAULT_TEST_CONCURRENCY);
  }

  capabilities(): TestRunnerCapabilities {
    // No reload in this process (ES modules stay loaded): Stryker gives each static mutant a new process.
    return { reloadEnvironment: false };
  }

  async init(): Promise<void> {
    process.on('uncaughtException', this.onStray);
    process.on('unhandledRejection', this.onStray);
  }

  async dispose(): Promise<void> {
    process.off('uncaughtException', this.onStray);
    process.off('unhandledRejection', this.onStray);
    await this.set.dispose?.();
  }

  async dryRun(options: Pick<DryRunOptions, 'coverageAnalysis'>): Promise<DryRunResult> {
    const ns = namespace();
    delete ns.activeMutant;
    let tests: InProcessTest[];
    try {
      tests = await this.load();
    } catch (error) {
      return { status: DRY_ERROR, errorMessage: `the tests could not be loaded: ${text(error)}` };
    }
    const results: TestResult[] = [];
    for (const test of tests) {
      if (options.coverageAnalysis === 'perTest') ns.currentTestId = test.id;
      const result = await this.runOne(test);
      this.dryRunMs.set(test.id, result.timeSpentMs);
      results.push(result);
    }
    const coverage = options.coverageAnalysis === 'off' ? {} : { mutantCoverage: ns.mutantCoverage ?? { static: {}, perTest: {} } };
    return { status: DRY_COMPLETE, tests: results, ...coverage };
  }

  async mutantRun(options: Pick<MutantRunOptions, 'activeMutant' | 'testFilter' | 'disableBail' | 'hitLimit' | 'mutantActivation'>): Promise<MutantRunResult> {
    const ns = namespace();
    const id = options.activeMutant.id;
    if (options.mutantActivation === 'static') {
      // The code must load with the mutant on; Stryker gave this mutant a fresh process (capabilities()).
      if (this.tests !== undefined) return { status: ERROR, errorMessage: `static mutant ${id}: the code under test is already loaded in this process` };
      ns.activeMutant = id;
    }
    let tests: InProcessTest[];
    try {
      tests = await this.load();
    } catch (error) {
      delete ns.activeMutant;
      // The test set itself (the harness, the scenario files) did not load: no test ran, so nothing killed the mutant.
      return { status: ERROR, errorMessage: `the tests could not be loaded: ${text(error)}` };
    }
    ns.activeMutant = id;
    if (options.hitLimit !== undefined) {
      ns.hitCount = 0;
      ns.hitLimit = options.hitLimit;
    }
    this.stray = [];
    const filter = options.testFilter ? new Set(options.testFilter) : undefined;
    // Quickest first (every test has a server of its own, so the order changes no verdict); a process without a dry
    // run (a static mutant's) keeps the list's order.
    const selected = (filter ? tests.filter((t) => filter.has(t.id)) : [...tests]).sort((a, b) => (this.dryRunMs.get(a.id) ?? 0) - (this.dryRunMs.get(b.id) ?? 0));
    const killedBy: string[] = [];
    let failureMessage = '';
    let timeout: string | undefined;
    let ran = 0;
    let next = 0;
    // Stops handing out tests: a kill (unless Stryker's disableBail), or a hit-limit timeout. Tests already running
    // finish first (their servers must close before the mutant is switched off).
    const stopped = (): boolean => timeout !== undefined || (killedBy.length > 0 && !options.disableBail);
    const lane = async (): Promise<void> => {
      while (!stopped() && next < selected.length) {
        const test = selected[next++]!;
        ran++;
        const result = await this.runOne(test);
        if (ns.hitLimit !== undefined && (ns.hitCount ?? 0) > ns.hitLimit) timeout ??= `hit limit ${ns.hitLimit} reached in ${test.id} (an endless loop)`;
        else if (result.status === FAILED && HIT_LIMIT.test(result.failureMessage)) timeout ??= `hit limit reached in ${test.id} (an endless loop)`;
        else if (result.status === FAILED) {
          killedBy.push(test.id);
          failureMessage ||= `${test.id}: ${result.failureMessage}`;
        }
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(this.testConcurrency, selected.length) }, lane));
    } finally {
      delete ns.activeMutant;
      delete ns.hitCount;
      delete ns.hitLimit;
    }
    if (timeout !== undefined) return { status: TIMEOUT, reason: timeout };
    return killedBy.length ? { status: KILLED, killedBy, failureMessage, nrOfTests: ran } : { status: SURVIVED, nrOfTests: ran };
  }

  /** The tests, and the code under test loaded outside any test (module-level code: static coverage). */
  private async load(): Promise<InProcessTest[]> {
    if (this.tests) return this.tests;
    const tests = await this.set.load();
    const ns = namespace();
    const testId = ns.currentTestId;
    delete ns.currentTestId;
    try {
      await this.set.loadCode();
    } catch {
      // Code that does not load (a static mutant that throws at the top level) fails the tests that import it.
    } finally {
      if (testId !== undefined) ns.currentTestId = testId;
    }
    return (this.tests = tests);
  }

  private async runOne(test: InProcessTest): Promise<TestResult> {
    const strayBefore = this.stray.length;
    const started = performance.now();
    let verdict: TestVerdict;
    try {
      verdict = await test.run();
    } catch (error) {
      verdict = { status: 'failed', message: `the test threw: ${text(error)}` };
    }
    // A rejection nobody handles is reported on a later turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
    // Tests of one mutant run side by side: an error thrown while this test ran may be another's; either way the
    // mutant's code threw, and the mutant is killed.
    if (verdict.status !== 'failed' && this.stray.length > strayBefore) {
      verdict = { status: 'failed', message: `the code under test threw outside any request (in a process of its own, the server would have crashed): ${text(this.stray[strayBefore])}` };
    }
    const base = { id: test.id, name: test.name, timeSpentMs: Math.round(performance.now() - started), ...(test.fileName ? { fileName: test.fileName } : {}) };
    if (verdict.status === 'passed') return { ...base, status: SUCCESS };
    if (verdict.status === 'skipped') return { ...base, status: SKIPPED };
    return { ...base, status: FAILED, failureMessage: verdict.message };
  }
}

function text(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

// The StrykerJS test runner plugin `ftf-conformance` (stryker.config.mjs, `npm run mutation:code`; issue 26): the
// conformance suite against the embedded reference, run IN PROCESS by src/mutation-code/runner.ts (mutant switching,
// coverage per test, static mutants in a fresh process; docs/mutation-code.md), instead of the CLI and Playwright per
// mutant.
//
// Stryker loads this file in its main process (only to learn the plugin) and in each test-runner process, whose working
// directory is the sandbox (.stryker-tmp/sandbox-*: the project copy with the instrumented reference). The runner and
// the tests are the sandbox's TypeScript, imported through tsx (`testRunnerNodeArgs: ['--import', 'tsx']`), so the
// harness and the reference come from the sandbox too.
//
// FTF_MUTATION_TEST_SET: the module (relative to the sandbox) whose `testSet()` gives the tests; default the
// conformance suite, src/mutation-code/conformance-tests.ts. The runner's self-test gives a fixture set
// (test/mutation-code/). FTF_MUTATION_TESTS: a regular expression; only the tests whose id matches run.
// FTF_MUTATION_TEST_CONCURRENCY: how many of a mutant's tests run side by side (default 4; 1 = one after another).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { commonTokens, declareClassPlugin, PluginKind } from '@stryker-mutator/api/plugin';

const DEFAULT_TEST_SET = 'src/mutation-code/conformance-tests.ts';

class FtfConformanceTestRunner {
  static inject = [commonTokens.logger];
  /** @type {import('../src/mutation-code/runner.ts').InProcessTestRunner | undefined} */
  #runner;

  constructor(logger) {
    this.logger = logger;
  }

  async #inner() {
    if (!this.#runner) {
      const sandbox = (file) => pathToFileURL(join(process.cwd(), file)).href;
      const { InProcessTestRunner } = await import(sandbox('src/mutation-code/runner.ts'));
      const { testSet } = await import(sandbox(process.env.FTF_MUTATION_TEST_SET || DEFAULT_TEST_SET));
      const only = process.env.FTF_MUTATION_TESTS ? new RegExp(process.env.FTF_MUTATION_TESTS) : undefined;
      const concurrency = Number(process.env.FTF_MUTATION_TEST_CONCURRENCY);
      this.#runner = new InProcessTestRunner(testSet(only ? { only } : {}), Number.isInteger(concurrency) && concurrency > 0 ? { testConcurrency: concurrency } : {});
      this.logger.debug('ftf-conformance runner ready in %s', process.cwd());
    }
    return this.#runner;
  }

  capabilities() {
    return { reloadEnvironment: false };
  }

  async init() {
    await (await this.#inner()).init();
  }

  async dryRun(options) {
    return (await this.#inner()).dryRun(options);
  }

  async mutantRun(options) {
    return (await this.#inner()).mutantRun(options);
  }

  async dispose() {
    await this.#runner?.dispose();
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.TestRunner, 'ftf-conformance', FtfConformanceTestRunner)];

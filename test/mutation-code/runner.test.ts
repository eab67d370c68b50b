/**
 * The in-process mutation runner (src/mutation-code/runner.ts) on a fixture module instrumented by Stryker's own
 * instrumenter (mutant switching, as in a Stryker sandbox), with three mutants: one its tests kill, one they cannot
 * see (it survives), one in module-level code (static: only a load with the mutant on shows it). Runs in a few seconds;
 * the plugin inside Stryker itself is exercised by `npm run mutation:code` (docs/mutation-code.md).
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { quietInstrumenter } from './instrumenter.js';
import type { Mutant } from '@stryker-mutator/api/core';
import { InProcessTestRunner } from '../../src/mutation-code/runner.js';
import type { InProcessTest, TestSet } from '../../src/mutation-code/types.js';

// add(2, 0) cannot tell a + b from a - b; an empty body returns undefined; GREETING is read when the module loads.
const FIXTURE = `export const GREETING = 'hello';
export function add(a: number, b: number): number {
  return a + b;
}
`;

type Fixture = { GREETING: string; add(a: number, b: number): number };

let dir: string;
let file: string;
let mutants: readonly Mutant[];
let loads = 0;

/** The fixture's tests; each set imports its own instance of the module (a fresh process, for the runner). */
function fixtureTests(): TestSet {
  return {
    async load() {
      const url = `${pathToFileURL(file).href}?instance=${++loads}`;
      let sut: Fixture | undefined;
      const get = async (): Promise<Fixture> => (sut ??= (await import(url)) as Fixture);
      const test = (id: string, body: (s: Fixture) => boolean): InProcessTest => ({
        id,
        name: id,
        run: async () => ((await body(await get())) ? { status: 'passed' } : { status: 'failed', message: `${id}: expectation not met` }),
      });
      this.loadCode = async () => void (await get());
      return [test('greets', (s) => s.GREETING.length > 0), test('adds', (s) => s.add(2, 0) === 2), test('idle', () => true)];
    },
    loadCode: async () => undefined,
  };
}

const byMutator = (name: string): Mutant => {
  const found = mutants.find((m) => m.mutatorName === name);
  assert.ok(found, `the instrumenter made no ${name} mutant: ${mutants.map((m) => m.mutatorName).join(', ')}`);
  return found;
};

const strykerNs = (): Record<string, unknown> => ((globalThis as { __stryker__?: Record<string, unknown> }).__stryker__ ??= {});

describe('in-process mutation runner (fixture module)', () => {
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ftf-mutation-runner-'));
    file = join(dir, 'sut.mts');
    const instrumenter = quietInstrumenter();
    const result = await instrumenter.instrument([{ name: file, content: FIXTURE, mutate: true }], { plugins: null, excludedMutations: [], ignorers: [] });
    mutants = result.mutants;
    writeFileSync(file, result.files[0]!.content);
    delete strykerNs().mutantCoverage;
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('records coverage per test in the dry run, static coverage while the module loads, and kills by a named test', async () => {
    const runner = new InProcessTestRunner(fixtureTests());
    await runner.init();
    try {
      const dry = await runner.dryRun({ coverageAnalysis: 'perTest' });
      assert.equal(dry.status, 'complete');
      if (dry.status !== 'complete') return;
      assert.deepEqual(dry.tests.map((t) => [t.id, t.status]), [['greets', 0], ['adds', 0], ['idle', 0]]);
      const greeting = byMutator('StringLiteral');
      const body = byMutator('BlockStatement');
      const plus = byMutator('ArithmeticOperator');
      const coverage = dry.mutantCoverage!;
      // The module loaded before the first test (loadCode): its top level is static coverage, nobody's test.
      assert.ok(coverage.static[greeting.id], 'the module-level string is static');
      assert.equal(coverage.perTest.greets?.[greeting.id], undefined);
      assert.ok(coverage.perTest.adds?.[body.id] && coverage.perTest.adds[plus.id], 'add() is reached by adds');
      assert.equal(coverage.perTest.idle?.[body.id], undefined, 'idle reaches nothing');

      const killed = await runner.mutantRun({ activeMutant: body, testFilter: ['adds'], disableBail: false, mutantActivation: 'runtime' });
      assert.deepEqual(killed.status === 'killed' && [killed.killedBy, killed.nrOfTests], [['adds'], 1]);
      assert.match(killed.status === 'killed' ? killed.failureMessage : '', /adds: expectation not met/);

      const survived = await runner.mutantRun({ activeMutant: plus, testFilter: ['adds'], disableBail: false, mutantActivation: 'runtime' });
      assert.deepEqual(survived, { status: 'survived', nrOfTests: 1 });
      assert.equal(strykerNs().activeMutant, undefined, 'the mutant is switched off after its run');

      // A static mutant in an environment already loaded: the runner refuses (Stryker gives it a fresh process).
      const refused = await runner.mutantRun({ activeMutant: greeting, disableBail: false, mutantActivation: 'static' });
      assert.equal(refused.status, 'error');
    } finally {
      await runner.dispose();
    }
  });

  it('a static mutant loads with the mutant on in a fresh environment and is killed there; runtime switching cannot see it', async () => {
    const greeting = byMutator('StringLiteral');
    const loaded = new InProcessTestRunner(fixtureTests());
    await loaded.init();
    await loaded.dryRun({ coverageAnalysis: 'off' });
    // Switched on after the module loaded: the constant is already 'hello'.
    assert.deepEqual(await loaded.mutantRun({ activeMutant: greeting, disableBail: false, mutantActivation: 'runtime' }), { status: 'survived', nrOfTests: 3 });
    await loaded.dispose();

    const fresh = new InProcessTestRunner(fixtureTests());
    await fresh.init();
    try {
      const result = await fresh.mutantRun({ activeMutant: greeting, disableBail: false, mutantActivation: 'static' });
      assert.deepEqual(result.status === 'killed' ? result.killedBy : result, ['greets']);
    } finally {
      await fresh.dispose();
    }
  });
});

describe('in-process mutation runner: a mutant\'s tests side by side', () => {
  /** Tests that wait for a gate the test body opens, recording how many run at once and which started. */
  function gatedTests(verdicts: readonly boolean[]): { set: TestSet; started: string[]; maxInFlight: () => number; release: () => void } {
    const started: string[] = [];
    let inFlight = 0;
    let max = 0;
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const tests = verdicts.map((passes, i): InProcessTest => ({
      id: `t${i}`,
      name: `t${i}`,
      run: async () => {
        started.push(`t${i}`);
        max = Math.max(max, ++inFlight);
        // A failing test fails at once; the passing ones wait for the gate (a test still running when a kill comes).
        if (passes) await gate;
        inFlight--;
        return passes ? { status: 'passed' } : { status: 'failed', message: `t${i} failed` };
      },
    }));
    return { set: { load: async () => tests, loadCode: async () => undefined }, started, maxInFlight: () => max, release: () => open() };
  }
  const mutant = { id: '1', fileName: 'x.ts', mutatorName: 'StringLiteral', replacement: '""', location: { start: { line: 1, column: 0 }, end: { line: 1, column: 1 } } } as unknown as Mutant;

  it('runs up to testConcurrency tests at once, and a survivor runs them all', async () => {
    const tests = gatedTests([true, true, true, true, true]);
    const runner = new InProcessTestRunner(tests.set, { testConcurrency: 3 });
    await runner.init();
    const run = runner.mutantRun({ activeMutant: mutant, disableBail: false, mutantActivation: 'runtime' });
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(tests.started, ['t0', 't1', 't2'], 'three start before any ends');
    tests.release();
    assert.deepEqual(await run, { status: 'survived', nrOfTests: 5 });
    assert.equal(tests.maxInFlight(), 3);
    await runner.dispose();
  });

  it('a kill starts no further test, waits for those running, and names the killer', async () => {
    const tests = gatedTests([true, false, true, true]);
    const runner = new InProcessTestRunner(tests.set, { testConcurrency: 2 });
    await runner.init();
    const run = runner.mutantRun({ activeMutant: mutant, disableBail: false, mutantActivation: 'runtime' });
    let settled = false;
    void run.then(() => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(settled, false, 't0 still runs: the verdict waits for it (its server must close before the mutant is off)');
    tests.release();
    const result = await run;
    assert.deepEqual(result.status === 'killed' && [result.killedBy, result.nrOfTests], [['t1'], 2]);
    assert.deepEqual(tests.started, ['t0', 't1'], 'no test starts after the kill');
    await runner.dispose();
  });

  it('with testConcurrency 1 the tests run one after another', async () => {
    const tests = gatedTests([true, true]);
    tests.release();
    const runner = new InProcessTestRunner(tests.set, { testConcurrency: 1 });
    await runner.init();
    assert.deepEqual(await runner.mutantRun({ activeMutant: mutant, disableBail: false, mutantActivation: 'runtime' }), { status: 'survived', nrOfTests: 2 });
    assert.equal(tests.maxInFlight(), 1);
    await runner.dispose();
  });
});

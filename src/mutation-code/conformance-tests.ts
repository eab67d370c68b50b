/**
 * The test set of `npm run mutation:code` (docs/mutation-code.md): what `ftf-conformance run` runs against the
 * embedded reference, in process (runner.ts), each test against a reference server of its own.
 *
 * - `sandbox:<id>`: every YAML scenario against fixtures/targets/reference.yaml (the `sandbox` project), planned
 *   like a run (scenario/plan.ts: clock-less form, skip) and run by the engine outside Playwright
 *   (engine/in-process.ts: the same engine, checks and outcome record as `run`, the same as `ftf-conformance dev`).
 * - `production:<id>`: the scenarios tagged @production against the reference in production mode
 *   (fixtures/targets/reference-production.yaml, the `production` project), the production guard on.
 * - `no-control:<id>`: the scenarios that have a clock-less form, run as that form against the reference without
 *   the control API (fixtures/targets/reference-no-control.yaml, CI's no-control stage): the only tests that judge
 *   the reference's clock in real time (a token's life, a uid's rotation, an issue after the cut-off). The rest of
 *   that stage runs as in sandbox and is left out.
 * - `property:<id>`: the property tests (specs/properties: paging, the stateful model, the amount boundaries) against
 *   the sandbox profile, through the same library calls as their spec files, with a FIXED seed (PROPERTY_SEED) and no
 *   shrinking: a mutant is judged by the same command sequences every time, and a kill can be replayed.
 * The Playwright-only parts of a run (reporters, attachments, HAR) judge nothing and are left out.
 *
 * A fresh server per test: in a `run`, scenarios share their worker's server in an order Playwright chooses, and a
 * mutant's tests here are a subset of the suite, so a shared server would make a verdict depend on which tests ran
 * before it. The reference's modules are loaded outside any test (loadCode; for a static mutant with the mutant on),
 * and each test first empties the reference's date memos (domain/dates.ts), so a value computed before the mutant
 * was on hides nothing.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { launchEmbedded, type EmbeddedLaunch } from '../embedded/launch.js';
import { runInProcess } from '../harness/engine/in-process.js';
import { wireEngine } from '../harness/engine/wiring.js';
import { CheckFailure } from '../harness/engine/errors.js';
import { createUndiciTransport } from '../harness/http/undici-transport.js';
import { runAmountBoundaries } from '../harness/boundaries/run.js';
import { EventsApi } from '../harness/properties/events-api.js';
import { ModelApi } from '../harness/properties/model/api.js';
import { DEFAULT_MAX_COMMANDS, modelSkipReasonFor, prepareModelProperty } from '../harness/properties/model/property.js';
import { preparePagingProperty } from '../harness/properties/paging-property.js';
import { PROPERTY_TESTS, type PropertyTest } from '../harness/properties/catalogue.js';
import type { PropertySettings } from '../harness/properties/runner.js';
import { RunLog } from '../harness/properties/run-log.js';
import { REPO_ROOT } from '../harness/repo-root.js';
import { loadScenarioSuite, type ScenarioSuite } from '../harness/scenario/load.js';
import { scenarioTestTags } from '../harness/scenario/selection.js';
import { PRODUCTION_TAG } from '../harness/scenario/environment.js';
import type { Scenario } from '../harness/scenario/types.js';
import { schemaRegistry } from '../harness/schemas/registry.js';
import type { SchemaRegistry } from '../harness/schemas/types.js';
import { loadClauseCatalogue } from '../harness/spec/clauses.js';
import { mutationSkipReason } from '../harness/target/guard.js';
import { withMutationGuard } from '../harness/target/capabilities.js';
import { resolveTarget } from '../harness/target/resolve.js';
import { planScenario, propertySkip } from '../harness/scenario/plan.js';
import { targetView } from '../harness/engine/target-view.js';
import { REFERENCE_PRODUCTION_PROFILE, REFERENCE_PROFILE } from '../harness/target/load.js';
import { readProfile, type Profile } from '../harness/target/profile.js';
import type { ResolvedTarget } from '../harness/target/types.js';
import type { Transport } from '../harness/http/types.js';
import type { InProcessTest, TestSet, TestVerdict } from './types.js';
import type { OutcomeRecord } from '../harness/report/records/outcome.js';

/** The seed of every property test here (fast-check); a kill by a property replays with FTF_FC_SEED=<this>. */
export const PROPERTY_SEED = 2611;
/** Runs per property: the defaults of specs/properties/event-paging.spec.ts (25) and model.spec.ts (20). */
const PROPERTY_RUNS: Record<string, number> = { 'properties.paging-fenced-slice': 25, 'properties.paging-head-fence': 25, 'properties.model-stateful': 20 };

interface Environment {
  /** sandbox, production, no-control, or `persona-<name>` (the reference with a variant persona on). */
  name: string;
  profile: Profile;
  /** The variants the reference runs with (a persona's), none for the default reference. */
  variants?: readonly string[];
  /**
   * The profile resolved without a server (URLs left embedded), the production guard applied: what a run's plan
   * reads (capabilities, roles). A test it skips launches no server, so it reaches no mutant and Stryker never runs it.
   */
  planned: ResolvedTarget;
  /** One schema registry per profile (compiled once): every launch of a profile has the same paths and fields. */
  schemas?: SchemaRegistry;
}

export interface ConformanceTestOptions {
  /** Only the tests whose id matches (FTF_MUTATION_TESTS in the plugin): the runner's self-test, a quick look. */
  only?: RegExp;
  /** The persona environments (default on). */
  personas?: boolean;
}

/** The conformance test set (types.ts; every test-set module exports `testSet`) over the scenarios under specs/ (or FTF_SPECS_DIR) and the property tests. */
export function testSet(options: ConformanceTestOptions = {}): TestSet {
  const wire = createUndiciTransport();
  // The personas' generated profiles (removed on dispose).
  const personaDir = mkdtempSync(join(tmpdir(), 'ftf-mutation-personas-'));
  return {
    async load() {
      const dir = process.env.FTF_SPECS_DIR ?? join(REPO_ROOT, 'specs');
      const suite = loadScenarioSuite(dir, { clauses: loadClauseCatalogue().byId });
      if (suite.problems.length > 0) throw new Error(`${suite.problems.length} scenario file(s) do not load, e.g. ${suite.problems[0]?.file}`);
      const byId = new Map(suite.scenarios.map((s) => [s.id, s]));
      const stamp = scenarioStamps(suite);
      const sandbox = environment('sandbox', REFERENCE_PROFILE);
      const production = environment('production', REFERENCE_PRODUCTION_PROFILE);
      const noControl = environment('no-control', join(REPO_ROOT, 'fixtures', 'targets', 'reference-no-control.yaml'));
      const tests = suite.scenarios.filter((s) => s.formOf === undefined);
      const all: InProcessTest[] = [
        ...tests.map((s) => scenarioTest(s, byId, sandbox, wire, stamp)),
        ...tests.filter((s) => scenarioTestTags(s).includes(PRODUCTION_TAG)).map((s) => scenarioTest(s, byId, production, wire, stamp)),
        ...PROPERTY_TESTS.map((p) => propertyTest(p, sandbox, wire)),
        // Last (they wait in real time): the clock-less forms, where the reference's real-time clock is judged.
        ...tests.filter((s) => s.clocklessForm !== undefined).map((s) => scenarioTest(s, byId, noControl, wire, stamp)),
        // The variant personas (the variant matrix's whole-suite runs): code only a variant reaches (a variant's
        // branch, list paging by cursor or page number, other request shapes) is judged too, as a correct server's.
        ...(options.personas === false ? [] : (await personaEnvironments(personaDir)).flatMap((env) => tests.map((s) => scenarioTest(s, byId, env, wire, stamp)))),
      ];
      return options.only ? all.filter((t) => options.only!.test(t.id)) : all;
    },
    async loadCode() {
      // The whole reference: server.ts imports the app, every route, domain, auth and http module (none is imported later).
      await import('../reference/server.js');
    },
    async dispose() {
      rmSync(personaDir, { recursive: true, force: true });
      await wire.dispose?.();
    },
  };
}

function environment(name: string, file: string): Environment {
  return environmentOf(name, readProfile(file));
}

function environmentOf(name: string, profile: Profile, variants?: readonly string[]): Environment {
  return { name, profile, ...(variants ? { variants } : {}), planned: withMutationGuard(resolveTarget(profile, { env: process.env, partial: true }), false) };
}

/**
 * One environment per persona: its profile generated as the variant matrix does (selftest/variant-profile.ts).
 * Imported here, not at the top: they import the reference's http/paging.ts and http/shape.ts, and a module this
 * file loads when the runner plugin starts is evaluated before a static mutant is switched on, so a mutant of its
 * module-level code would never be on (test/mutation-code/conformance-tests.test.ts checks no mutated module loads).
 */
async function personaEnvironments(dir: string): Promise<Environment[]> {
  const [{ PERSONAS }, { expandRun }, { writeVariantProfile }] = await Promise.all([
    import('../reference/variants.js'),
    import('../selftest/variant-targets.js'),
    import('../selftest/variant-profile.js'),
  ]);
  // npm run mutation:code writes the profiles before Stryker starts: generated here, a static mutant of the code
  // profileFor reads (http/paging.ts, http/shape.ts) would be on and change the profile along with the server.
  const written = process.env.FTF_MUTATION_PERSONA_DIR;
  return PERSONAS.map((p) => {
    const variants = expandRun(p.name);
    const profile = written ? readProfile(join(written, `variant-${p.name}.yaml`)) : writeVariantProfile(dir, p.name, variants);
    return environmentOf(`persona-${p.name}`, profile, variants);
  });
}

/** Launches a reference server of its own for `run`, closes it after; a server that does not start fails the test. */
async function withServer(env: Environment, run: (target: ResolvedTarget, schemas: SchemaRegistry) => Promise<TestVerdict>): Promise<TestVerdict> {
  // The reference's process-wide memos, emptied before this test's server is built (see the header).
  (await import('../reference/domain/dates.js')).clearDateMemos();
  let launch: EmbeddedLaunch;
  try {
    launch = await launchEmbedded(env.profile, env.variants ? { server: { variants: [...env.variants] } } : {});
  } catch (error) {
    return { status: 'failed', message: `the reference server did not start: ${error instanceof Error ? error.message : String(error)}` };
  }
  try {
    const { target } = launch;
    env.schemas ??= schemaRegistry({ paths: target.paths, fields: target.fields, records: target.records });
    return await run(target, env.schemas);
  } finally {
    await launch.close();
  }
}

/**
 * A short digest of what a scenario's test runs: its YAML, its clock-less form's, and every step group's. It is part of
 * the test's name because Stryker's incremental mode knows a test by its name alone (these tests have no file): a
 * scenario sharpened since the last run must count as a new test, so the survivors it covers are tested again.
 */
function scenarioStamps(suite: ScenarioSuite): (s: Scenario, byId: ReadonlyMap<string, Scenario>) => string {
  const text = (file: string): string => readFileSync(file, 'utf8');
  const groups = [...suite.groups.values()].map((g) => g.source.file).sort().map(text).join('\0');
  return (s, byId) => {
    const form = s.clocklessForm ? byId.get(s.clocklessForm) : undefined;
    return createHash('sha256').update(text(s.source.file)).update('\0').update(form ? text(form.source.file) : '').update('\0').update(groups).digest('hex').slice(0, 8);
  };
}

function scenarioTest(scenario: Scenario, byId: ReadonlyMap<string, Scenario>, env: Environment, wire: Transport, stamp: ReturnType<typeof scenarioStamps>): InProcessTest {
  return {
    id: `${env.name}:${scenario.id}`,
    name: `${env.name}: ${scenario.id} [${stamp(scenario, byId)}]: ${scenario.title}`,
    // No fileName: Stryker's reports would embed the scenario's YAML, whose request templates (`authorization:
    // "Basic ${…}"`) a `run`'s leak scan of reports/ takes for credentials (FTF_E_SECRET_LEAK, the files quarantined).
    run: async () => {
      // The run's own plan (scenario/plan.ts), before any server: a skip here is the run's skip too.
      const plan = planScenario(scenario, byId, { capabilities: env.planned.capabilities, view: targetView(env.planned) });
      if (plan.skip !== undefined) return { status: 'skipped', reason: plan.skip };
      return withServer(env, async (target, schemas) => {
        // The command line's opt-in to writes on production is off, as in `run` without --allow-mutations.
        const result = await runInProcess(scenario, byId, { target, schemas, wire, cliAllowsMutations: false, runIdPrefix: 'mc' });
        return verdictOfRecord(result.record, result.message);
      });
    },
  };
}

/**
 * A scenario's test verdict from its outcome record: the record's failed or errored is a kill. So is a passed record
 * with warnings: a should clause's failed check is a warning in a run's verdict, not a failure, yet it is the harness
 * seeing the deviation (the clean reference gives none: the dry run would fail on it).
 */
export function verdictOfRecord(record: OutcomeRecord, message?: string): TestVerdict {
  const { status, warnings } = record;
  if (status === 'passed' && warnings.length > 0) {
    const w = warnings[0]!;
    return { status: 'failed', message: `warning (should) [${w.check}] (clauses ${w.clauses.join(', ')}): ${firstLines(w.message, 6)}` };
  }
  if (status === 'passed') return { status: 'passed' };
  if (status === 'skipped' || status === 'not-applicable') return { status: 'skipped', reason: record.reason ?? status };
  const clauses = record.clauses.length ? ` (clauses ${record.clauses.join(', ')})` : '';
  return { status: 'failed', message: `${status} ${record.code ?? ''}${clauses}: ${firstLines(message ?? record.reason ?? '', 6)}` };
}

const firstLines = (text: string, n: number): string => text.split('\n').slice(0, n).join('\n');

function propertyTest(p: PropertyTest, env: Environment, wire: Transport): InProcessTest {
  return {
    id: `property:${p.id}`,
    name: `property: ${p.id}: ${p.title}`,
    run: async () => {
      const skip = propertySkip(p, { capabilities: env.planned.capabilities, view: targetView(env.planned) });
      if (skip !== undefined) return { status: 'skipped', reason: skip };
      return withServer(env, (target, schemas) => runProperty(p, target, schemas, wire));
    },
  };
}

async function runProperty(p: PropertyTest, target: ResolvedTarget, schemas: SchemaRegistry, wire: Transport): Promise<TestVerdict> {
  const log = new RunLog();
  const wired = wireEngine({ target, schemas, wire, sinks: [log], writeGuard: { allowMutations: false } });
  const deps = { target, schemas, transport: wired.transport, auth: wired.auth, redact: wired.redact };
  const settings: PropertySettings = { numRuns: PROPERTY_RUNS[p.id] ?? 20, seed: PROPERTY_SEED, path: undefined, endOnFailure: true };
  const common = { title: p.title, settings, timeLimitMs: Math.round(target.timeouts.scenarioMs * 0.75), command: `FTF_FC_SEED=${PROPERTY_SEED} (npm run mutation:code)` };
  const started = performance.now();
  try {
    if (p.id === 'boundaries.amounts' || p.id === 'properties.model-stateful') {
      const skip = mutationSkipReason(target, ['mutation'], false) ?? modelSkipReasonFor(p.id, target);
      if (skip) return { status: 'skipped', reason: skip };
      const api = new ModelApi(deps);
      if (p.id === 'boundaries.amounts') {
        const run = await runAmountBoundaries(api, target);
        const failed = run.checks.filter((c) => !c.passed);
        if (failed.length) throw new CheckFailure(failed);
        return { status: 'passed' };
      }
      const prepared = await prepareModelProperty(api, new EventsApi(deps), log, target, { ...common, maxCommands: DEFAULT_MAX_COMMANDS, replayPath: undefined });
      if (prepared.skip) return { status: 'skipped', reason: prepared.skip };
      await prepared.run();
      return { status: 'passed' };
    }
    const fence = p.id === 'properties.paging-head-fence' ? 'head' : 'event';
    const prepared = await preparePagingProperty(new EventsApi(deps), log, target, { ...common, fence });
    if (prepared.skip) return { status: 'skipped', reason: prepared.skip };
    await prepared.run();
    return { status: 'passed' };
  } catch (error) {
    const message = wired.redact(error instanceof Error ? error.message : String(error));
    return { status: 'failed', message: `${message.split('\n').slice(0, 8).join('\n')}\n(after ${Math.round(performance.now() - started)} ms)` };
  }
}

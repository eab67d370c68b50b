/**
 * Playwright fixtures: the glue layer (the only code that may import both src/reference and src/harness).
 * - worker `opened` (test `target` reads it): FTF_TARGET unset -> launch the embedded reference server in this worker for
 *   fixtures/targets/reference.yaml (src/embedded/launch.ts: bounded start, secrets bound from the profile's
 *   data, never through process.env); else resolve the given profile from the environment the CLI set.
 *   A target that cannot be opened is not a fixture crash: each test records it as its outcome (errored).
 *   The project's metadata chooses the embedded run (playwright.config.ts): `fault` (one injected fault),
 *   `mode` ('sandbox' | 'production', the server's mode) and `profile` (the profile to load for it).
 * - worker `schemas`: the schema registry bound to the target's paths/fields.
 * - test `wire`: the raw transport of the test (FTF_TRANSPORT, src/harness/http/transport-choice.ts): the undici
 *   transport by default, or Playwright's `request` fixture with FTF_TRANSPORT=playwright. `engine` and the
 *   property fixtures wrap it in the same write guard, recorder and redaction whichever it is.
 * - test `engine`: an EngineContext whose transport records every exchange (redacted) as attachments (in
 *   batches, those without a response or with a 5xx alone: attachmentSink), whose auth client caches tokens per test, and whose steps are boxed test.steps.
 */
import { randomBytes } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { _baseTest, request as apiRequest, test as playwrightTest, type APIRequestContext, type TestInfo, type TestType } from '@playwright/test';
import type { CheckResult } from '../src/harness/checks/types.js';
import type { EngineContext } from '../src/harness/engine/types.js';
import { wireEngine } from '../src/harness/engine/wiring.js';
import type { SourceLocation } from '../src/harness/scenario/types.js';
import { transportKind } from '../src/harness/http/transport-choice.js';
import { boundedRecording, exchangeBatches, harSink, summaryComment, type ExchangeBatches } from '../src/harness/http/sinks.js';
import { markStep, outcomeFromError, type Evidence } from '../src/harness/report/records/record-outcome.js';
import { encodeOutcome, readOutcome } from '../src/harness/report/records/outcome.js';
import { versionSink } from '../src/harness/report/records/implementation.js';
import type { Exchange, RecordingSummary, Transport } from '../src/harness/http/types.js';
import { loadScenarioSuiteOnce } from '../src/harness/scenario/suite-cache.js';
import type { SchemaRegistry } from '../src/harness/schemas/types.js';
import { withMutationGuard } from '../src/harness/target/capabilities.js';
import { cliAllowsMutations, mutationSkipReason } from '../src/harness/target/guard.js';
import { loadTargetProfile, REFERENCE_PROFILE, resolveTargetFile } from '../src/harness/target/load.js';
import { embeddedStartBoundMs, launchRequested, type EmbeddedLaunch, type LaunchRequest } from '../src/embedded/launch.js';
import { readRunSettings } from '../src/shared/run-settings.js';
import type { Capability, ResolvedTarget } from '../src/harness/target/types.js';
import { FtfError } from '../src/shared/errors.js';
import { announceSecrets } from '../src/harness/report/redaction/secret-digests.js';
import { redactError } from '../src/harness/report/redaction/redact-error.js';
import { redactStructural } from '../src/harness/report/redaction/structural-redaction.js';

// A worker whose runner is gone (the CLI running it in its own process was killed: the IPC channel closed) stops at
// once, not after Playwright's own teardown of up to 30 s that could keep testing the target unsupervised.
if (process.env.TEST_WORKER_INDEX !== undefined) process.once('disconnect', () => process.kill(process.pid, 'SIGKILL'));

const SPECS_DIR = dirname(fileURLToPath(import.meta.url));

/** The worker's target, or why it could not be opened (a typed error each test then records as its outcome). */
type Opened = { target: ResolvedTarget } | { error: unknown };

interface WorkerFixtures {
  opened: Opened;
  schemas: SchemaRegistry;
}

interface TestFixtures {
  /** The worker's target; when it could not be opened, every test ends errored with that error's code and kind. */
  target: ResolvedTarget;
  /** Auto: skips scenarios needing `mutation` on a production target without both opt-ins (guard.ts). */
  productionGuard: void;
  /** Opens and closes the test's window of recorded variant questions (metadata.recordConsults only). */
  variantConsults: void;
  /** Auto, fault projects only: a scenario the fault failed cleanly keeps its worker (keepWorkerAfterKill). */
  keepWorkerAfterKill: void;
  /** The test's raw transport (not recorded): Playwright's request fixture, or undici (FTF_TRANSPORT). */
  wire: Transport;
  engine: EngineContext;
  /** Checks recorded during the test (warnings are turned into annotations at the end). */
  checks: CheckResult[];
  /** Where the test's exchanges went: attachment names and the HAR file (for the outcome record). */
  evidence: Evidence;
}

/**
 * Attaches the redacted exchanges to the running step as JSON (each exchange's `curl` field is the reproducing
 * command); allure-playwright picks them up. Exchanges go in batches (exchangeBatches, sinks.ts: up to
 * 50 per attachment, `NN–MM (k exchanges).json`, a JSON array), exchanges without a response or with a 5xx and a failing step's last
 * exchanges one per attachment (`NN <label>.json`): each attach is a Playwright step with a captured stack,
 * sent to the runner and written by every reporter. It sits behind the bounded recording (boundedRecording,
 * sinks.ts): a long walk attaches its first, failing, sampled and last exchanges, plus `recording
 * summary.json` (what was only counted).
 */
function attachmentSink(testInfo: TestInfo, evidence: Evidence): ExchangeBatches {
  const attach = async (name: string, body: unknown): Promise<void> => {
    evidence.exchanges.push(name);
    await testInfo.attach(name, { body: JSON.stringify(body, null, 2), contentType: 'application/json' });
  };
  const id = (x: Exchange): string => String(x.id).padStart(2, '0');
  const batches = exchangeBatches({
    one: (x) => attach(`${id(x)} ${x.label}.json`, x),
    many: (xs) => attach(`${id(xs[0] as Exchange)}–${id(xs[xs.length - 1] as Exchange)} (${xs.length} exchanges).json`, xs),
  });
  return {
    ...batches,
    async onSummary(summary: RecordingSummary) {
      await testInfo.attach('recording summary.json', { body: JSON.stringify({ comment: summaryComment(summary), ...summary }, null, 2), contentType: 'application/json' });
    },
  };
}

/** What a Playwright project asks of the embedded reference server (project.metadata). */
interface EmbeddedMetadata {
  fault?: string;
  /** Conformant variants of the reference (issue 12; the variant matrix, src/selftest/variant-matrix.ts). */
  variants?: string[];
  mode?: 'sandbox' | 'production';
  /** Profile file, absolute or relative to the repository root (default fixtures/targets/reference.yaml). */
  profile?: string;
  /**
   * Record which variant choices each test makes the server ask (src/reference/variant-consults.ts): the
   * variant matrix's clean project, whose records target every variant run (src/selftest/variant-targets.ts).
   */
  recordConsults?: boolean;
}

const REPO_ROOT = join(SPECS_DIR, '..');
/** Time the worker `target` fixture gets beyond the embedded start bound (profile read, bind, resolve). */
const FIXTURE_SETUP_SLACK_MS = 30_000;

let needsById: Map<string, readonly Capability[]> | undefined;
/** A scenario's needs by id (loaded once per worker, only for production targets). */
function scenarioNeeds(id: string): readonly Capability[] {
  needsById ??= new Map(loadScenarioSuiteOnce(process.env.FTF_SPECS_DIR ?? SPECS_DIR).scenarios.map((s) => [s.id, s.needs]));
  return needsById.get(id) ?? [];
}

const POINTED = Symbol('ftf.pointedAtScenario');

/**
 * Puts the scenario's YAML line on top of a failing step's stack, so Playwright's error snippet shows the
 * scenario line instead of engine internals (test.step's `box: true` would report the engine's call site,
 * so steps are not boxed; this does the boxing). Expected failures (FtfError: checks, bounds, transport)
 * keep only the scenario frame; unexpected errors keep their full stack below it (they are engine bugs).
 * The innermost step wins (a group's line over its `use:`). Every error leaves the step redacted (message,
 * stack, causes): this is where errors leave the engine for Playwright's reporters.
 */
async function pointAtScenario<T>(fn: () => Promise<T>, title: string, location: SourceLocation | undefined, redact: (text: string) => string, onFailure: () => Promise<void>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    // The bounded recording's held last exchanges (the page that broke a rule) join the failing step's evidence.
    await onFailure();
    redactError(e, redact);
    // The outcome record names the step and YAML line as data (record-outcome.ts), not via the stack text.
    markStep(e, title, location);
    if (location && e instanceof Error && !(e as Error & { [POINTED]?: boolean })[POINTED]) {
      const lines = (e.stack ?? `${e.name}: ${e.message}`).split('\n');
      const firstFrame = lines.findIndex((l) => /^\s+at /.test(l));
      const message = firstFrame < 0 ? lines : lines.slice(0, firstFrame);
      const frames = firstFrame < 0 || e instanceof FtfError ? [] : lines.slice(firstFrame);
      // Step errors carry an actionable hint; check failures' generic hint adds nothing to the message.
      if (e instanceof FtfError && e.hint && e.code !== 'FTF_E_CHECK_FAILED') message.push(`hint: ${e.hint}`);
      // The stable code for the reader; reports classify from the outcome record (src/harness/report/records/outcome.ts), not this text.
      if (e instanceof FtfError) message.push(`code: ${e.code}`);
      e.stack = [...message, `    at ${location.file}:${location.line}:${location.column}`, ...frames].join('\n');
      Object.defineProperty(e, POINTED, { value: true });
    }
    throw e;
  }
}

/**
 * The base. With the default undici transport: Playwright's root test type, without the browser fixtures of
 * `@playwright/test`'s `test`, whose auto fixtures (trace recording, context configuration, the worker's browser
 * options) every test would set up and tear down for nothing (no browser, traces off), each as a step with a
 * captured stack. With FTF_TRANSPORT=playwright: Playwright's own `test`, so its `request` fixture is exactly
 * Playwright's (API calls shown as steps, with their call logs, behind the redacting reporter).
 */
type Base = TestType<{ request: APIRequestContext }, object>;
const base: Base =
  transportKind() === 'playwright'
    ? (playwrightTest as unknown as Base)
    : _baseTest.extend<{ request: APIRequestContext }>({
        // Never used on this path (`wire` does not ask for it); declared so both bases have the same shape.
        // eslint-disable-next-line no-empty-pattern
        request: async ({}, use) => {
          const context = await apiRequest.newContext();
          try {
            await use(context);
          } finally {
            await context.dispose();
          }
        },
      });

export const test = base.extend<TestFixtures, WorkerFixtures>({
  opened: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use, workerInfo) => {
      if (process.env.FTF_TARGET?.trim()) {
        // The CLI resolved this profile already; the worker re-resolves it from the environment the CLI
        // handed over (secrets included), with the same pipeline. The production guard: without both
        // opt-ins the target loses `mutation` (guard.ts, capabilities.ts).
        let opened: Opened;
        try {
          opened = { target: withMutationGuard(loadTargetProfile(resolveTargetFile(process.env), { env: process.env }), cliAllowsMutations()) };
        } catch (error) {
          opened = { error };
        }
        await use(opened);
        return;
      }
      const meta = (workerInfo.project.metadata ?? {}) as EmbeddedMetadata;
      // The run's settings (FTF_RUN, shared/run-settings.ts): a fault or events given by hand.
      const handed = readRunSettings();
      // In this worker's process, before its server is built.
      if (meta.recordConsults) (await import('../src/reference/variant-consults.js')).enableVariantConsults();
      const fault = meta.fault ?? handed.fault;
      const request: LaunchRequest = {
        profile: meta.profile ? resolve(REPO_ROOT, meta.profile) : REFERENCE_PROFILE,
        ...(fault ? { fault } : {}),
        ...(meta.variants?.length ? { variants: meta.variants } : {}),
        ...(meta.mode ? { mode: meta.mode } : {}),
        events: handed.events ?? 0,
      };
      let launch: Pick<EmbeddedLaunch, 'target' | 'secrets' | 'close'>;
      try {
        // Each worker launches its own server: isolated clock and store.
        launch = await launchRequested(request);
      } catch (e) {
        // Playwright shows the error as "<message>"; the code leads it for readers (the verdict reads the record).
        await use({ error: e instanceof FtfError ? new FtfError(e.code, `${e.code}: ${e.message}`, { ...(e.hint ? { hint: e.hint } : {}), cause: e }) : e });
        return;
      }
      try {
        // The reporters (main process) never learn these values: they get digests (secret-digests.ts).
        const basic = Object.values(launch.target.credentials).flatMap((c) => (c.clientId && c.secret ? [Buffer.from(`${c.clientId}:${c.secret}`).toString('base64')] : []));
        announceSecrets([...launch.secrets, ...basic]);
        await use({ target: launch.target });
      } finally {
        await launch.close();
      }
    },
    // The launcher's own bound fires first (with a message naming the phase); this only backs it up, with
    // room for reading the profile and closing a late server, however small the configured bound.
    { scope: 'worker', timeout: embeddedStartBoundMs() + FIXTURE_SETUP_SLACK_MS },
  ],
  schemas: [
    async ({ opened }, use) => {
      const { schemaRegistry } = await import('../src/harness/schemas/registry.js');
      await use('target' in opened ? schemaRegistry({ paths: opened.target.paths, fields: opened.target.fields, records: opened.target.records }) : schemaRegistry());
    },
    { scope: 'worker' },
  ],
  // A target that could not be opened ends each test errored, as data: the record carries the error's code
  // and kind (a server that did not start is target trouble, a bad profile is input; never "internal").
  target: async ({ opened }, use, testInfo) => {
    if ('error' in opened) {
      testInfo.annotations.push(encodeOutcome(outcomeFromError(opened.error, { covers: [], evidence: { exchanges: [] }, checks: [] })));
      throw opened.error;
    }
    await use(opened.target);
  },
  // eslint-disable-next-line no-empty-pattern
  checks: async ({}, use) => use([]),
  // eslint-disable-next-line no-empty-pattern
  evidence: async ({}, use) => use({ exchanges: [] }),
  productionGuard: [
    async ({ target }, use, testInfo) => {
      if (target.environment === 'production') {
        const id = testInfo.annotations.find((a) => a.type === 'scenario')?.description;
        const reason = id === undefined ? undefined : mutationSkipReason(target, scenarioNeeds(id), cliAllowsMutations());
        testInfo.skip(reason !== undefined, reason);
      }
      await use();
    },
    { auto: true },
  ],
  // The variant matrix's clean project: the questions this test made the server ask, as an annotation.
  variantConsults: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use, testInfo) => {
      if (!(testInfo.project.metadata as EmbeddedMetadata | undefined)?.recordConsults) {
        await use();
        return;
      }
      const consults = await import('../src/reference/variant-consults.js');
      consults.openConsultWindow();
      try {
        await use();
      } finally {
        testInfo.annotations.push({ type: consults.VARIANT_CONSULTS_ANNOTATION, description: JSON.stringify(consults.closeConsultWindow()) });
      }
    },
    { auto: true },
  ],
  /**
   * In a fault project (the matrices) a failed check is the result sought, not a broken worker: Playwright
   * would tear the worker down after it and start a new one (process, module load, a new faulted reference),
   * which cost the CI fault subset about 58 restarts for 25 projects. A clean failure (the outcome record
   * says `failed`: a check judged) is marked expected, so the worker goes on; the record still says failed and
   * the matrix reads only the record. Errored tests, timeouts and passes keep Playwright's usual handling.
   */
  keepWorkerAfterKill: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use, testInfo) => {
      await use();
      if (!(testInfo.project.metadata as EmbeddedMetadata | undefined)?.fault || testInfo.status !== 'failed') return;
      if (readOutcome({ annotations: testInfo.annotations, lastStatus: 'failed' }).status === 'failed') testInfo.fail();
    },
    { auto: true },
  ],
  // Chosen once per worker: Playwright reads a fixture's dependencies from its parameter list, so only the
  // `playwright` choice asks for the `request` fixture (an APIRequestContext per test); `undici` gets one
  // Agent per test, closed at its end.
  wire:
    transportKind() === 'playwright'
      ? async ({ request }, use) => use((await import('../src/harness/http/playwright-transport.js')).createPlaywrightTransport(request))
      : // eslint-disable-next-line no-empty-pattern
        async ({}, use) => {
          const transport = (await import('../src/harness/http/undici-transport.js')).createUndiciTransport();
          try {
            await use(transport);
          } finally {
            await transport.dispose?.();
          }
        },
  engine: async ({ target, schemas, wire: raw, checks, evidence }, use, testInfo) => {
    // Redacted HAR per test: evidence for the conformance certificate (reports/har/*.har).
    const harFile = join(process.env.FTF_REPORTS_DIR ?? 'reports', 'har', `${testInfo.workerIndex}-${testInfo.testId}.har`);
    const har = harSink(harFile);
    evidence.har = harFile;
    // The profile's implementation.version_header: its values in the (redacted) responses go into the outcome record.
    const version = target.implementation?.versionHeader ? [versionSink(target.implementation.versionHeader, evidence)] : [];
    // Attachments and HAR behind one bound (sinks.ts): a million-event walk writes its first, failing, sampled
    // and last exchanges plus a summary, not every page. The version sink reads every exchange's headers.
    const attachments = attachmentSink(testInfo, evidence);
    const recording = boundedRecording([attachments, har]);
    // A step failed: the held last exchanges (past the bound) and the step's last ones are written on their own.
    const keepTail = async (mark: number): Promise<void> => {
      try {
        await recording.flushTail();
        await attachments.stepFailed(mark);
      } catch {
        // a failing report sink must not replace the step's own error
      }
    };
    const wired = wireEngine({
      target,
      schemas,
      wire: raw,
      sinks: [recording, ...version],
      // Inside the recorder: a refused production write is still recorded (as an error exchange) in the reports.
      writeGuard: { allowMutations: cliAllowsMutations() },
      // Secrets learned during the test (issued tokens, profile secrets) reach the reporters as digests first.
      onSpellings: (spellings) => announceSecrets(spellings),
      redactAfter: redactStructural,
    });
    const redact = wired.redact;
    await use(wired.context({
      // Unique per test and retry: checkpoint names and idempotency keys never collide across workers/shards.
      runId: `w${testInfo.parallelIndex}-${randomBytes(4).toString('hex')}`,
      onCheck: (r) => checks.push(r),
      // A step's summary (repeat): one small text attachment of the running step, through the redacting reporter like every attachment.
      note: (name, text) => testInfo.attach(`${name}.txt`, { body: text, contentType: 'text/plain' }),
      // A repeat's iterations: failing ones, a sample and the last ones written, the rest in the recording summary.
      summarised: (fn) => recording.summarised(fn),
      runStep: (title, fn, location) =>
        base.step(
          title,
          () => {
            const mark = attachments.mark();
            return pointAtScenario(fn, title, location, redact, () => keepTail(mark));
          },
          { ...(location ? { location } : {}) },
        ),
    }));
    try {
      await recording.finish();
      await attachments.flush();
    } finally {
      await har.flush();
    }
  },
});

export { expect } from '@playwright/test';

/**
 * The one reporter playwright.config.ts lists. It constructs the real reporters (list/line, html,
 * json, allure-playwright, blob...) from its `reporters` option and forwards every callback to them after
 * redacting every payload in place: test and step errors (message, stack, snippet, value, cause), step
 * titles, attachments (bodies and files on disk), stdout/stderr chunks (and the result's copies of them),
 * annotations and global errors. No wrapped reporter receives a string this reporter has not redacted.
 *
 * What it redacts: every spelling of the secrets workers announce by digest (secret-digests.ts; the chunks
 * carrying them are consumed here, never forwarded) plus structurally recognised credentials (Authorization
 * header lines of Playwright's call logs, token fields in JSON / forms / query strings). The digests are
 * kept in `digestsFile` for the post-run leak scan (leak-scan.ts).
 *
 * Built-in reporters are made by Playwright's own factory (`playwright/lib/runner`, pinned with
 * @playwright/test), so their options and semantics are exactly those of a direct listing.
 *
 * It also presents each YAML scenario's test at its scenario (scenario-location.ts): every wrapped reporter (the
 * HTML report, the list, JSON, Allure) sees the YAML file and line as `test.location`, not specs/conformance.spec.ts.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, resolve } from 'node:path';
import type { ReporterDescription } from '@playwright/test';
import type { FullConfig, FullResult, Suite, TestCase, TestError, TestResult, TestStep } from '@playwright/test/reporter';
import { appendToDigestFile, DigestSet, readDigestFile, takeAnnouncements, type SecretDigest } from '../redaction/secret-digests.js';
import { redactStructural } from '../redaction/structural-redaction.js';
import { terminalSafe } from '../redaction/terminal-text.js';
import { locateAtScenario } from './scenario-location.js';
import { OUTCOME_ANNOTATION, redactOutcomeDescription } from '../records/outcome.js';

const CLAUSE_ID = /^[A-Z][A-Z0-9_]*(-[A-Z0-9_]+)*$/;

export interface RedactingReporterOptions {
  reporters: ReporterDescription[];
  /** Where the announced digests are kept for the leak scan (relative to the config folder). */
  digestsFile?: string;
  /** Set by Playwright for every reporter. */
  configDir?: string;
  _mode?: string;
}

/** Playwright's internal reporter interface (v2), which its built-in reporters implement. */
interface ReporterV2 {
  onConfigure?(config: FullConfig): void;
  onBegin?(suite: Suite): void;
  onTestBegin?(test: TestCase, result: TestResult): void;
  onStdOut?(chunk: string | Buffer, test?: TestCase, result?: TestResult): void;
  onStdErr?(chunk: string | Buffer, test?: TestCase, result?: TestResult): void;
  onTestEnd?(test: TestCase, result: TestResult): void;
  onEnd?(result: FullResult): Promise<{ status?: FullResult['status'] } | undefined | void> | void;
  onExit?(): Promise<void> | void;
  onError?(error: TestError, workerInfo?: unknown): void;
  onStepBegin?(test: TestCase, result: TestResult, step: TestStep): void;
  onStepEnd?(test: TestCase, result: TestResult, step: TestStep): void;
  printsToStdio?(): boolean;
  version(): 'v2';
}

type Attachment = TestResult['attachments'][number];

const requireHere = createRequire(import.meta.url);
const BUILT_IN = new Set(['blob', 'perfetto', 'dot', 'failures', 'line', 'list', 'github', 'json', 'junit', 'null', 'html', 'coverage']);
/** Attachment files larger than this are not rewritten (the harness writes no such text file). */
const MAX_ATTACHMENT_BYTES = 64 * 1024 * 1024;

export default class RedactingReporter implements ReporterV2 {
  private readonly digests: DigestSet;
  private readonly digestsFile: string | undefined;
  private mergedEarlier = false;
  private readonly inner: Promise<ReporterV2[]>;
  private reporters: ReporterV2[] = [];
  /** Callbacks that arrived before the inner reporters existed, in order. */
  private queue: Array<() => void> | undefined = [];
  private readonly seenAttachments = new WeakSet<Attachment>();
  private readonly mode: string;
  /** `merge-reports` configures before the blobs' projects are known: forwarded at onBegin (see onConfigure). */
  private pendingConfig: FullConfig | undefined;

  constructor(options: RedactingReporterOptions) {
    const configDir = options.configDir ?? process.cwd();
    this.digestsFile = options.digestsFile === undefined ? undefined : resolve(configDir, options.digestsFile);
    // A fresh set per run: digests of an earlier run's secrets mean nothing now.
    this.digests = new DigestSet();
    this.mode = options._mode ?? 'test';
    this.inner = createInner(options.reporters ?? [], configDir, this.mode).then((reporters) => {
      this.reporters = reporters;
      const queued = this.queue ?? [];
      this.queue = undefined;
      for (const call of queued) call();
      return reporters;
    });
  }

  version(): 'v2' {
    return 'v2';
  }

  /**
   * In `merge-reports` (ftf-conformance merge) Playwright configures with no project yet and fills
   * `config.projects` from the blobs before onBegin; allure-playwright reads projects[0] when configured, so
   * there the call waits for onBegin (same config object, projects filled).
   */
  onConfigure(config: FullConfig): void {
    if (this.mode === 'merge' && config.projects.length === 0) {
      this.pendingConfig = config;
      return;
    }
    this.each((r) => r.onConfigure?.(config));
  }

  /**
   * Inner reporters are created asynchronously (custom ones are imported); Playwright awaits `preprocess`
   * before the first test, so by then every queued callback has been forwarded.
   */
  async preprocess(params: unknown): Promise<void> {
    const reporters = await this.inner;
    for (const r of reporters) await this.guard(async () => (r as { preprocess?: (p: unknown) => Promise<void> | void }).preprocess?.(params));
  }

  onBegin(suite: Suite): void {
    const config = this.pendingConfig;
    this.pendingConfig = undefined;
    if (config) this.each((r) => r.onConfigure?.(config));
    for (const test of suite.allTests()) locateAtScenario(test);
    this.each((r) => r.onBegin?.(suite));
  }

  onTestBegin(test: TestCase, result: TestResult): void {
    this.each((r) => r.onTestBegin?.(test, result));
  }

  onStdOut(chunk: string | Buffer, test?: TestCase, result?: TestResult): void {
    const text = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    const { digests, rest } = takeAnnouncements(text);
    if (digests.length) this.saveDigests(digests);
    const clean = this.printable(rest);
    replaceChunk(result?.stdout, chunk, clean);
    if (clean !== '') this.each((r) => r.onStdOut?.(clean, test, result));
  }

  onStdErr(chunk: string | Buffer, test?: TestCase, result?: TestResult): void {
    const clean = this.printable(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
    replaceChunk(result?.stderr, chunk, clean);
    this.each((r) => r.onStdErr?.(clean, test, result));
  }

  onStepBegin(test: TestCase, result: TestResult, step: TestStep): void {
    this.redactStep(step, false);
    this.each((r) => r.onStepBegin?.(test, result, step));
  }

  onStepEnd(test: TestCase, result: TestResult, step: TestStep): void {
    this.redactStep(step, false);
    this.each((r) => r.onStepEnd?.(test, result, step));
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    this.redactResult(test, result);
    this.each((r) => r.onTestEnd?.(test, result));
  }

  onError(error: TestError, workerInfo?: unknown): void {
    this.redactError(error);
    this.each((r) => r.onError?.(error, workerInfo));
  }

  async onEnd(result: FullResult): Promise<{ status?: FullResult['status'] }> {
    await this.inner;
    let status = result.status;
    for (const r of this.reporters) {
      const out = await this.guard(async () => r.onEnd?.({ ...result, status }));
      if (out && typeof out === 'object' && out.status) status = out.status;
    }
    return { status };
  }

  async onExit(): Promise<void> {
    await this.inner;
    for (const r of this.reporters) await this.guard(async () => r.onExit?.());
  }

  /**
   * Always true: Playwright asks right after construction, and when no reporter printed it would add an
   * unwrapped line reporter. Playwright's factory gives the inner list a printing reporter in that case.
   */
  printsToStdio(): boolean {
    return true;
  }

  /**
   * The redaction every payload goes through (exported for the self-tests through `redactReportText`). If it
   * fails, the text is withheld: an error here must never forward what it was redacting.
   */
  redact(text: string): string {
    try {
      return redactStructural(this.digests.redact(text));
    } catch {
      return '[REDACTED:REDACTION_FAILED]';
    }
  }

  /** Redacted, and safe for a terminal (terminal-text.ts): what a printing reporter may show. */
  private printable(text: string): string {
    return terminalSafe(this.redact(text));
  }

  private redactResult(test: TestCase, result: TestResult): void {
    for (const e of result.errors) this.redactError(e);
    if (result.error) this.redactError(result.error);
    for (const a of result.attachments) this.redactAttachment(a);
    for (const s of result.steps) this.redactStep(s, true);
    for (const a of [...result.annotations, ...test.annotations]) if (a.description) a.description = this.redactAnnotation(a.type, a.description);
    result.stdout.splice(0, result.stdout.length, ...result.stdout.map((c) => this.printable(typeof c === 'string' ? c : c.toString('utf8'))));
    result.stderr.splice(0, result.stderr.length, ...result.stderr.map((c) => this.printable(typeof c === 'string' ? c : c.toString('utf8'))));
  }

  /**
   * The outcome record travels as data: its free text is redacted field by field and its structure (status,
   * kind, code, clause ids, check names, levels) is left as the harness wrote it, so no secret's value can
   * alter it (outcome.ts redactOutcomeDescription). Clause annotations are clause ids, the harness's own words.
   */
  private redactAnnotation(type: string, description: string): string {
    if (type === OUTCOME_ANNOTATION) return redactOutcomeDescription(description, (text) => this.redact(text));
    if (type === 'clause' && CLAUSE_ID.test(description)) return description;
    return this.printable(description);
  }

  private redactStep(step: TestStep, deep: boolean): void {
    const mutable = step as { title: string };
    mutable.title = this.printable(step.title);
    if (step.error) this.redactError(step.error);
    for (const a of step.attachments ?? []) this.redactAttachment(a);
    if (deep) for (const s of step.steps) this.redactStep(s, true);
  }

  private redactError(error: TestError, depth = 0): void {
    if (depth > 4) return;
    if (error.message !== undefined) error.message = this.printable(error.message);
    if (error.stack !== undefined) error.stack = this.printable(error.stack);
    if (error.value !== undefined) error.value = this.printable(error.value);
    if (error.snippet !== undefined) error.snippet = this.redact(error.snippet);
    if (error.cause) this.redactError(error.cause, depth + 1);
  }

  /** Bodies in memory and files on disk (test-results/…): rewritten in place, so every reporter sees one version. */
  private redactAttachment(a: Attachment): void {
    if (this.seenAttachments.has(a)) return;
    this.seenAttachments.add(a);
    const mutable = a as { body?: Buffer; name: string };
    mutable.name = this.redact(a.name);
    if (a.body && textual(a.contentType, a.body)) {
      const text = a.body.toString('utf8');
      const clean = this.redact(text);
      if (clean !== text) mutable.body = Buffer.from(clean, 'utf8');
    }
    if (a.path && existsSync(a.path) && statSync(a.path).size <= MAX_ATTACHMENT_BYTES) {
      const raw = readFileSync(a.path);
      if (!textual(a.contentType, raw)) return;
      const text = raw.toString('utf8');
      const clean = this.redact(text);
      if (clean !== text) writeFileSync(a.path, clean);
    }
  }

  /** Holds the announced digests for redaction and appends the new ones to the file the leak scan reads. */
  private saveDigests(announced: SecretDigest[]): void {
    if (this.digestsFile && !this.mergedEarlier) {
      // Once: what an earlier shard of the same run left in this reports folder also redacts this one's output.
      this.digests.add(readDigestFile(this.digestsFile).toJSON());
      this.mergedEarlier = true;
    }
    const fresh = this.digests.add(announced);
    if (this.digestsFile) appendToDigestFile(this.digestsFile, fresh);
  }

  /** Like Playwright's multiplexer: one failing reporter does not stop the others; its error is reported (redacted). */
  private each(call: (r: ReporterV2) => void): void {
    if (this.queue) {
      this.queue.push(() => this.each(call));
      return;
    }
    for (const r of this.reporters) {
      try {
        call(r);
      } catch (e) {
        this.reportFailure(r, e);
      }
    }
  }

  private async guard<T>(call: () => Promise<T>): Promise<T | undefined> {
    try {
      return await call();
    } catch (e) {
      this.reportFailure(undefined, e);
      return undefined;
    }
  }

  private reportFailure(failed: ReporterV2 | undefined, e: unknown): void {
    const error: TestError = { message: this.redact(e instanceof Error ? e.message : String(e)), ...(e instanceof Error && e.stack ? { stack: this.redact(e.stack) } : {}) };
    for (const r of this.reporters) {
      if (r === failed) continue;
      try {
        r.onError?.(error);
      } catch {
        // a reporter failing on an error report has nothing left to report to
      }
    }
  }
}

/** The redacted chunk replaces the raw one in the result's stdout/stderr copy (the JSON/HTML reporters read those). */
function replaceChunk(list: Array<string | Buffer> | undefined, raw: string | Buffer, clean: string): void {
  if (!list) return;
  const at = list.lastIndexOf(raw);
  if (at < 0) return;
  if (clean === '') list.splice(at, 1);
  else list[at] = clean;
}

function textual(contentType: string, body: Buffer): boolean {
  if (/^(text\/|application\/(json|xml|x-www-form-urlencoded|javascript)|[^;]*\+(json|xml))/i.test(contentType)) return true;
  // Unknown types: text when the first KiB holds no NUL byte.
  return !body.subarray(0, 1024).includes(0);
}

async function createInner(descriptions: ReporterDescription[], configDir: string, mode: string): Promise<ReporterV2[]> {
  const { runnerReporters } = requireHere('playwright/lib/runner') as {
    runnerReporters: { createReporters(config: unknown, mode: string, descriptions: unknown[]): Promise<ReporterV2[]> };
  };
  const resolveFrom = createRequire(resolve(configDir, 'package.json'));
  const resolved = descriptions.map(([name, options]) => {
    if (BUILT_IN.has(name)) return [name, options];
    const file = name.startsWith('.') || isAbsolute(name) ? resolve(configDir, name) : resolveFrom.resolve(name);
    return [file, options];
  });
  // The part of Playwright's internal config its reporter factory reads.
  const config = { configDir, config: { rootDir: configDir, reporter: [], tags: [] } };
  return runnerReporters.createReporters(config, mode, resolved);
}

/**
 * allure-playwright with a results writer that does not fsync: allure-js-commons' FileSystemWriter opens,
 * writes, fsyncs and renames every result and attachment file, one fsync per attachment (issue 15). The
 * files here are written the same way (a temp file renamed into place, so `allure generate` never reads a
 * partial file) but without fsync: they are rebuilt by the next run, and losing the last ones in a power
 * failure costs a report, not data. Everything else is allure-playwright's, and it stays behind the
 * redacting reporter (playwright.config.ts) like any other reporter.
 */
import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { allureMessageOf, allureStatusOf, clauseUrl } from './allure.js';
import type { OutcomeRecord } from '../records/outcome.js';
import { outcomeEntry } from './outcome-reporter.js';
import { AllureReporter } from 'allure-playwright';
import { stringifyEnvInfo, type Writer } from 'allure-js-commons/sdk/reporter';

type Options = ConstructorParameters<typeof AllureReporter>[0];

export class UnsyncedWriter implements Writer {
  constructor(
    private readonly resultsDir: string,
    /** Rewrites a test result before it is written (the outcome record's status and message). */
    private readonly adjust: (result: Parameters<Writer['writeResult']>[0]) => void = () => undefined,
  ) {}

  private publish(name: string, write: (tempPath: string) => void): void {
    mkdirSync(this.resultsDir, { recursive: true });
    const temp = join(this.resultsDir, `.allure-write-${randomUUID()}.tmp`);
    try {
      write(temp);
      renameSync(temp, join(this.resultsDir, name));
    } catch (error) {
      rmSync(temp, { force: true });
      throw error;
    }
  }

  private json(name: string, data: unknown): void {
    this.publish(name, (temp) => writeFileSync(temp, JSON.stringify(data), 'utf8'));
  }

  writeResult(result: Parameters<Writer['writeResult']>[0]): void {
    this.adjust(result);
    this.json(`${result.uuid}-result.json`, result);
  }

  writeGroup(result: Parameters<Writer['writeGroup']>[0]): void {
    this.json(`${result.uuid}-container.json`, result);
  }

  writeAttachment(distFileName: string, content: Buffer): void {
    this.publish(distFileName, (temp) => writeFileSync(temp, content));
  }

  writeAttachmentFromPath(distFileName: string, from: string): void {
    this.publish(distFileName, (temp) => copyFileSync(from, temp));
  }

  writeEnvironmentInfo(info: Parameters<Writer['writeEnvironmentInfo']>[0]): void {
    this.publish('environment.properties', (temp) => writeFileSync(temp, stringifyEnvInfo(info), 'utf8'));
  }

  writeCategoriesDefinitions(categories: Parameters<Writer['writeCategoriesDefinitions']>[0]): void {
    this.json('categories.json', categories);
  }

  writeGlobals(distFileName: string, info: Parameters<Writer['writeGlobals']>[1]): void {
    this.json(distFileName, info);
  }
}

/**
 * allure-playwright's status comes from Playwright's (a failed test is `failed` whatever broke) and its message
 * from the error text. Here both come from the test's outcome record (outcome.ts readOutcome, the reader every
 * report uses): errored = broken, and the message starts with the record's outcome line, which the categories
 * match (allure.ts). The error's trace stays as allure-playwright wrote it (redacted), for reading only.
 */
/**
 * A link per clause the result is labelled with (allure.ts allureMetadataFor: its `clause` labels), unless it has it.
 * Written here, in the runner, rather than sent from the test as a runtime message: a worker then never loads
 * allure-js-commons' runtime (~50 ms of a one-scenario run's worker, 2026-11-28 profile).
 */
export function linkClauses(result: Parameters<Writer['writeResult']>[0]): void {
  const links = (result.links ??= []);
  for (const label of result.labels ?? []) {
    if (label.name !== 'clause' || links.some((l) => l.type === 'clause' && l.name === label.value)) continue;
    links.push({ name: label.value, url: clauseUrl(label.value), type: 'clause' });
  }
}

export function applyRecord(result: Parameters<Writer['writeResult']>[0], record: OutcomeRecord): void {
  const mutable = result as unknown as { status?: string; statusDetails?: Record<string, unknown> };
  mutable.status = allureStatusOf(record);
  const message = allureMessageOf(record);
  if (message !== undefined) mutable.statusDetails = { ...(mutable.statusDetails ?? {}), message };
}

export default class UnsyncedAllureReporter extends AllureReporter {
  private readonly resultsDir: string;
  /** The record of each test, by its Allure result uuid, until the result is written. */
  private readonly records = new Map<string, OutcomeRecord>();

  constructor(options: Options = {}) {
    super(options);
    this.resultsDir = options.resultsDir ?? '../allure-results';
  }

  override onBegin(suite: Suite): void {
    super.onBegin(suite);
    // allure-playwright builds its runtime (and FileSystemWriter) here; the runtime's writer is a public field.
    (this as unknown as { allureRuntime: { writer: Writer } }).allureRuntime.writer = new UnsyncedWriter(this.resultsDir, (result) => {
      linkClauses(result);
      const record = this.records.get(result.uuid);
      if (record === undefined) return;
      this.records.delete(result.uuid);
      applyRecord(result, record);
    });
  }

  override async onTestEnd(test: TestCase, result: TestResult): Promise<void> {
    const uuid = (this as unknown as { allureResultsUuids: Map<string, string> }).allureResultsUuids.get(test.id);
    if (uuid !== undefined) this.records.set(uuid, outcomeEntry(test, result));
    await super.onTestEnd(test, result);
  }
}

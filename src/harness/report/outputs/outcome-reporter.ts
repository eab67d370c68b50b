/**
 * Playwright reporter writing every test's outcome record (outcome.ts) to one file, default
 * reports/outcomes.json: `{ outcomes: [{ project, title, scenario, covers, file?, durationMs, ...record }] }`.
 * It sees every test end, including those that never reached the entry's catch (timeouts, interrupted runs,
 * crashed workers): readOutcome turns Playwright's status into an errored record with the reason.
 * Configure as `['../src/harness/report/outputs/outcome-reporter.ts', { outputFile }]`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { FullConfig, Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { readOutcome, type OutcomeRecord } from '../records/outcome.js';

export interface OutcomeEntry extends OutcomeRecord {
  project: string;
  title: string;
  /** The `scenario` annotation (the scenario id), else the test title. */
  scenario: string;
  /** Clauses the scenario covers (`clause` annotations); `clauses` are those its failing check broke. */
  covers: string[];
  /** The scenario's YAML file (`scenario-file` annotation), when the test is a YAML scenario. */
  file?: string;
  durationMs: number;
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

export function outcomeEntry(test: TestCase, result: TestResult): OutcomeEntry {
  const annotations = [...test.annotations, ...result.annotations];
  const firstError = result.errors[0]?.message?.replace(ANSI, '').split('\n')[0];
  const file = annotations.find((a) => a.type === 'scenario-file')?.description;
  const record = readOutcome({ annotations, lastStatus: result.status, timeoutMs: test.timeout, ...(firstError ? { firstErrorLine: firstError } : {}) });
  return {
    project: test.parent.project()?.name ?? '',
    title: test.title,
    scenario: annotations.find((a) => a.type === 'scenario')?.description ?? test.title,
    covers: [...new Set(annotations.filter((a) => a.type === 'clause' && a.description).map((a) => a.description!))],
    ...(file ? { file } : {}),
    durationMs: result.duration,
    ...record,
  };
}

export default class OutcomeReporter implements Reporter {
  private readonly entries = new Map<string, OutcomeEntry>();
  private file: string;

  constructor(options: { outputFile?: string } = {}) {
    this.file = options.outputFile ?? `${(process.env.FTF_REPORTS_DIR ?? 'reports').replace(/\/+$/, '')}/outcomes.json`;
  }

  /** Like Playwright's own reporters: a relative outputFile is relative to the config file. */
  onBegin(config: FullConfig): void {
    this.file = resolve(config.configFile ? dirname(config.configFile) : process.cwd(), this.file);
  }

  /** The last attempt of a test is its outcome (retries overwrite). */
  onTestEnd(test: TestCase, result: TestResult): void {
    this.entries.set(test.id, outcomeEntry(test, result));
  }

  onEnd(): void {
    mkdirSync(dirname(this.file), { recursive: true });
    writeFileSync(this.file, `${JSON.stringify({ outcomes: [...this.entries.values()] }, null, 2)}\n`);
  }

  printsToStdio(): boolean {
    return false;
  }
}

/**
 * CLI test helpers: run a command in-process (main()) with captured output and a private reports folder;
 * the Playwright step is replaced by a fake that drops a recorded JSON report where the real one would be.
 */
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JSONReport } from '@playwright/test/reporter';
import { main } from '../../src/cli/main.js';
import { playwright } from '../../src/cli/playwright.js';
import { REPO_ROOT } from '../../src/harness/repo-root.js';

export const FIXTURES = join(REPO_ROOT, 'test/fixtures/report');

/** A private scratch folder; FTF_REPORTS_DIR points at <dir>/reports for the whole test file. */
export function scratch(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  process.env.FTF_REPORTS_DIR = join(dir, 'reports');
  mkdirSync(process.env.FTF_REPORTS_DIR, { recursive: true });
  return dir;
}

export interface CliResult {
  code: number;
  out: string;
  err: string;
}

export async function cli(...args: string[]): Promise<CliResult> {
  const out: string[] = [];
  const err: string[] = [];
  const log = console.log;
  const error = console.error;
  console.log = (...a: unknown[]) => void out.push(a.map(String).join(' '));
  console.error = (...a: unknown[]) => void err.push(a.map(String).join(' '));
  try {
    const code = await main(args);
    return { code, out: out.join('\n'), err: err.join('\n') };
  } finally {
    console.log = log;
    console.error = error;
  }
}

export interface FakeRun {
  calls: { args: string[]; env: Record<string, string> }[];
}

/** Replaces Playwright: each run writes `report` (or nothing when undefined) as reports/results.json. */
export function fakePlaywright(report: JSONReport | string | undefined, status = 0): FakeRun {
  const fake: FakeRun = { calls: [] };
  playwright.run = async (args, env) => {
    fake.calls.push({ args, env });
    const target = join(process.env.FTF_REPORTS_DIR!, 'results.json');
    if (typeof report === 'string') copyFileSync(report, target);
    else if (report) writeFileSync(target, JSON.stringify(report));
    return status;
  };
  return fake;
}

/** A port nothing listens on (bound then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export function writeProfile(dir: string, name: string, body: string): string {
  const file = join(dir, name);
  writeFileSync(file, body);
  return file;
}

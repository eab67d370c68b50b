/**
 * `run --ui` (src/cli/ui-mode.ts): Playwright's UI mode over the suite.
 *
 * - As a user drives it: a real `run --ui --ui-port 0` against the embedded reference, its page opened in Debian's
 *   Chromium, "Run all" clicked, the scenario's pass read off the page; Ctrl-C ends the session (exit 130) after the
 *   files it left were leak-scanned.
 * - Why the session forces the undici transport, on a real trace: the same scenario run by Playwright with traces on
 *   (what UI mode records for every test, streamed from the same worker tracing), once through Playwright's request
 *   fixture, in whose trace the leak scan finds credentials, and once through the undici transport, which leaves
 *   nothing the scan finds.
 * Waits are bounded by deadlines on output or on the page, never by sleeps.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { chromium } from '@playwright/test';
import { uiArgs, uiEnv } from '../../src/cli/ui-mode.js';
import { UsageError } from '../../src/cli/args.js';
import { cli } from './helpers.js';
import { REPO_ROOT } from '../../src/harness/repo-root.js';
import { assertRunLeakFree } from '../../src/harness/report/redaction/leak-scan.js';
import { FtfError } from '../../src/shared/errors.js';

const SCENARIO = '^token\\.bearer-401';
// Playwright's own --grep matches the whole title path (project, file, title), so no anchor there.
const TITLE = 'token\\.bearer-401';
const CHROMIUM = '/usr/bin/chromium';
// Bounds: the UI lists the tests once Playwright has loaded the suite; a run starts a reference server.
const LISTEN_BOUND_MS = 60_000;
const RUN_BOUND_MS = 120_000;

const scratch: string[] = [];
const tempDir = (prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
};
after(() => {
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});

describe('run --ui: arguments and environment', () => {
  it('serves on a port when one is given, and refuses a host without a port or a port that is no number', () => {
    assert.deepEqual(uiArgs({}), ['playwright', 'test', '--ui']);
    assert.deepEqual(uiArgs({ host: '127.0.0.1', port: '0' }), ['playwright', 'test', '--ui', '--ui-host=127.0.0.1', '--ui-port=0']);
    assert.throws(() => uiArgs({ host: '127.0.0.1' }), (e: unknown) => e instanceof UsageError && /--ui-host needs --ui-port/.test(e.message));
    assert.throws(() => uiArgs({ port: 'eighty' }), (e: unknown) => e instanceof UsageError && /--ui-port must be a port number/.test(e.message));
  });

  it('refuses --ui-port without --ui, and Playwright arguments after -- with it, before anything starts', async () => {
    const alone = await cli('run', '--ui-port', '0');
    assert.equal(alone.code, 2);
    assert.match(alone.err, /--ui-port and --ui-host take effect only with --ui/);
    const dashed = await cli('run', '--ui', '--', '-x');
    assert.equal(dashed.code, 2);
    assert.match(dashed.err, /--ui takes no Playwright arguments after --/);
  });

  it('always hands Playwright the undici transport, and says so when another was asked for', () => {
    assert.deepEqual(uiEnv({ FTF_RUN: '{}' }, undefined), { env: { FTF_RUN: '{}', FTF_TRANSPORT: 'undici' } });
    const overridden = uiEnv({ FTF_TRANSPORT: 'playwright' }, 'playwright');
    assert.equal(overridden.env.FTF_TRANSPORT, 'undici');
    assert.match(overridden.note ?? '', /FTF_TRANSPORT=playwright is overridden with undici/);
  });
});

describe('run --ui as a user drives it', { skip: existsSync(CHROMIUM) ? false : `${CHROMIUM} is not installed (scripts/setup.sh installs it)` }, () => {
  it("lists the selection, runs it from the page, and leak-scans what the session left when it ends", async () => {
    const reports = join(tempDir('ftf-ui-'), 'reports');
    const child: ChildProcess = spawn(process.execPath, [join(REPO_ROOT, 'bin/ftf-conformance.mjs'), 'run', '--ui', '--ui-host', '127.0.0.1', '--ui-port', '0', '--grep', SCENARIO], {
      cwd: REPO_ROOT,
      env: { ...process.env, FTF_REPORTS_DIR: reports, FTF_TRANSPORT: 'playwright', FTF_TARGET: '', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no "Listening on" within ${LISTEN_BOUND_MS} ms; run --ui printed:\n${output}`)), LISTEN_BOUND_MS);
        const look = (): void => {
          const m = /Listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
          if (!m) return;
          clearTimeout(timer);
          child.stdout!.off('data', look);
          resolve(m[1]!);
        };
        child.stdout!.on('data', look);
        look();
      });
      assert.match(output, /FTF_TRANSPORT=playwright is overridden with undici/);
      const page = await browser.newPage();
      await page.goto(url);
      await page.getByText(/token\.bearer-401/).first().waitFor({ timeout: LISTEN_BOUND_MS });
      await page.getByTitle(/^Run all/).click();
      await page.getByText(/1\/1 \(100%\) — 1 passed/).waitFor({ timeout: RUN_BOUND_MS });
    } finally {
      await browser.close();
      child.kill('SIGINT');
    }
    assert.equal(await exited, 130, output);
    assert.match(output, /run --ui: the session ended \(interrupted\); \d+ file\(s\) left in .* leak-scanned: clean/);
  });
});

describe('why a UI session uses the undici transport: a trace of the same scenario', () => {
  /** One scenario through Playwright with traces on (UI mode's recording), the reports in a folder of its own. */
  const traced = (transport: 'undici' | 'playwright'): { reports: string; traces: string[] } => {
    const reports = join(tempDir(`ftf-trace-${transport}-`), 'reports');
    const r = spawnSync(process.execPath, [join(REPO_ROOT, 'node_modules/@playwright/test/cli.js'), 'test', '--trace', 'on', '--project', 'sandbox', '--workers', '1', '--grep', TITLE], {
      cwd: REPO_ROOT,
      env: { ...process.env, FTF_REPORTS_DIR: reports, FTF_TRANSPORT: transport, FTF_TARGET: '', NO_COLOR: '1' },
      encoding: 'utf8',
      timeout: RUN_BOUND_MS,
    });
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
    const traces: string[] = [];
    const walk = (d: string): void => {
      for (const name of readdirSync(d)) {
        const p = join(d, name);
        if (statSync(p).isDirectory()) walk(p);
        else if (name === 'trace.zip') traces.push(p);
      }
    };
    walk(join(reports, 'test-results'));
    return { reports, traces };
  };

  it("Playwright's request fixture puts credentials into the trace; the undici transport does not", async () => {
    const withFixture = traced('playwright');
    assert.equal(withFixture.traces.length, 1, 'one trace of the one test');
    await assert.rejects(
      assertRunLeakFree({ reportsRoot: withFixture.reports, outputDir: join(withFixture.reports, 'test-results'), secrets: [] }),
      (e: unknown) => e instanceof FtfError && e.code === 'FTF_E_SECRET_LEAK' && /trace\.zip/.test(e.message),
    );
    // Through undici the test makes no API request context: Playwright keeps no trace file for it at all (UI mode
    // streams the test's steps and the harness's redacted attachments), and every file left is clean.
    const withUndici = traced('undici');
    assert.ok(withUndici.traces.length <= 1);
    const scanned = await assertRunLeakFree({ reportsRoot: withUndici.reports, outputDir: join(withUndici.reports, 'test-results'), secrets: [] });
    assert.ok(scanned > 0);
  });
});

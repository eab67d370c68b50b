/**
 * The Allure HTML built from a small allure-results fixture renders in headless Chromium (Debian's
 * /usr/bin/chromium, installed by `npm run setup`): the suite tree, a test name and the run label (target,
 * implementation version, harness commit) are visible. Keeps a
 * screenshot in reports/allure-report.png (docs/allure-report.png with FTF_UPDATE_DOCS=1).
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { chromium } from 'playwright-core';
import { buildAllureReport } from '../../src/harness/report/outputs/allure-report.js';
import { writeAllureSupportFiles } from '../../src/harness/report/outputs/allure.js';
import { REPO_ROOT } from '../../src/harness/repo-root.js';

const CHROMIUM = '/usr/bin/chromium';
const FIXTURE = join(REPO_ROOT, 'test/fixtures/report/allure-results');
// A test run must not dirty the work tree: the kept screenshot in docs/ is refreshed only on request.
const SCREENSHOT = join(REPO_ROOT, process.env.FTF_UPDATE_DOCS === '1' ? 'docs/allure-report.png' : 'reports/allure-report.png');

test('the Allure report renders the results in headless Chromium', { timeout: 180_000 }, async () => {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: run \`npm run setup\` (installs Debian's chromium package)`);
  const dir = mkdtempSync(join(tmpdir(), 'ftf-allure-'));
  try {
    // The fixture's results as one run of `run`, which also records the target and harness (environment.properties).
    const results = join(dir, 'results');
    cpSync(FIXTURE, results, { recursive: true });
    writeAllureSupportFiles(results, {
      targetName: 'Vendor sandbox',
      baseUrl: 'https://sandbox.vendor.example/api/v1',
      environment: 'sandbox',
      capabilities: [],
      specSha256: 'ab'.repeat(32),
      harnessVersion: '0.1.0',
      harnessCommit: '0123456789abcdef0123456789abcdef01234567',
      implementationVersion: '3.1.4 (stated by the profile)',
    });
    const built = buildAllureReport({ resultsDir: results, outDir: join(dir, 'report'), historyDir: join(dir, 'history') });
    assert.ok(readFileSync(built.historyFile, 'utf8').trim().length > 0, 'a history entry is written for trends');
    assert.doesNotMatch(readFileSync(built.index, 'utf8'), /googletagmanager|gtag\(/, 'the report embeds no third-party analytics');
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      // The report must open offline: anything but the file itself is refused at once and counted.
      const external: string[] = [];
      await page.route(/^(?!file:|data:|blob:)/, async (route) => {
        external.push(route.request().url());
        await route.abort();
      });
      // singleFile mode: everything is inlined, so file:// works without an HTTP server.
      await page.goto(pathToFileURL(built.index).href);
      await page.getByText('Endpoints', { exact: true }).first().waitFor({ timeout: 90_000 });
      await page.getByText('Authentication', { exact: true }).first().waitFor({ state: 'visible', timeout: 90_000 });
      assert.equal(await page.getByText('FTF conformance').first().isVisible(), true, 'the report name is shown');
      // The run label (report variables): target with its base URL, implementation version, harness commit.
      for (const label of ['Vendor sandbox (https://sandbox.vendor.example/api/v1)', '3.1.4 (stated by the profile)', 'commit 0123456789abcdef0123456789abcdef01234567']) {
        await page.getByText(label, { exact: true }).first().waitFor({ state: 'visible', timeout: 30_000 });
      }
      // The tree opens failed branches by default; the search box narrows it to one test. (Checked last: the
      // tree's state after clearing a search is the report's own business, not what this test is about.)
      await page.getByPlaceholder('Search tests').fill('Idempotency');
      const name = page.getByText('subscribe without Idempotency-Key').last();
      await name.waitFor({ state: 'visible', timeout: 90_000 });
      assert.equal(await name.isVisible(), true);
      await page.screenshot({ path: SCREENSHOT });
      assert.deepEqual(external, [], 'the report requested nothing outside its own file');
    } finally {
      await browser.close();
    }
    assert.ok(existsSync(SCREENSHOT));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

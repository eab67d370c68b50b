/**
 * The Allure HTML of `run` is opt-in (a full run's single-file report is 12-13 MB): a plain run writes the Allure
 * results with their environment and categories files but starts no HTML build; `--report` starts it in the
 * background (checked here up to the announcement: the allure CLI then runs on its own).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { JSONReport } from '@playwright/test/reporter';
import { runCommand } from '../../src/cli/commands/run.js';
import { cli, fakePlaywright, FIXTURES, scratch } from './helpers.js';

const dir = scratch('ftf-cli-allure-opt-in-');
after(() => rmSync(dir, { recursive: true, force: true }));
const reports = process.env.FTF_REPORTS_DIR!;
const recorded = JSON.parse(readFileSync(join(FIXTURES, 'playwright-results.json'), 'utf8')) as JSONReport;

test('run without --report builds no Allure HTML; the results and their environment are written', async () => {
  fakePlaywright(recorded);
  const r = await cli('run', '--grep', 'health');
  assert.ok(r.code === 0 || r.code === 1, r.err);
  assert.doesNotMatch(r.out, /Allure report/);
  assert.ok(existsSync(join(reports, 'allure-results/environment.properties')));
  assert.equal(existsSync(join(reports, 'allure-report')), false, 'no HTML folder');
});

test('--report is documented as the opt-in, --no-report still parses', () => {
  const flags = runCommand.help.flags.map((f) => f.flag);
  assert.ok(flags.includes('--report') && flags.includes('--no-report') && flags.includes('--wait-report'));
  assert.match(runCommand.help.flags.find((f) => f.flag === '--report')!.text, /opt-in/);
});

/**
 * The Allure HTML build has a time bound (issue 29 item 4): `allure generate` past FTF_ALLURE_TIMEOUT_MS (or the
 * option) is killed and FTF_E_ALLURE_TIMEOUT says so, instead of a `report` (or a background build) that never ends.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { allureTimeoutMs, buildAllureReport, DEFAULT_ALLURE_TIMEOUT_MS } from '../../src/harness/report/outputs/allure-report.js';
import { FtfError } from '../../src/shared/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'ftf-allure-bound-'));
after(() => rmSync(dir, { recursive: true, force: true }));

it('FTF_ALLURE_TIMEOUT_MS: a positive integer, else the default; anything else a usage error', () => {
  assert.equal(allureTimeoutMs({}), DEFAULT_ALLURE_TIMEOUT_MS);
  assert.equal(allureTimeoutMs({ FTF_ALLURE_TIMEOUT_MS: '1500' }), 1500);
  for (const bad of ['0', '-1', '1.5', 'soon']) assert.throws(() => allureTimeoutMs({ FTF_ALLURE_TIMEOUT_MS: bad }), (e: unknown) => e instanceof FtfError && e.code === 'FTF_E_USAGE' && e.message.includes('FTF_ALLURE_TIMEOUT_MS'));
});

it('a build past its bound is stopped with FTF_E_ALLURE_TIMEOUT naming the bound', () => {
  const results = join(dir, 'allure-results');
  mkdirSync(results, { recursive: true });
  writeFileSync(join(results, '0a-result.json'), JSON.stringify({ uuid: '0a', historyId: 'h', name: 't', fullName: 't', status: 'passed', stage: 'finished', start: 1, stop: 2, labels: [], steps: [], attachments: [], parameters: [], links: [] }));
  assert.throws(
    () => buildAllureReport({ resultsDir: results, outDir: join(dir, 'allure-report'), historyDir: join(dir, 'allure-history'), timeoutMs: 1 }),
    (e: unknown) => e instanceof FtfError && e.code === 'FTF_E_ALLURE_TIMEOUT' && /within 1 ms/.test(e.message),
  );
});

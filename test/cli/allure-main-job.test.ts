/**
 * The main job's Allure HTML (`npm run conformance`, `run --wait-report`) passes the leak scan on the reference: the
 * scenarios whose descriptions quote the spec's `Authorization: Bearer <API_KEY>` render it HTML-escaped there, which
 * the structural scan once read as a credential (the report quarantined, `--wait-report` exit 3).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { REPO_ROOT } from '../../src/harness/repo-root.js';

const dir = mkdtempSync(join(tmpdir(), 'ftf-allure-main-job-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Two scenarios, their Allure HTML built and searched: Playwright, the allure CLI and the scan on a loaded machine. */
const RUN_BOUND_MS = 240_000;

test('run --wait-report of the scenarios quoting the Authorization header: the Allure HTML is built and clean', { timeout: RUN_BOUND_MS }, async () => {
  const reports = join(dir, 'reports');
  const env: NodeJS.ProcessEnv = { ...process.env, FTF_REPORTS_DIR: reports, FTF_WORKERS: '1', CI: '1' };
  delete env.FTF_TARGET;
  const child = spawn(process.execPath, [join(REPO_ROOT, 'bin/ftf-conformance.mjs'), 'run', '--wait-report', '--grep', '^token\\.(api-key|bearer-401):', '--', '--output', join(dir, 'test-results')], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => void (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => void (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  assert.equal(code, 0, out.slice(-3000));
  assert.doesNotMatch(out, /FTF_E_SECRET_LEAK/);
  const html = join(reports, 'allure-report', 'index.html');
  assert.ok(existsSync(html), `the Allure HTML is there:\n${out.slice(-2000)}`);
  assert.ok(readFileSync(html).length > 100_000);
});

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { REPO_ROOT } from '../../src/harness/repo-root.js';
import { cli, FIXTURES, scratch } from './helpers.js';

const dir = scratch('ftf-cli-bin-');
after(() => rmSync(dir, { recursive: true, force: true }));

function bin(...args: string[]) {
  return spawnSync(process.execPath, [join(REPO_ROOT, 'bin/ftf-conformance.mjs'), ...args], { encoding: 'utf8', env: { ...process.env } });
}

test('the ftf-conformance bin: help exits 0, an unknown command 2, every command has --help', () => {
  const help = bin('help');
  assert.equal(help.status, 0);
  for (const c of ['run', 'certify', 'init', 'doctor', 'list', 'coverage', 'report', 'verify']) assert.match(help.stdout, new RegExp(`^  ${c} `, 'm'));
  assert.match(help.stdout, /exit codes: 0 conformant, 1 non-conformant, 2 nothing tested/);
  assert.equal(bin().status, 2);
  const unknown = bin('frobnicate');
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /unknown command 'frobnicate'/);
  const runHelp = bin('run', '--help');
  assert.equal(runHelp.status, 0);
  assert.match(runHelp.stdout, /--fail-on must\|should/);
});

test('report builds the Allure HTML (history kept) and fails with exit 2 when there are no results', async () => {
  const none = await cli('report', '--results', join(dir, 'empty'));
  assert.equal(none.code, 2);
  assert.match(none.err, /FTF_E_REPORT_MISSING: no Allure results/);
  const out = join(dir, 'allure-report');
  const history = join(dir, 'allure-history');
  const r = await cli('report', '--results', join(FIXTURES, 'allure-results'), '--out', out, '--history', history);
  assert.equal(r.code, 0, r.err);
  assert.ok(existsSync(join(out, 'index.html')));
  assert.ok(existsSync(join(history, 'history.jsonl')));
});

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { REPO_ROOT } from '../../src/harness/repo-root.js';
import { addToDigestFile, DIGESTS_FILE } from '../../src/harness/report/secret-digests.js';
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

test('report --scan (how `run` builds its HTML in the background) deletes an HTML that holds a secret of the run and exits 3', async () => {
  const reports = join(dir, 'scan-reports');
  mkdirSync(reports, { recursive: true });
  const previous = process.env.FTF_REPORTS_DIR;
  process.env.FTF_REPORTS_DIR = reports;
  try {
    // The report title lands in the HTML: planted there, it stands for a secret the redaction missed.
    const planted = 'planted-canary-7Qx9vR2m';
    const args = ['report', '--scan', '--results', join(FIXTURES, 'allure-results'), '--name', `FTF ${planted}`];
    const clean = await cli(...args);
    assert.equal(clean.code, 0, clean.err);
    assert.match(clean.out, /searched for secrets/);
    assert.ok(existsSync(join(reports, 'allure-report', 'index.html')));
    addToDigestFile(join(reports, DIGESTS_FILE), [planted]);
    const leaked = await cli(...args);
    assert.equal(leaked.code, 3, leaked.err);
    assert.match(leaked.err, /FTF_E_SECRET_LEAK/);
    assert.doesNotMatch(leaked.err + leaked.out, new RegExp(planted));
    assert.equal(existsSync(join(reports, 'allure-report')), false, 'the leaking HTML is deleted');
  } finally {
    if (previous === undefined) delete process.env.FTF_REPORTS_DIR;
    else process.env.FTF_REPORTS_DIR = previous;
  }
});

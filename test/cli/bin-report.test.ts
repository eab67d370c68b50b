import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { after, test } from 'node:test';
import { REPO_ROOT } from '../../src/harness/repo-root.js';
import { writeAllureSupportFiles } from '../../src/harness/report/outputs/allure.js';
import { historyRuns, runKey } from '../../src/harness/report/outputs/allure-history.js';
import { addToDigestFile, DIGESTS_FILE } from '../../src/harness/report/redaction/secret-digests.js';
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
  assert.match(r.out, /history: .*unknown-target-[0-9a-f]{8}\.jsonl/, 'results without environment.properties get the unknown-target history');
});

/** A copy of the fixture results as one run against `target` at `baseUrl`; `run` renames the result files (a new run). */
function results(name: string, target: string, baseUrl: string, run = 'a'): string {
  const to = join(dir, name);
  mkdirSync(to, { recursive: true });
  for (const f of readdirSync(join(FIXTURES, 'allure-results'))) {
    copyFileSync(join(FIXTURES, 'allure-results', f), join(to, f.replace(/^0b8f1f8e/, `${run}0000000`.slice(0, 8))));
  }
  writeAllureSupportFiles(to, { targetName: target, baseUrl, environment: 'sandbox', capabilities: [], specSha256: 'x', harnessVersion: '0.0.0', harnessCommit: 'c0ffee' });
  return to;
}

test('report keeps one history per target (name + base URL) and one trend point per run: a rebuild replaces it', async () => {
  const history = join(dir, 'history-per-target');
  const build = async (res: string) => {
    const r = await cli('report', '--results', res, '--out', join(dir, 'out-per-target'), '--history', history);
    assert.equal(r.code, 0, r.err);
    const file = /history: (\S+\.jsonl)/.exec(r.out)?.[1];
    assert.ok(file, r.out);
    return file;
  };
  const a1 = results('a1', 'Vendor A', 'https://a.example/api');
  const fileA = await build(a1);
  assert.match(fileA, /\/vendor-a-[0-9a-f]{8}\.jsonl$/);
  assert.equal(historyRuns(fileA).length, 1);
  // `ftf-conformance report` again from the same results: still one trend point, the same run.
  assert.equal(await build(a1), fileA);
  assert.deepEqual(historyRuns(fileA), [runKey(a1)]);
  // A second run against the same target adds a point; the first one stays.
  const a2 = results('a2', 'Vendor A', 'https://a.example/api', 'b');
  assert.equal(await build(a2), fileA);
  assert.deepEqual(historyRuns(fileA), [runKey(a1), runKey(a2)]);
  // Same name, other base URL: another target, another history; the first target's trend is untouched.
  const b1 = results('b1', 'Vendor A', 'https://b.example/api', 'c');
  const fileB = await build(b1);
  assert.notEqual(fileB, fileA);
  assert.match(fileB, /\/vendor-a-[0-9a-f]{8}\.jsonl$/);
  assert.deepEqual(historyRuns(fileB), [runKey(b1)]);
  assert.deepEqual(historyRuns(fileA), [runKey(a1), runKey(a2)]);
  assert.deepEqual(readdirSync(history).filter((f) => f.endsWith('.jsonl')).sort(), [basename(fileA), basename(fileB)].sort());
  // The old single history.jsonl is left alone and named in a note.
  writeFileSync(join(history, 'history.jsonl'), '');
  const r = await cli('report', '--results', b1, '--out', join(dir, 'out-per-target'), '--history', history);
  assert.match(r.out, /^note .*history\.jsonl \(one history for every target/m);
  assert.deepEqual(historyRuns(fileB), [runKey(b1)]);
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

/**
 * Reports folder safety (issue 29 item 5). One run at a time per reports folder: a second `run` on a folder a
 * live run holds stops at once (exit 2, FTF_E_REPORTS_LOCKED naming the other run's pid) and deletes none of
 * its evidence; a lock left by a killed run (its pid gone) is taken over, and that run's unscanned reports are
 * removed. No writing through symbolic links in reports/: a history folder linked elsewhere (a CI cache
 * restored as a link) is refused before anything is written, and the place it points to stays untouched.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { runCli, startCli } from './cli-run.js';

const RUN_MS = 120_000;
const dir = mkdtempSync(join(tmpdir(), 'ftf-reports-'));
const reports = join(dir, 'reports');
const GREP = '^token\\.form-encoding:';
const env = (root: string): Record<string, string | undefined> => ({ FTF_REPORTS_DIR: root, FTF_TARGET: undefined, FTF_ALLOW_MUTATIONS: undefined });
after(() => rmSync(dir, { recursive: true, force: true }));

describe('reports folder safety', () => {
  it('a second run on a folder a live run holds is refused at once, naming that run; the first keeps its evidence', { timeout: RUN_MS + 30_000 }, async () => {
    const first = startCli(['run', '--no-report', '--grep', GREP, '--', `--output=${join(dir, 'out-1')}`], env(reports), RUN_MS);
    // The lock is taken before the target is opened; without a lock (older code) the second run starts after a while anyway.
    for (let i = 0; i < 100 && !existsSync(join(reports, '.ftf-run.lock')); i++) await sleep(100);
    const second = await runCli(['run', '--no-report', '--grep', GREP, '--', `--output=${join(dir, 'out-2')}`], env(reports), RUN_MS);
    const one = await first.done;
    assert.equal(one.killed, false);
    assert.equal(second.code, 2, `the second run could not start (exit ${second.code}; stdout ${second.stdout.slice(-800)} stderr ${second.stderr.slice(-800)})`);
    assert.match(second.stderr + second.stdout, new RegExp(`FTF_E_REPORTS_LOCKED[^\\n]*pid ${first.child.pid}`), 'the error names the code and the other run\'s pid');
    assert.ok([0, 1].includes(one.code ?? -1), `the first run ended with a verdict (exit ${one.code}; ${one.stderr.slice(-800)})`);
    assert.ok(existsSync(join(reports, 'results.json')) && existsSync(join(reports, 'verdicts.json')), 'the first run\'s evidence is whole');
    assert.equal(existsSync(join(reports, '.ftf-run.lock')), false, 'the lock is released at the end of the run');
  });

  it('a lock left by a killed run is taken over; that run\'s unscanned reports are removed', { timeout: RUN_MS }, async () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const pid = Number(dead.stdout);
    writeFileSync(join(reports, '.ftf-run.lock'), JSON.stringify({ pid, command: 'run', startedAt: '2026-01-01T00:00:00.000Z' }));
    mkdirSync(join(reports, 'playwright-html'), { recursive: true });
    writeFileSync(join(reports, 'playwright-html', 'orphan.txt'), 'written by a runner after its CLI was killed');
    const run = await runCli(['run', '--no-report', '--evaluate-only'], env(reports), RUN_MS);
    assert.ok([0, 1].includes(run.code ?? -1), `the run went ahead (exit ${run.code}; ${run.stderr.slice(-800)})`);
    assert.match(run.stdout, new RegExp(`pid ${pid}[^\\n]*ended without releasing its lock`), 'the stale lock is named');
    assert.equal(existsSync(join(reports, 'playwright-html', 'orphan.txt')), false, 'the killed run\'s unscanned report is removed');
    assert.equal(existsSync(join(reports, '.ftf-run.lock')), false);
  });

  it('a history folder that is a symbolic link is refused before anything is written through it', { timeout: RUN_MS }, async () => {
    const linked = join(dir, 'linked-reports');
    cpSync(reports, linked, { recursive: true });
    const elsewhere = join(dir, 'ci-cache-history');
    mkdirSync(elsewhere);
    rmSync(join(linked, 'allure-history'), { recursive: true, force: true });
    symlinkSync(elsewhere, join(linked, 'allure-history'), 'dir');
    // --wait-report: the Allure HTML (and its history entry) is written before the CLI exits.
    const run = await runCli(['run', '--evaluate-only', '--wait-report'], env(linked), RUN_MS);
    assert.deepEqual(readdirSync(elsewhere), [], 'nothing was written through the link');
    assert.equal(run.code, 2, `refused (exit ${run.code}; stdout ${run.stdout.slice(-800)} stderr ${run.stderr.slice(-800)})`);
    assert.match(run.stderr + run.stdout, /FTF_E_REPORTS_SYMLINK[^\n]*allure-history -> /, 'the link and its target are named');
  });
});

/**
 * The sharded CI flow end to end, as a CI user runs it (docs/ci/README.md): `run --shard 1/2` and
 * `run --shard 2/2` into their own reports folders (each a blob + selection.json), `merge` of the two into a
 * third, one verdict and exit code. The merged verdicts.json (per scenario and per clause), JUnit testcases
 * and Allure results must equal an unsharded run of the same selection.
 * (A merge missing a part is not green: test/cli/shared-shards.test.ts runs that merge, shard-phases.test.ts names
 * the missing shard.)
 *
 * Kept cheap: a --grep of 6 scenarios in 3 families, one worker per run, no Allure HTML (--no-report).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { REPO_ROOT } from '../../src/harness/repo-root.js';
import { runTimeoutMs, testTimeoutMs } from '../../src/harness/target/bounds.js';
import { profileTimeouts, REFERENCE_PROFILE } from '../../src/harness/target/load.js';
import { allureResults, comparableVerdicts, junitCases, readVerdicts } from './verdict-compare.js';

const GREP = '^(errors\\.error-body(-40[03])?|events\\.scope|checkpoints\\.(create|delete)):';
const SCENARIOS = 6;
const dir = mkdtempSync(join(tmpdir(), 'ftf-sharded-'));
after(() => rmSync(dir, { recursive: true, force: true }));

// Bounds from the reference profile: one run of the selection (two projects, one worker) plus the server starts.
const timeouts = profileTimeouts(REFERENCE_PROFILE);
const RUN_MS = runTimeoutMs(timeouts, SCENARIOS * 2, 1) + 2 * testTimeoutMs(timeouts);

interface Cli {
  code: number | null;
  out: string;
}

/** The installed CLI (bin/ftf-conformance.mjs) in a child, with its own reports folder and one worker. */
function cli(reports: string, ...args: string[]): Promise<Cli> {
  return new Promise((resolvePromise, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, FTF_REPORTS_DIR: reports, FTF_WORKERS: '1', CI: '1' };
    for (const k of ['FTF_TARGET', 'FTF_BLOB_REPORT', 'FTF_RUN', 'FTF_SPECS_DIR']) delete env[k];
    const child = spawn(process.execPath, [join(REPO_ROOT, 'bin/ftf-conformance.mjs'), ...args], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (out += c.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, out });
    });
  });
}

test('sharded flow: 2 shards + merge give the unsharded verdict, JUnit and Allure results', { timeout: 4 * RUN_MS }, async () => {
  const [whole, s1, s2, merged] = ['whole', 'shard-1', 'shard-2', 'merged'].map((n) => join(dir, n)) as [string, string, string, string];
  // One after the other: at once they only share the same 2 cores (CPU-bound start-ups), and CI runs test files side by side.
  const unsharded = await cli(whole, 'run', '--grep', GREP, '--no-report');
  assert.equal(unsharded.code, 0, unsharded.out.slice(-3000));
  const first = await cli(s1, 'run', '--grep', GREP, '--shard', '1/2', '--no-report');
  assert.equal(first.code, 0, first.out.slice(-3000));
  const second = await cli(s2, 'run', '--grep', GREP, '--shard', '2/2', '--no-report');
  assert.equal(second.code, 0, second.out.slice(-3000));

  // Each shard ran part of the selection, the two together all of it, no scenario twice.
  const ids = (reports: string): string[] => readVerdicts(reports).scenarios.map((s) => s.id);
  const [all, one, two] = [ids(whole), ids(s1), ids(s2)];
  assert.equal(all.length, SCENARIOS, `the selection: ${all.join(', ')}`);
  assert.ok(one.length > 0 && two.length > 0, `both shards ran something: ${one.join(', ')} | ${two.join(', ')}`);
  assert.deepEqual([...one, ...two].sort(), [...all].sort());

  const m = await cli(merged, 'merge', '--no-report', s1, s2);
  assert.equal(m.code, 0, m.out.slice(-3000));
  assert.match(m.out, /verdict: CONFORMANT/);
  assert.deepEqual(comparableVerdicts(readVerdicts(merged)), comparableVerdicts(readVerdicts(whole)));
  const cases = junitCases(whole);
  assert.equal(cases.length, SCENARIOS, `one testcase per scenario (its runs in both projects are one case): ${cases.join('\n')}`);
  assert.deepEqual(junitCases(merged), cases);
  // One Allure result per test: every scenario in sandbox, those whose run can differ by environment in production too.
  const allure = allureResults(whole);
  const tests = readVerdicts(whole).tests?.total ?? 0;
  assert.ok(tests > SCENARIOS && tests < SCENARIOS * 2, `the production project runs some of the selection, not all (${tests} tests)`);
  assert.equal(allure.length, tests);
  assert.deepEqual(allureResults(merged), allure);
});

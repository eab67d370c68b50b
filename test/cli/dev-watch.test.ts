/**
 * `ftf-conformance dev` (the author's loop, `run --watch`) as an author uses it: a real process against the
 * embedded reference, watching a scenario folder of its own (FTF_SPECS_DIR). Each save is followed by the
 * verdict of exactly what changed: a broken expectation names the scenario, its clause and the YAML line; a
 * broken file names file:line:col; a save that changes nothing re-runs nothing; Ctrl-C ends it (exit 130).
 * Waits are bounded by deadlines on output, never by sleeps; the save-to-verdict time is printed, not asserted.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { REPO_ROOT } from '../../src/harness/repo-root.js';

const SCENARIO = 'amounts/maximum-enforced.yaml';
const ORIGINAL = readFileSync(join(REPO_ROOT, 'specs', SCENARIO), 'utf8');
// Bounds of the waits: the first run starts the embedded reference (generous on a loaded machine); a re-run is one scenario.
const START_BOUND_MS = 120_000;
const RERUN_BOUND_MS = 60_000;

let dir: string;
let child: ChildProcess;
let output = '';

/** Resolves with the output written after `from` once `pattern` appears there; rejects at the deadline, showing it. */
function waitFor(pattern: RegExp, from: number, boundMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = (): boolean => {
      const seen = output.slice(from);
      if (!pattern.test(seen)) return false;
      clearTimeout(timer);
      child.stdout!.off('data', check);
      resolve(seen);
      return true;
    };
    const timer = setTimeout(() => {
      child.stdout!.off('data', check);
      reject(new Error(`no ${pattern} within ${boundMs} ms; dev printed:\n${output.slice(from)}`));
    }, boundMs);
    child.stdout!.on('data', check);
    check();
  });
}

/** Saves the scenario file and waits for the summary line of the re-run it causes. */
async function save(file: string, text: string): Promise<string> {
  const from = output.length;
  writeFileSync(file, text);
  return waitFor(/^dev: \d+ re-run \(saved\) in [\d.]+ s;.*$/m, from, RERUN_BOUND_MS);
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ftf-dev-'));
  mkdirSync(join(dir, 'specs', 'amounts'), { recursive: true });
  cpSync(join(REPO_ROOT, 'specs', '_steps'), join(dir, 'specs', '_steps'), { recursive: true });
  writeFileSync(join(dir, 'specs', SCENARIO), ORIGINAL);
  child = spawn(process.execPath, [join(REPO_ROOT, 'bin/ftf-conformance.mjs'), 'run', '--watch'], {
    cwd: dir,
    env: { ...process.env, FTF_SPECS_DIR: join(dir, 'specs'), FTF_TARGET: '', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.setEncoding('utf8').on('data', (c: string) => (output += c));
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (output += c));
  await waitFor(/^dev: watching/m, 0, START_BOUND_MS);
});

after(() => {
  if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

test('the first run judges the selection against the warm embedded reference', () => {
  assert.match(output, /^ {2}passed +amounts\.maximum-enforced/m);
  assert.match(output, /^dev: 1 re-run \(start\) in [\d.]+ s; now 1 passed, 0 failed.*clauses broken: none$/m);
});

test('a save that breaks an expectation: the scenario fails, naming its clause and the YAML line', async () => {
  const file = join(dir, 'specs', SCENARIO);
  const broken = ORIGINAL.replace('  - expect: { status: 400 }\n', '  - expect: { status: 401 }\n');
  assert.notEqual(broken, ORIGINAL);
  const seen = await save(file, broken);
  const line = broken.split('\n').findIndex((l) => l.includes('status: 401')) + 1;
  assert.match(seen, /^ {2}failed +amounts\.maximum-enforced .*clauses: ERR-AMOUNT-MAX$/m);
  assert.match(seen, new RegExp(`at .*amounts/maximum-enforced\\.yaml:${line}:`));
  assert.match(seen, /now 0 passed, 1 failed.*clauses broken: ERR-AMOUNT-MAX$/m);
  console.log(`# save-to-verdict: ${/re-run \(saved\) in ([\d.]+) s/.exec(seen)![1]} s (the loop's own figure)`);
});

test('a save that breaks the file: BROKEN with file:line:col, and the loop goes on', async () => {
  const file = join(dir, 'specs', SCENARIO);
  const seen = await save(file, `${ORIGINAL}steps: [unclosed\n`);
  assert.match(seen, /^BROKEN .*amounts\/maximum-enforced\.yaml$/m);
  assert.match(seen, /maximum-enforced\.yaml:\d+:\d+/);
  assert.match(seen, /1 broken file/);
});

test('restoring the file re-runs it and it passes again; a comment-only save re-runs nothing', async () => {
  const file = join(dir, 'specs', SCENARIO);
  const restored = await save(file, ORIGINAL);
  assert.match(restored, /^ {2}passed +amounts\.maximum-enforced/m);
  assert.match(restored, /now 1 passed, 0 failed.*clauses broken: none$/m);
  const comment = await save(file, `${ORIGINAL}# a note that changes nothing the engine runs\n`);
  assert.match(comment, /^dev: 0 re-run \(saved\)/m);
});

test('a change to a step group the scenario uses re-runs it', async () => {
  const group = join(dir, 'specs', '_steps', 'amounts-indication.yaml');
  const text = readFileSync(group, 'utf8');
  const from = output.length;
  // Another message on a step of the group: the scenario as it runs changed, its verdict did not.
  const renamed = text.replace("message: 'the target profile names no indication", "message: 'edited: the target profile names no indication");
  assert.notEqual(renamed, text, 'the step group has the message to edit');
  writeFileSync(group, renamed);
  const seen = await waitFor(/^dev: \d+ re-run \(saved\).*$/m, from, RERUN_BOUND_MS);
  assert.match(seen, /^dev: 1 re-run \(saved\)/m);
  assert.match(seen, /^ {2}passed +amounts\.maximum-enforced/m);
});

test('Ctrl-C ends the loop (exit 130, interrupted) at once', async () => {
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  child.kill('SIGINT');
  let timer: NodeJS.Timeout | undefined;
  const code = await Promise.race([exited, new Promise<'hung'>((r) => (timer = setTimeout(() => r('hung'), RERUN_BOUND_MS)))]);
  clearTimeout(timer);
  assert.equal(code, 130, output.slice(-2000));
  assert.match(output, /interrupted by SIGINT/);
});

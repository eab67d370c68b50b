#!/usr/bin/env node
// `npm test`: every check of the project in one command. Runs each stage even when an earlier one failed,
// then prints one plain closing line `N passed, N failed, N skipped` summing everything it ran.
// Stage results: typecheck and lint count as one check each; test runners contribute their own counts.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';

// Stages with the same `together` key run at the same time: tsc and eslint are one core each (CI has two), and
// their output is short. Every other stage has the machine to itself.
const stages = [
  { name: 'typecheck', cmd: ['npx', 'tsc', '--noEmit'], count: single, together: 'static' },
  { name: 'lint', cmd: ['npx', 'eslint', '.', '--max-warnings=0'], count: single, together: 'static' },
  { name: 'self-tests', cmd: ['node', 'scripts/run-self-tests.mjs'], count: fromTap('.ftf/self-tests.tap'), before: ['.ftf/self-tests.tap'] },
  { name: 'conformance (reference)', cmd: ['npx', 'playwright', 'test'], count: fromPlaywrightJson('reports/results.json'), before: ['reports/results.json'] },
  // The reference as a sandbox without the control API (issue 13): the clock-less forms run, the rest skip with a reason.
  {
    name: 'conformance (no control)', cmd: ['npx', 'playwright', 'test', '--project', 'no-control'],
    env: { FTF_NO_CONTROL: '1', FTF_REPORTS_DIR: 'reports/no-control' },
    count: fromPlaywrightJson('reports/no-control/results.json'), before: ['reports/no-control/results.json'],
  },
  // The fixed CI subset of the fault matrix (docs/mutation.md); each fault killed for the right reason is a pass.
  // The CI subset of the variant matrix (docs/variants-matrix.md): each conformant variant passed is a pass.
  { name: 'variants (ci subset)', cmd: ['node', 'bin/ftf-conformance.mjs', 'selftest', '--variants', '--subset', 'ci'], count: fromVariantsJson('reports/variants.json'), before: ['reports/variants.json'] },
  // The client fault matrix (docs/client-conformance.md): the example client clean, with its alternate choices, and
  // with each fault switch; each run judged right is a pass.
  { name: 'clients (matrix)', cmd: ['node', 'bin/ftf-conformance.mjs', 'selftest', '--clients'], count: fromClientMatrixJson('reports/client-matrix.json'), before: ['reports/client-matrix.json'] },
  { name: 'mutation (ci subset)', cmd: ['node', 'bin/ftf-conformance.mjs', 'selftest', '--subset', 'ci'], count: fromMutationJson('reports/mutation.json'), before: ['reports/mutation.json'] },
];

const only = process.argv.slice(2);
const totals = { passed: 0, failed: 0, skipped: 0 };
const lines = [];
let anyFailed = false;

/** A stage's process, its exit status when it ends. */
function start(stage) {
  for (const f of stage.before ?? []) rmSync(f, { force: true });
  console.log(`\n=== ${stage.name}: ${stage.cmd.join(' ')}`);
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(stage.cmd[0], stage.cmd.slice(1), { stdio: 'inherit', env: { ...process.env, ...stage.env } });
    child.on('error', () => resolve({ stage, status: 1, seconds: (Date.now() - started) / 1000 }));
    child.on('close', (code) => resolve({ stage, status: code ?? 1, seconds: (Date.now() - started) / 1000 }));
  });
}

const selected = stages.filter((stage) => !only.length || only.some((o) => stage.name.startsWith(o)));
for (let i = 0; i < selected.length; ) {
  // The stage and the stages right after it that share its `together` key.
  let end = i + 1;
  while (end < selected.length && selected[i].together && selected[end].together === selected[i].together) end++;
  const group = selected.slice(i, end);
  i = end;
  for (const { stage, status, seconds } of await Promise.all(group.map(start))) {
    const c = stage.count(status);
    // A runner that exited non-zero but reported no failure (crash, config error) still counts as a failure.
    if (status !== 0 && c.failed === 0) c.failed = 1;
    if (status !== 0) anyFailed = true;
    totals.passed += c.passed; totals.failed += c.failed; totals.skipped += c.skipped;
    lines.push(`${stage.name.padEnd(26)} exit ${status}  passed ${c.passed}  failed ${c.failed}  skipped ${c.skipped}  (${seconds.toFixed(1)} s${group.length > 1 ? `, beside ${group.filter((g) => g !== stage).map((g) => g.name).join(', ')}` : ''})`);
  }
}

console.log('\n=== summary');
for (const l of lines) console.log(l);
if (totals.passed + totals.failed === 0) {
  console.log('no test ran');
  anyFailed = true;
}
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(anyFailed ? 1 : 0);

function single(status) {
  return status === 0 ? { passed: 1, failed: 0, skipped: 0 } : { passed: 0, failed: 1, skipped: 0 };
}

function fromTap(file) {
  return () => {
    if (!existsSync(file)) return { passed: 0, failed: 0, skipped: 0 };
    const text = readFileSync(file, 'utf8');
    const num = (k) => Number((text.match(new RegExp(`^# ${k} (\\d+)`, 'm')) ?? [])[1] ?? 0);
    return { passed: num('pass'), failed: num('fail') + num('cancelled'), skipped: num('skipped') + num('todo') };
  };
}

function fromMutationJson(file) {
  return () => {
    if (!existsSync(file)) return { passed: 0, failed: 0, skipped: 0 };
    const m = JSON.parse(readFileSync(file, 'utf8'));
    const killed = m.faults.filter((f) => f.verdict === 'killed').length;
    // The clean run counts as one check: it must have no failure (no false alarms).
    const cleanOk = m.clean.failed === 0 && m.clean.passed > 0 ? 1 : 0;
    return { passed: killed + cleanOk, failed: m.faults.length - killed + (1 - cleanOk), skipped: 0 };
  };
}

function fromClientMatrixJson(file) {
  return () => {
    if (!existsSync(file)) return { passed: 0, failed: 0, skipped: 0 };
    const runs = JSON.parse(readFileSync(file, 'utf8')).runs;
    const ok = runs.filter((r) => r.ok).length;
    return { passed: ok, failed: runs.length - ok, skipped: 0 };
  };
}

function fromVariantsJson(file) {
  return () => {
    if (!existsSync(file)) return { passed: 0, failed: 0, skipped: 0 };
    const v = JSON.parse(readFileSync(file, 'utf8'));
    const passing = v.runs.filter((r) => r.ok).length;
    // The clean run counts as one check: no failure and no error.
    const cleanOk = v.clean.failed === 0 && v.clean.errored === 0 && v.clean.passed > 0 ? 1 : 0;
    return { passed: passing + cleanOk, failed: v.runs.length - passing + (1 - cleanOk), skipped: 0 };
  };
}

function fromPlaywrightJson(file) {
  return () => {
    if (!existsSync(file)) return { passed: 0, failed: 0, skipped: 0 };
    const s = JSON.parse(readFileSync(file, 'utf8')).stats ?? {};
    return { passed: (s.expected ?? 0) + (s.flaky ?? 0), failed: s.unexpected ?? 0, skipped: s.skipped ?? 0 };
  };
}

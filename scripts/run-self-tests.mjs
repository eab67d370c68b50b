#!/usr/bin/env node
// Runs the project's own tests (node:test through tsx). Prints the spec reporter to the console and keeps a
// TAP copy in .ftf/self-tests.tap so that .ci/run can sum the counts (not in reports/: every file there is a run's report, and a run's leak scan reads them all; test names quote credential-shaped fixtures). Extra args are test files or dirs.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const root = process.cwd();
const args = process.argv.slice(2);
const roots = args.length ? args : ['test'];

function collect(path, out) {
  const st = statSync(path);
  if (st.isDirectory()) {
    for (const name of readdirSync(path).sort()) {
      if (name === 'node_modules' || name.startsWith('.')) continue;
      collect(join(path, name), out);
    }
  } else if (/\.test\.ts$/.test(path)) {
    out.push(relative(root, path));
  }
  return out;
}

// Longest first: node's runner starts the files in the order given, two at a time, so a long file that starts near
// the end runs alone while the other slot idles. These are the longest (per-file durations of the self-test stage,
// .ftf/self-tests.tap, 2026-11-27, longest first); every other file follows in path order. Only the order changes.
// A listed file that no longer exists stops the run, so the list cannot rot unnoticed.
const LONGEST_FIRST = [
  'test/cli/production-install.test.ts',
  'test/cli/shared-shards.test.ts',
  'test/cli/shared-target.test.ts',
  'test/docs/runnable-examples.test.ts',
  'test/cli/ui-mode.test.ts',
  'test/hostile/canary.test.ts',
  'test/cli/bin-report.test.ts',
  'test/cli/sharded-flow.test.ts',
  'test/hostile/hostile.test.ts',
  'test/cli/in-process-runner.test.ts',
  'test/hostile/runner-lifetime.test.ts',
  'test/cli/selection.test.ts',
  'test/harness/guard.test.ts',
  'test/harness/properties-model-reference.test.ts',
  'test/cli/signals.test.ts',
  'test/harness/scenario-suite-cache.test.ts',
  'test/hostile/canary-bypass.test.ts',
  'test/cli/help.test.ts',
  'test/harness/environment-scope.test.ts',
];
const missing = LONGEST_FIRST.filter((f) => !existsSync(join(root, f)));
if (missing.length) {
  console.error(`scripts/run-self-tests.mjs: LONGEST_FIRST names ${missing.join(', ')}, which does not exist: update the list`);
  process.exit(2);
}
const rank = (f) => (LONGEST_FIRST.includes(f) ? LONGEST_FIRST.indexOf(f) : LONGEST_FIRST.length);
const files = roots.flatMap((r) => collect(join(root, r), [])).sort((a, b) => rank(a) - rank(b));
if (files.length === 0) {
  console.error(`no test files (*.test.ts) under ${roots.join(', ')}`);
  process.exit(2);
}

// Light files share a process. Node's runner starts one process per file, and each loads tsx and the sources it
// imports again: measured on test/harness (59 files, 602 tests, load ~10), 208 s of CPU one process per file against
// 99 s with the files imported into one process; CI's two cores are CPU-bound, so that is wall time. In the full run
// (no arguments) the files of a folder are imported GROUP_SIZE at a time by one generated entry each
// (.ftf/self-test-groups/), except the folders whose files start the CLI or Playwright (their cost is in the children
// they start), the longest files above, and OWN_PROCESS: files that need a process of their own (timing against stub
// servers or process-wide state another file changes; each named with the reason). The tests, their names and
// counts are the same; a failing test's stack names its file. FTF_SELF_TEST_GROUPS=0 gives every file its process.
const GROUP_SIZE = 10;
const OWN_PROCESS_DIRS = ['test/cli/', 'test/hostile/'];
const OWN_PROCESS = [
  // Its request bounds (200 ms) are measured against stub servers: imported after other files it timed out
  // (FTF_E_TARGET_TIMEOUT instead of FTF_E_BOUND_EXCEEDED, every time).
  'test/harness/engine-bounds.test.ts',
];
const missingOwn = OWN_PROCESS.filter((f) => !existsSync(join(root, f)));
if (missingOwn.length) {
  console.error(`scripts/run-self-tests.mjs: OWN_PROCESS names ${missingOwn.join(', ')}, which does not exist: update the list`);
  process.exit(2);
}
const grouping = args.length === 0 && process.env.FTF_SELF_TEST_GROUPS !== '0';
const groupable = (f) => grouping && !LONGEST_FIRST.includes(f) && !OWN_PROCESS.includes(f) && !OWN_PROCESS_DIRS.some((d) => f.startsWith(d));
const groupsDir = join(root, '.ftf', 'self-test-groups');
rmSync(groupsDir, { recursive: true, force: true });
const byFolder = new Map();
for (const f of files.filter(groupable)) byFolder.set(dirname(f), [...(byFolder.get(dirname(f)) ?? []), f]);
const entries = [];
for (const [folder, members] of byFolder) {
  for (let i = 0; i < members.length; i += GROUP_SIZE) {
    const chunk = members.slice(i, i + GROUP_SIZE);
    const entry = join(groupsDir, `${folder.replace(/[\\/]/g, '-')}-${i / GROUP_SIZE + 1}.test.ts`);
    mkdirSync(groupsDir, { recursive: true });
    writeFileSync(entry, `// Generated by scripts/run-self-tests.mjs: these test files in one process.\n${chunk.map((f) => `import '${relative(groupsDir, join(root, f)).split('\\').join('/')}';`).join('\n')}\n`);
    entries.push(relative(root, entry));
  }
}
const runList = [...files.filter((f) => !groupable(f)), ...entries];
if (entries.length) console.log(`self-tests: ${files.length} files; ${files.filter(groupable).length} light ones imported ${GROUP_SIZE} at a time into ${entries.length} processes (.ftf/self-test-groups/), the rest one process each`);
mkdirSync(join(root, '.ftf'), { recursive: true });
const result = spawnSync(
  process.execPath,
  [
    '--import', 'tsx',
    '--test',
    `--test-concurrency=${process.env.FTF_TEST_CONCURRENCY ?? 2}`,
    '--test-reporter=spec', '--test-reporter-destination=stdout',
    '--test-reporter=tap', '--test-reporter-destination=.ftf/self-tests.tap',
    ...runList,
  ],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);

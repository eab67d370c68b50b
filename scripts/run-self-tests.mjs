#!/usr/bin/env node
// Runs the project's own tests (node:test through tsx). Prints the spec reporter to the console and keeps a
// TAP copy in .ftf/self-tests.tap so that .ci/run can sum the counts (not in reports/: every file there is a run's report, and a run's leak scan reads them all; test names quote credential-shaped fixtures). Extra args are test files or dirs.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

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
  'test/cli/prestart.test.ts',
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
mkdirSync(join(root, '.ftf'), { recursive: true });
const result = spawnSync(
  process.execPath,
  [
    '--import', 'tsx',
    '--test',
    `--test-concurrency=${process.env.FTF_TEST_CONCURRENCY ?? 2}`,
    '--test-reporter=spec', '--test-reporter-destination=stdout',
    '--test-reporter=tap', '--test-reporter-destination=.ftf/self-tests.tap',
    ...files,
  ],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);

#!/usr/bin/env node
// Runs the project's own tests (node:test through tsx). Prints the spec reporter to the console and keeps a
// TAP copy in .ftf/self-tests.tap so that .ci/run can sum the counts (not in reports/: every file there is a run's report, and a run's leak scan reads them all; test names quote credential-shaped fixtures). Extra args are test files or dirs.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, statSync } from 'node:fs';
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

const files = roots.flatMap((r) => collect(join(root, r), []));
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

#!/usr/bin/env node
// The test StrykerJS runs for each mutant (stryker.config.mjs, command runner; __STRYKER_ACTIVE_MUTANT__ in the
// environment selects the mutant inside the instrumented reference): the conformance suite against the embedded
// reference server, one Playwright worker, stopping at its first failure (-x: a killed mutant needs no more). Exit 0 =
// the mutant survived, anything else = killed. Each Stryker worker (STRYKER_MUTATOR_WORKER) has its own reports folder
// and cache, so two runs side by side in the sandbox never share the reports lock.
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const worker = process.env.STRYKER_MUTATOR_WORKER ?? '0';
const env = {
  ...process.env,
  FTF_REPORTS_DIR: join('reports', 'stryker', `worker-${worker}`),
  FTF_CACHE_DIR: join(process.env.FTF_STRYKER_CACHE_DIR ?? tmpdir(), `ftf-stryker-cache-${worker}`),
  FTF_WORKERS: '1',
};
const run = spawnSync(process.execPath, ['bin/ftf-conformance.mjs', 'run', '--no-report', '--workers', '1', '--', '-x'], { stdio: ['ignore', 'ignore', 'inherit'], env });
process.exit(run.status ?? 1);

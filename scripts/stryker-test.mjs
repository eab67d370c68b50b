#!/usr/bin/env node
// The test StrykerJS runs for each mutant (stryker.config.mjs, command runner; __STRYKER_ACTIVE_MUTANT__ in the
// environment selects the mutant inside the instrumented reference): the conformance suite against the embedded
// reference server, one Playwright worker, stopping at its first failure (-x: a killed mutant needs no more). Exit 0 =
// the mutant survived, anything else = killed. Every run has its own reports folder and cache (by process id, removed
// after): Stryker's command runner runs its commands side by side in one sandbox, in one process (no
// STRYKER_MUTATOR_WORKER), and two runs sharing a reports folder would refuse each other (FTF_E_REPORTS_LOCKED), which
// Stryker would count as kills.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const reports = join('reports', 'stryker', `run-${process.pid}`);
const cache = join(process.env.FTF_STRYKER_CACHE_DIR ?? tmpdir(), `ftf-stryker-cache-${process.pid}`);
const env = { ...process.env, FTF_REPORTS_DIR: reports, FTF_CACHE_DIR: cache, FTF_WORKERS: '1' };
const run = spawnSync(process.execPath, ['bin/ftf-conformance.mjs', 'run', '--no-report', '--workers', '1', '--', '-x'], { stdio: ['ignore', 'ignore', 'inherit'], env });
for (const dir of [reports, cache]) rmSync(dir, { recursive: true, force: true });
process.exit(run.status ?? 1);

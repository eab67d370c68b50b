/**
 * A test's outcome record is built once, where the test ends, at the sites docs/architecture.md names ("Scenario ->
 * outcome record -> every output"); no other code (a catch site, a reporter, a matrix) builds or rebuilds one.
 * This reads the sources: a record builder (record-outcome.ts) or the annotation writer called anywhere else fails.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT } from '../../src/harness/repo-root.js';

/** The record sites of the architecture page, and the modules that define the builders. */
const SITES = ['specs/fixtures.ts', 'specs/properties/record.ts', 'specs/scenario-tests.ts', 'src/harness/engine/in-process.ts'];
const DEFINED_IN = ['src/harness/report/records/outcome.ts', 'src/harness/report/records/record-outcome.ts'];
const BUILDERS = /\b(outcomeFromError|passedOutcome|skippedOutcome|encodeOutcome)\s*\(/;

function sources(dir: string): string[] {
  return readdirSync(join(REPO_ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => relative(REPO_ROOT, join(e.parentPath, e.name)).split('\\').join('/'));
}

test('records are built only at the documented sites, once where a test ends', () => {
  const building = [...sources('src'), ...sources('specs')]
    .filter((f) => !DEFINED_IN.includes(f))
    .filter((f) => readFileSync(join(REPO_ROOT, f), 'utf8').split('\n').some((line) => !/^\s*(\*|\/\/|import\b)/.test(line) && BUILDERS.test(line)))
    .sort();
  assert.deepEqual(building, SITES, 'a new place builds outcome records: build it at the test\'s end through one of these sites, or document the site in docs/architecture.md and here');
  const architecture = readFileSync(join(REPO_ROOT, 'docs/architecture.md'), 'utf8');
  for (const site of SITES) assert.ok(architecture.includes(site.replace(/^src\/harness\//, '')), `docs/architecture.md names ${site}`);
});

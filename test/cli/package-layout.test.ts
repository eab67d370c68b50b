/**
 * The lookups that differ between the repository and the installed package (docs/package.md): the spec folder
 * (the package's own copy first) and the reports folder (the working directory when packaged). The end-to-end
 * proof is the packed install in production-install.test.ts; these pin each rule on its own, without a build.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';
import { reportsDir } from '../../src/harness/report/reports-folder/paths.js';
import { PACKAGED, REPO_ROOT } from '../../src/harness/repo-root.js';
import { specDir } from '../../src/harness/spec/clauses.js';

const dir = mkdtempSync(join(tmpdir(), 'ftf-package-layout-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('run from TypeScript (the repository), the code is not packaged', () => {
  assert.equal(PACKAGED, false);
});

test('specDir: FTF_SPEC_DIR, else the root spec/ copy when it holds clauses.yaml, else ../shared/spec', () => {
  const root = join(dir, 'pkg');
  mkdirSync(join(root, 'spec'), { recursive: true });
  assert.equal(specDir({}, root), resolve(dir, 'shared/spec'), 'an empty spec/ folder is not a copy');
  writeFileSync(join(root, 'spec', 'clauses.yaml'), 'clauses: []\n');
  assert.equal(specDir({}, root), join(root, 'spec'), "the package's own copy comes first");
  assert.equal(specDir({ FTF_SPEC_DIR: join(dir, 'elsewhere') }, root), join(dir, 'elsewhere'), 'FTF_SPEC_DIR overrides the copy');
  assert.equal(specDir({}), resolve(REPO_ROOT, '../shared/spec'), 'the repository has no copy: ../shared/spec');
});

test('reportsDir: FTF_REPORTS_DIR, else <repo>/reports in the repository and <cwd>/reports when packaged', () => {
  assert.equal(reportsDir({ FTF_REPORTS_DIR: join(dir, 'r') }, true), join(dir, 'r'));
  assert.equal(reportsDir({}, false), join(REPO_ROOT, 'reports'));
  assert.equal(reportsDir({}, true), resolve(process.cwd(), 'reports'));
});

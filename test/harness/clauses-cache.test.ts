/**
 * The clause catalogue kept between processes (src/harness/spec/clauses.ts): parsed once, kept in the user's
 * cache folder under the bytes of clauses.yaml and the harness's code key, read by the next process that knows
 * that key; other bytes parse again; a process without the key (nothing handed over) neither reads nor writes.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serialize } from 'node:v8';
import { after, test } from 'node:test';
import { loadClauseCatalogue, specDir } from '../../src/harness/spec/clauses.js';
import { CACHE_DIR_ENV } from '../../src/harness/user-cache.js';
import { RUN_ENV, updateRunSettings } from '../../src/shared/run-settings.js';
import { REPO_ROOT } from '../../src/harness/repo-root.js';

const dir = mkdtempSync(join(tmpdir(), 'ftf-clauses-cache-'));
const spec = join(dir, 'spec');
const cache = join(dir, 'cache');
after(() => rmSync(dir, { recursive: true, force: true }));

const saved = { cache: process.env[CACHE_DIR_ENV], run: process.env[RUN_ENV] };
after(() => {
  for (const [name, value] of [[CACHE_DIR_ENV, saved.cache], [RUN_ENV, saved.run]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

/** A new mtime: the in-process memo (keyed by mtime) lets the next load read the files again. */
let tick = 0;
const touch = (file: string): void => utimesSync(file, new Date(), new Date(Date.now() + ++tick * 1000));
const kept = (): string[] => readdirSync(cache).filter((f) => f.startsWith('clauses-'));

test('kept after the first parse, read by the next load, parsed again when clauses.yaml changes', () => {
  const real = specDir();
  mkdirSync(spec, { recursive: true });
  copyFileSync(join(real, 'clauses.yaml'), join(spec, 'clauses.yaml'));
  copyFileSync(join(real, 'ftf-interface-spec.md'), join(spec, 'ftf-interface-spec.md'));
  process.env[CACHE_DIR_ENV] = cache;
  updateRunSettings(process.env, { codeKey: `${'a'.repeat(64)}:${REPO_ROOT}` });

  const parsed = loadClauseCatalogue(spec);
  assert.ok(parsed.clauses.length > 10);
  assert.equal(kept().length, 1, 'the parse was kept');

  // The kept entry is what the next load reads: replaced here by a one-clause catalogue under the same name.
  const marker = [{ id: 'KEPT-1', ref: '', says: 'from the cache', needs: [], level: 'must' }];
  writeFileSync(join(cache, kept()[0]!), serialize(marker));
  touch(join(spec, 'clauses.yaml'));
  const read = loadClauseCatalogue(spec);
  assert.deepEqual(read.clauses.map((c) => c.id), ['KEPT-1']);
  assert.equal(read.byId.get('KEPT-1')?.says, 'from the cache');
  assert.equal(read.clausesSha256, parsed.clausesSha256, 'the digests are of the files, always');

  // Other bytes: another key, parsed again.
  writeFileSync(join(spec, 'clauses.yaml'), `# edited\n${readFileSync(join(real, 'clauses.yaml'), 'utf8')}`);
  const edited = loadClauseCatalogue(spec);
  assert.equal(edited.clauses.length, parsed.clauses.length);
  assert.notEqual(edited.clausesSha256, parsed.clausesSha256);
  assert.equal(kept().length, 2);
});

test('a process that does not know the code key neither reads nor writes a kept entry', () => {
  const fresh = join(dir, 'fresh-cache');
  const env: NodeJS.ProcessEnv = { ...process.env, [CACHE_DIR_ENV]: fresh };
  delete env[RUN_ENV];
  // A child process: this one knows a key since the test above.
  const script = `const { loadClauseCatalogue } = await import(${JSON.stringify(join(REPO_ROOT, 'src/harness/spec/clauses.ts'))}); console.log(loadClauseCatalogue(${JSON.stringify(spec)}).clauses.length);`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO_ROOT, env, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.ok(Number(r.stdout.trim()) > 10);
  assert.deepEqual(existsSync(fresh) ? readdirSync(fresh).filter((f) => f.startsWith('clauses-')) : [], []);
});

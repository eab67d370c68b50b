/**
 * keptParse (src/harness/user-cache.ts), what the clause catalogue and the operation map are kept with: parsed once,
 * read back by the next process that knows the code key, parsed again for other bytes or an entry that fails its
 * check; a process without the key neither reads nor writes. readYaml keeps a clean file's value the same way.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serialize } from 'node:v8';
import { after, test } from 'node:test';
import { CACHE_DIR_ENV, keptParse } from '../../src/harness/user-cache.js';
import { RUN_ENV, updateRunSettings } from '../../src/shared/run-settings.js';
import { REPO_ROOT } from '../../src/harness/repo-root.js';
import { loadOperationMap, OPERATIONS_FILE, parseOperationMap } from '../../src/harness/schemas/operation-map.js';
import { readYaml } from '../../src/harness/yaml/source.js';

const dir = mkdtempSync(join(tmpdir(), 'ftf-kept-parse-'));
const saved = { cache: process.env[CACHE_DIR_ENV], run: process.env[RUN_ENV] };
after(() => {
  rmSync(dir, { recursive: true, force: true });
  for (const [name, value] of [[CACHE_DIR_ENV, saved.cache], [RUN_ENV, saved.run]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

const isNumbers = (x: unknown): x is number[] => Array.isArray(x) && x.every((n) => typeof n === 'number');

test('without a code key: parsed every time, nothing written', () => {
  process.env[CACHE_DIR_ENV] = join(dir, 'no-key');
  delete process.env[RUN_ENV];
  let parses = 0;
  for (let i = 0; i < 2; i++) keptParse('numbers', '1 2', () => (parses++, [1, 2]), isNumbers);
  assert.equal(parses, 2);
  const folder = join(dir, 'no-key');
  assert.deepEqual(existsSync(folder) ? readdirSync(folder) : [], [], 'nothing kept');
});

test('kept after the first parse and read back; other bytes or an entry failing its check parse again', () => {
  const cache = join(dir, 'cache');
  process.env[CACHE_DIR_ENV] = cache;
  updateRunSettings(process.env, { codeKey: `${'b'.repeat(64)}:${REPO_ROOT}` });
  let parses = 0;
  const parse = () => (parses++, [1, 2]);
  assert.deepEqual(keptParse('numbers', '1 2', parse, isNumbers), [1, 2]);
  const [file] = readdirSync(cache).filter((f) => f.startsWith('numbers-'));
  assert.ok(file, 'kept');
  writeFileSync(join(cache, file), serialize([7]));
  assert.deepEqual(keptParse('numbers', '1 2', parse, isNumbers), [7], 'what is kept is what the next process reads');
  assert.equal(parses, 1);
  assert.deepEqual(keptParse('numbers', '1 2 3', parse, isNumbers), [1, 2], 'other bytes: another entry');
  writeFileSync(join(cache, file), serialize({ not: 'numbers' }));
  assert.deepEqual(keptParse('numbers', '1 2', parse, isNumbers), [1, 2], 'an entry that fails its check is parsed again');
  assert.equal(parses, 3);
});

test('the operation map read back from the cache equals the parse', () => {
  process.env[CACHE_DIR_ENV] = join(dir, 'ops');
  updateRunSettings(process.env, { codeKey: `${'c'.repeat(64)}:${REPO_ROOT}` });
  const text = readFileSync(OPERATIONS_FILE, 'utf8');
  const parsed = parseOperationMap(text, OPERATIONS_FILE);
  keptParse('operations', text, () => parsed, (x): x is typeof parsed => typeof x === 'object' && x !== null);
  assert.deepEqual(keptParse('operations', text, () => assert.fail('read back, not parsed'), (x): x is typeof parsed => typeof x === 'object' && x !== null), parsed);
  assert.deepEqual(loadOperationMap(), parsed);
});

test("a clean YAML file's value (a target profile) is read back without parsing; its positions are parsed when asked for; a broken file is parsed every time", () => {
  const cache = join(dir, 'yaml');
  process.env[CACHE_DIR_ENV] = cache;
  updateRunSettings(process.env, { codeKey: `${'d'.repeat(64)}:${REPO_ROOT}` });
  const file = join(dir, 'profile.yaml');
  writeFileSync(file, 'name: x\ncredentials:\n  primary:\n    client_id: a\n');
  const first = readYaml(file, true);
  assert.equal(readdirSync(cache).filter((f) => f.startsWith('yaml-')).length, 1, 'kept');
  const [entry] = readdirSync(cache).filter((f) => f.startsWith('yaml-'));
  // What is kept is what the next reader gets: it is not parsed again.
  writeFileSync(join(cache, entry!), serialize({ value: { name: 'from the cache' } }));
  const second = readYaml(file, true);
  assert.deepEqual(second.value, { name: 'from the cache' });
  assert.deepEqual(second.problems, []);
  assert.deepEqual(second.locate(['credentials', 'primary', 'client_id']), first.locate(['credentials', 'primary', 'client_id']));
  assert.deepEqual(second.locate(['credentials', 'primary', 'client_id']), { file, line: 4, column: 16 });
  assert.deepEqual(readYaml(file).value, first.value, 'not asked to keep: parsed');
  writeFileSync(file, 'name: [unclosed\n');
  for (let i = 0; i < 2; i++) {
    const broken = readYaml(file, true);
    assert.equal(broken.problems.length > 0, true, `read ${i + 1}: the problems, with their positions`);
    assert.equal(broken.problems[0]?.line, 1);
  }
});

/**
 * Issue 15 item 3: the scenario catalogue is parsed once per run, and kept between runs. The process that parses
 * it writes it to the file the run setting `scenarioCache` (FTF_RUN) names (in the cache folder FTF_CACHE_DIR); a child process (a
 * Playwright worker) reads that file instead of parsing, and so does the next run, as long as no scenario,
 * step-group or clause file changed; broken files keep their typed errors (file:line:col).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { after, test } from 'node:test';
import { REPO_ROOT } from '../../src/harness/repo-root.js';
import { describeProblem, loadScenarioSuite } from '../../src/harness/scenario/load.js';
import { loadScenarioSuiteOnce } from '../../src/harness/scenario/suite-cache.js';
import { readRunSettings, runSettingsEnv, updateRunSettings } from '../../src/shared/run-settings.js';
import { CACHE_DIR_ENV, cacheDir } from '../../src/harness/user-cache.js';

const dir = mkdtempSync(join(tmpdir(), 'ftf-suite-cache-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const specs = join(dir, 'specs');
const kept = join(dir, 'cache');
mkdirSync(join(specs, 'amounts'), { recursive: true });
mkdirSync(join(specs, '_steps'));
writeFileSync(join(specs, '_steps', 'read-indication.yaml'), 'name: read-indication\nparams: { code: ~ }\nsteps:\n  - request: { method: GET, path: "/indication/${code}" }\n');
const good = join(specs, 'amounts', 'good.yaml');
writeFileSync(good, 'id: amounts.good\ntitle: reads the indication\ncovers: [EP-INDICATION-GET]\nsteps:\n  - use: read-indication\n    with: { code: FTF-FIX-1M }\n  - expect: { status: 200 }\n');
writeFileSync(join(specs, 'amounts', 'broken.yaml'), 'id: amounts.broken\ntitle: broken\ncovers: [NO-SUCH-CLAUSE]\nsteps:\n  - expect: { status: 200 }\n');

/** The suite as a child process (a worker) loads it with the given run setting `scenarioCache`: titles and problems. */
function inChild(cacheFile: string | undefined, cacheFolder = 'off'): { titles: string[]; problems: string[] } {
  const code = `import { loadScenarioSuiteOnce } from ${JSON.stringify(join(REPO_ROOT, 'src/harness/scenario/suite-cache.ts'))};
import { describeProblem } from ${JSON.stringify(join(REPO_ROOT, 'src/harness/scenario/load.ts'))};
const s = loadScenarioSuiteOnce(${JSON.stringify(specs)});
console.log(JSON.stringify({ titles: s.scenarios.map((x) => x.title), problems: s.problems.map(describeProblem) }));`;
  const env: NodeJS.ProcessEnv = { ...process.env, [CACHE_DIR_ENV]: cacheFolder };
  updateRunSettings(env, { scenarioCache: cacheFile });
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: REPO_ROOT, env, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as { titles: string[]; problems: string[] };
}

test('the first load parses and writes the cache; the same process and a child reuse it; an edited file is parsed again', () => {
  const env: NodeJS.ProcessEnv = { [CACHE_DIR_ENV]: kept };
  const suite = loadScenarioSuiteOnce(specs, env);
  const parsed = loadScenarioSuite(specs);
  assert.deepEqual(suite.scenarios, parsed.scenarios, 'the same scenarios as a plain parse');
  assert.deepEqual(suite.problems.map(describeProblem), parsed.problems.map(describeProblem), 'the same typed errors');
  assert.match(describeProblem(suite.problems[0]!), /FTF_E_SCENARIO_INVALID: unknown clause id 'NO-SUCH-CLAUSE' \(.*broken\.yaml:3:\d+\)/);
  assert.equal(suite.scenarios[0]?.steps[0]?.group?.params.code, undefined, 'a required parameter stays undefined');
  assert.ok(Object.hasOwn(suite.scenarios[0]!.steps[0]!.group!.params, 'code'));
  const file = readRunSettings(env).scenarioCache;
  assert.ok(file && existsSync(file), 'the cache file is named for child processes');
  assert.ok(file.startsWith(`${kept}/`), 'the file is kept in the cache folder');
  assert.equal(loadScenarioSuiteOnce(specs, env), suite, 'a second load in the same process is the memo');

  // A child reads the file instead of parsing: a title changed inside the cache (not in the YAML) proves it.
  const stored = deserialize(readFileSync(file)) as { suite: { scenarios: Array<{ title: string }> } };
  stored.suite.scenarios[0]!.title = 'from the cache';
  writeFileSync(file, serialize(stored));
  const child = inChild(file);
  assert.deepEqual(child.titles, ['from the cache']);
  assert.deepEqual(child.problems, suite.problems.map(describeProblem), 'the broken file keeps its error, file:line:col, through the cache');

  // An edited scenario file changes the key: the child parses (and sees the edit).
  writeFileSync(good, readFileSync(good, 'utf8').replace('reads the indication', 'reads it again'));
  assert.deepEqual(inChild(file).titles, ['reads it again']);
  // Without a cache file, or with a missing one, the child parses.
  assert.deepEqual(inChild(undefined).titles, ['reads it again']);
  assert.deepEqual(inChild(join(dir, 'gone.v8')).titles, ['reads it again']);
});

test('a later run (no `scenarioCache` handed down) reads the kept suite; FTF_CACHE_DIR=off keeps nothing; a shared folder is not used', () => {
  const folder = join(dir, 'later-cache');
  // Each run a fresh process (this file's memo would otherwise answer), with no `scenarioCache` handed down.
  const titles = inChild(undefined, folder).titles;
  const entries = readdirSync(folder).filter((n) => n.startsWith('suite-') && n.endsWith('.v8'));
  assert.equal(entries.length, 1, 'one entry per scenario folder');
  const entry = join(folder, entries[0]!);
  // The next run reads the kept entry instead of parsing: a title changed inside it (not in the YAML) proves it.
  const stored = deserialize(readFileSync(entry)) as { suite: { scenarios: Array<{ title: string }> } };
  stored.suite.scenarios[0]!.title = 'kept from the last run';
  writeFileSync(entry, serialize(stored));
  assert.deepEqual(inChild(undefined, folder).titles, ['kept from the last run']);
  assert.deepEqual(inChild(undefined, 'off').titles, titles, 'off: parsed, the kept entry is not read');

  assert.equal(cacheDir({ [CACHE_DIR_ENV]: 'off' }), undefined);
  const shared = join(dir, 'shared-cache');
  mkdirSync(shared);
  chmodSync(shared, 0o777);
  assert.equal(cacheDir({ [CACHE_DIR_ENV]: shared }), undefined, 'a folder other users can write is not trusted');
  assert.equal(cacheDir({ [CACHE_DIR_ENV]: folder }), folder);
});

test('the code key is computed once per run: a child of the same checkout takes it from the parent, another checkout computes its own', () => {
  const print = (digest: string | undefined): string => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', '-e', "import('./src/harness/user-cache.ts').then((m) => console.log(m.codeKey()))"], {
      cwd: REPO_ROOT, encoding: 'utf8', env: { ...process.env, FTF_RUN: digest === undefined ? undefined : runSettingsEnv({ codeKey: digest }).FTF_RUN },
    });
    assert.equal(r.status, 0, r.stderr);
    return r.stdout.trim();
  };
  const own = print(undefined);
  assert.match(own, /^[0-9a-f]{64}$/);
  const handed = 'a'.repeat(64);
  assert.equal(print(`${handed}:${REPO_ROOT}`), handed, 'the parent\'s key is taken');
  assert.equal(print(`${handed}:/some/other/checkout`), own, 'another checkout\'s key is not');
  assert.equal(print('not-a-key'), own);
});

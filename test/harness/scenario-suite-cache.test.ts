/**
 * Issue 15 item 3: the scenario catalogue is parsed once per run. The process that parses it writes it to the
 * file FTF_SCENARIO_CACHE names; a child process (a Playwright worker) reads that file instead of parsing, as
 * long as no scenario, step-group or clause file changed; broken files keep their typed errors (file:line:col).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { after, test } from 'node:test';
import { REPO_ROOT } from '../../src/harness/repo-root.js';
import { describeProblem, loadScenarioSuite } from '../../src/harness/scenario/load.js';
import { loadScenarioSuiteOnce, SCENARIO_CACHE_ENV } from '../../src/harness/scenario/suite-cache.js';

const dir = mkdtempSync(join(tmpdir(), 'ftf-suite-cache-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const specs = join(dir, 'specs');
mkdirSync(join(specs, 'amounts'), { recursive: true });
mkdirSync(join(specs, '_steps'));
writeFileSync(join(specs, '_steps', 'read-indication.yaml'), 'name: read-indication\nparams: { code: ~ }\nsteps:\n  - request: { method: GET, path: "/indication/${code}" }\n');
const good = join(specs, 'amounts', 'good.yaml');
writeFileSync(good, 'id: amounts.good\ntitle: reads the indication\ncovers: [EP-INDICATION-GET]\nsteps:\n  - use: read-indication\n    with: { code: FTF-FIX-1M }\n  - expect: { status: 200 }\n');
writeFileSync(join(specs, 'amounts', 'broken.yaml'), 'id: amounts.broken\ntitle: broken\ncovers: [NO-SUCH-CLAUSE]\nsteps:\n  - expect: { status: 200 }\n');

/** The suite as a child process (a worker) loads it with the given FTF_SCENARIO_CACHE: titles and problems. */
function inChild(cacheFile: string | undefined): { titles: string[]; problems: string[] } {
  const code = `import { loadScenarioSuiteOnce } from ${JSON.stringify(join(REPO_ROOT, 'src/harness/scenario/suite-cache.ts'))};
import { describeProblem } from ${JSON.stringify(join(REPO_ROOT, 'src/harness/scenario/load.ts'))};
const s = loadScenarioSuiteOnce(${JSON.stringify(specs)});
console.log(JSON.stringify({ titles: s.scenarios.map((x) => x.title), problems: s.problems.map(describeProblem) }));`;
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (cacheFile) env[SCENARIO_CACHE_ENV] = cacheFile;
  else delete env[SCENARIO_CACHE_ENV];
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: REPO_ROOT, env, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as { titles: string[]; problems: string[] };
}

test('the first load parses and writes the cache; the same process and a child reuse it; an edited file is parsed again', () => {
  const env: NodeJS.ProcessEnv = {};
  const suite = loadScenarioSuiteOnce(specs, env);
  const parsed = loadScenarioSuite(specs);
  assert.deepEqual(suite.scenarios, parsed.scenarios, 'the same scenarios as a plain parse');
  assert.deepEqual(suite.problems.map(describeProblem), parsed.problems.map(describeProblem), 'the same typed errors');
  assert.match(describeProblem(suite.problems[0]!), /FTF_E_SCENARIO_INVALID: unknown clause id 'NO-SUCH-CLAUSE' \(.*broken\.yaml:3:\d+\)/);
  assert.equal(suite.scenarios[0]?.steps[0]?.group?.params.code, undefined, 'a required parameter stays undefined');
  assert.ok(Object.hasOwn(suite.scenarios[0]!.steps[0]!.group!.params, 'code'));
  const file = env[SCENARIO_CACHE_ENV];
  assert.ok(file && existsSync(file), 'the cache file is named for child processes');
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

/**
 * The scenario catalogue parsed once per run. The first process of a run that loads it (the Playwright
 * runner: playwright.config.ts or the spec file, whichever comes first; or a CLI command) parses it with
 * loadScenarioSuite, writes it to a file (v8 serialisation: plain data, `undefined` parameter defaults and
 * shared step groups survive) and names that file in FTF_SCENARIO_CACHE, which the processes it starts
 * inherit: Playwright's workers read the file instead of parsing and validating every YAML file again. A
 * process loads it at most once (memo), however many modules ask.
 *
 * The entry is keyed by a hash of what the loader reads (every scenario and step-group file under the folder,
 * clauses.yaml): a file edited since, another folder (FTF_SPECS_DIR) or another spec (FTF_SPEC_DIR) misses
 * and is parsed. Broken files stay broken with the same typed errors (code, message, hint, file:line:col).
 * The file is deleted when the process that wrote it exits; it lives for one run only.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { FtfError, type ErrorLocation } from '../../shared/errors.js';
import { specDir } from '../spec/clauses.js';
import { findStepsDir, loadScenarioSuite, yamlFiles, type ScenarioProblem, type ScenarioSuite } from './load.js';

export const SCENARIO_CACHE_ENV = 'FTF_SCENARIO_CACHE';

interface StoredError {
  code: string;
  message: string;
  hint?: string;
  location?: ErrorLocation;
}
interface Stored {
  key: string;
  suite: Omit<ScenarioSuite, 'problems'> & { problems: Array<Omit<ScenarioProblem, 'errors'> & { errors: StoredError[] }> };
}

const memo = new Map<string, ScenarioSuite>();

/** loadScenarioSuite(dir) with the default clause catalogue, parsed once per run (see above). */
export function loadScenarioSuiteOnce(dir = 'specs', env: NodeJS.ProcessEnv = process.env): ScenarioSuite {
  const key = inputsKey(resolve(dir), env);
  const known = memo.get(key) ?? readCache(env[SCENARIO_CACHE_ENV], key);
  if (known) {
    memo.set(key, known);
    return known;
  }
  const suite = loadScenarioSuite(dir);
  memo.set(key, suite);
  writeCache(suite, key, env);
  return suite;
}

/** sha256 over the folder, every YAML file the loader reads (path and bytes) and clauses.yaml. */
function inputsKey(root: string, env: NodeJS.ProcessEnv): string {
  const hash = createHash('sha256').update(root);
  const stepsDir = findStepsDir(root);
  const files = [...(existsSync(root) ? yamlFiles(root) : []), ...(existsSync(stepsDir) ? yamlFiles(stepsDir) : []), join(specDir(env), 'clauses.yaml')];
  for (const file of files) {
    hash.update(`\0${file}\0`);
    try {
      hash.update(readFileSync(file));
    } catch {
      hash.update('\0unreadable');
    }
  }
  return hash.digest('hex');
}

function readCache(file: string | undefined, key: string): ScenarioSuite | undefined {
  if (!file) return undefined;
  try {
    const stored = deserialize(readFileSync(file)) as Stored;
    if (stored.key !== key) return undefined;
    const problems = stored.suite.problems.map((p) => ({ ...p, errors: p.errors.map(revive) }));
    return { ...stored.suite, problems };
  } catch {
    // Gone (the run ended) or unreadable: parse, as without a cache.
    return undefined;
  }
}

function writeCache(suite: ScenarioSuite, key: string, env: NodeJS.ProcessEnv): void {
  try {
    const dir = mkdtempSync(join(tmpdir(), 'ftf-scenarios-'));
    const file = join(dir, 'suite.v8');
    const stored: Stored = { key, suite: { ...suite, problems: suite.problems.map((p) => ({ ...p, errors: p.errors.map(store) })) } };
    writeFileSync(file, serialize(stored));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    env[SCENARIO_CACHE_ENV] = file;
  } catch {
    // A cache that cannot be written only costs the workers a parse.
  }
}

const store = (e: FtfError): StoredError => ({
  code: e.code,
  message: e.message,
  ...(e.hint !== undefined ? { hint: e.hint } : {}),
  ...(e.location !== undefined ? { location: e.location } : {}),
});

const revive = (e: StoredError): FtfError => new FtfError(e.code, e.message, { ...(e.hint !== undefined ? { hint: e.hint } : {}), ...(e.location ? { location: e.location } : {}) });

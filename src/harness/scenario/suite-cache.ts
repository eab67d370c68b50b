/**
 * The scenario catalogue parsed once per run, and kept between runs while nothing it depends on changed.
 * The first process of a run that loads it (the Playwright runner: playwright.config.ts or the spec file,
 * whichever comes first; or a CLI command) looks for it in the user's cache folder (user-cache.ts), or parses
 * it with loadScenarioSuite and writes it there (v8 serialisation: plain data, `undefined` parameter defaults
 * and shared step groups survive); either way it names that file in the run setting `scenarioCache` (FTF_RUN), which the processes it
 * starts inherit: Playwright's workers read the file instead of parsing and validating every YAML file again.
 * A process loads it at most once (memo), however many modules ask. Saves: worker CPU of a one-scenario run
 * (`node bin/ftf-conformance.mjs run --grep ...`, per-process CPU profiles) 4.5 s -> 2.6 s (docs/performance.md).
 *
 * The entry is keyed by a hash of what the loader reads (every scenario and step-group file under the folder,
 * clauses.yaml) and of the code and schemas that decide what a file means (every file under src/ and schemas/
 * of this checkout or installed package, the Node/V8 version): a file edited since, another folder
 * (FTF_SPECS_DIR), another spec (FTF_SPEC_DIR) or a changed harness misses and is parsed. Broken files stay
 * broken with the same typed errors (code, message, hint, file:line:col).
 *
 * The cache folder is FTF_CACHE_DIR, by default `<os tmpdir>/ftf-conformance-cache-<uid>` (user-cache.ts:
 * private to the user). One entry per scenario folder, replaced on a miss.
 * FTF_CACHE_DIR=off keeps nothing between runs: the parsed suite then lives in a temp file deleted when the
 * process that wrote it exits.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { cacheDir, codeKey, writeKept } from '../user-cache.js';
import { readRunSettings, updateRunSettings } from '../../shared/run-settings.js';
import { deserialize, serialize } from 'node:v8';
import { FtfError, type ErrorLocation } from '../../shared/errors.js';
import { specDir } from '../spec/clauses.js';
import { findStepsDir, loadScenarioSuite, yamlFiles, type ScenarioProblem, type ScenarioSuite } from './load.js';

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

/** loadScenarioSuite(dir) with the default clause catalogue, parsed once per run and kept between runs (see above). */
export function loadScenarioSuiteOnce(dir = 'specs', env: NodeJS.ProcessEnv = process.env): ScenarioSuite {
  const root = resolve(dir);
  const key = inputsKey(root, env);
  const memoised = memo.get(key);
  if (memoised) return memoised;
  const handed = readCache(readRunSettings(env).scenarioCache, key);
  if (handed) {
    memo.set(key, handed);
    return handed;
  }
  const kept = keptFile(root, env);
  const known = kept ? readCache(kept, key) : undefined;
  if (known && kept) {
    memo.set(key, known);
    // Kept from an earlier run: this run's workers read the same file.
    updateRunSettings(env, { scenarioCache: kept });
    return known;
  }
  const suite = loadScenarioSuite(dir);
  memo.set(key, suite);
  writeCache(suite, key, env, kept);
  return suite;
}

/** The kept entry of one scenario folder: named by a hash of the folder's path, so folders do not evict each other. */
function keptFile(root: string, env: NodeJS.ProcessEnv): string | undefined {
  const dir = cacheDir(env);
  return dir ? join(dir, `suite-${createHash('sha256').update(root).digest('hex').slice(0, 16)}.v8`) : undefined;
}

/**
 * sha256 over the folder, every YAML file the loader reads (path and bytes), clauses.yaml, and the harness that
 * reads them (codeKey).
 */
function inputsKey(root: string, env: NodeJS.ProcessEnv): string {
  const hash = createHash('sha256').update(codeKey()).update(root);
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

function writeCache(suite: ScenarioSuite, key: string, env: NodeJS.ProcessEnv, kept: string | undefined): void {
  const stored: Stored = { key, suite: { ...suite, problems: suite.problems.map((p) => ({ ...p, errors: p.errors.map(store) })) } };
  const bytes = serialize(stored);
  if (kept) {
    try {
      writeKept(kept, bytes);
      updateRunSettings(env, { scenarioCache: kept });
      return;
    } catch {
      // Fall back to a file for this run only.
    }
  }
  try {
    const dir = mkdtempSync(join(tmpdir(), 'ftf-scenarios-'));
    const file = join(dir, 'suite.v8');
    writeFileSync(file, bytes);
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    updateRunSettings(env, { scenarioCache: file });
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

/**
 * The user's cache folder, where a run keeps what it derived from files so the next run with the same files
 * does not derive it again (the parsed scenario catalogue: scenario/suite-cache.ts; the parsed clauses:
 * spec/clauses.ts; the parsed operation map: schemas/operation-map.ts; the parsed target profile: yaml/source.ts; the
 * target profiles that passed the profile schema: target/validate.ts). FTF_CACHE_DIR, by default
 * `<os tmpdir>/ftf-conformance-cache-<uid>`, created mode 0700; a folder other users can write is not used
 * (someone could plant an entry), and FTF_CACHE_DIR=off keeps nothing. Every entry is keyed by codeKey() too,
 * so another version of the harness never reads it.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { REPO_ROOT } from './repo-root.js';
import { readRunSettings, updateRunSettings } from '../shared/run-settings.js';

export const CACHE_DIR_ENV = 'FTF_CACHE_DIR';

/** The cache folder, or undefined when it is `off`, cannot be created, or is not this user's private folder. */
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const given = env[CACHE_DIR_ENV]?.trim();
  if (given === 'off') return undefined;
  const uid = process.getuid?.();
  const dir = given ? resolve(given) : join(tmpdir(), `ftf-conformance-cache-${uid ?? 'user'}`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = statSync(dir);
    if (!st.isDirectory() || (uid !== undefined && st.uid !== uid) || (st.mode & 0o022) !== 0) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}

let code: string | undefined;
/**
 * sha256 over every file under src/ and schemas/ of this checkout or package (path, size and modification time, as
 * the harness's bundle is keyed: bin/bundle.mjs) and the V8 version. An edit, a checkout or an install gives a file a
 * new time; reading the ~400 files' bytes instead cost a run's CLI ~50 ms more (fresh processes, 3 each).
 * Computed once per run: the first process hands it to the processes it starts (the run setting `codeKey`, FTF_RUN,
 * with the checkout root, so another checkout started from this one computes its own).
 */
export function codeKey(env: NodeJS.ProcessEnv = process.env): string {
  if (code !== undefined) return code;
  const handed = handedCodeKey(env);
  if (handed !== undefined) return (code = handed);
  const hash = createHash('sha256').update(`node ${process.versions.v8}\0`);
  for (const top of ['src', 'schemas']) {
    const base = join(REPO_ROOT, top);
    let names: string[] = [];
    try {
      names = readdirSync(base, { recursive: true, encoding: 'utf8' }).sort();
    } catch {
      // A missing folder is part of the key as nothing.
    }
    for (const name of names) {
      try {
        const st = statSync(join(base, name));
        if (st.isFile()) hash.update(`\0${top}/${name}\0${st.size}\0${st.mtimeMs}`);
      } catch {
        // A file gone meanwhile.
      }
    }
  }
  code = hash.digest('hex');
  updateRunSettings(env, { codeKey: `${code}:${REPO_ROOT}` });
  return code;
}

/**
 * The code key when this process already has it (computed, or handed over by the process that started it),
 * else undefined: for entries too cheap to derive to be worth hashing the harness for (spec/clauses.ts).
 */
export function knownCodeKey(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return code ?? (handedCodeKey(env) !== undefined ? codeKey(env) : undefined);
}

/** The key the parent handed over (run setting `codeKey`), when it was computed for this checkout. */
function handedCodeKey(env: NodeJS.ProcessEnv): string | undefined {
  const handed = /^([0-9a-f]{64}):(.*)$/s.exec(readRunSettings(env).codeKey ?? '');
  return handed?.[1] !== undefined && handed[2] === REPO_ROOT ? handed[1] : undefined;
}

/** Writes a cache entry beside, then renames it: a reader (a worker, another run) sees the old entry or the new one, never half. */
export function writeKept(file: string, data: string | NodeJS.ArrayBufferView): void {
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, data, { mode: 0o600 });
  renameSync(partial, file);
}

/**
 * What `parse` derives from `source` (a data file's text), kept in the cache folder under `name`, keyed by the
 * source's bytes and the code key: a run's processes (the CLI, the runner, each worker) parse it once between them.
 * Only when this process already knows the code key (a run's processes inherit it): hashing the harness for it would
 * cost more than the parse. `valid` checks what is read back; anything unreadable is parsed again.
 */
export function keptParse<T>(name: string, source: string, parse: () => T, valid: (kept: unknown) => kept is T): T {
  const code = knownCodeKey();
  const dir = code ? cacheDir() : undefined;
  const file = dir && code ? join(dir, `${name}-${createHash('sha256').update(`${source}\0${code}`).digest('hex').slice(0, 32)}.v8`) : undefined;
  if (file) {
    try {
      const kept: unknown = deserialize(readFileSync(file));
      if (valid(kept)) return kept;
    } catch {
      // not kept yet, or unreadable: parse
    }
  }
  const parsed = parse();
  if (file) {
    try {
      writeKept(file, serialize(parsed));
    } catch {
      // A cache that cannot be written costs the next process a parse, nothing else.
    }
  }
  return parsed;
}

/**
 * The ONE clause catalogue loader (clauses.yaml next to the spec): the ids scenarios cover, their level
 * (must/should) and what a target needs for them to be testable. Also the spec's sha256, which certificates
 * pin. The scenario loader checks `covers:` against it; reports, coverage and certificates group by it.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { FtfError } from '../../shared/errors.js';
import { REPO_ROOT } from '../repo-root.js';
import { keptParse } from '../user-cache.js';
import { yamlLibrary } from '../yaml/source.js';
import type { Capability } from '../target/types.js';

export type ClauseLevel = 'must' | 'should';

export interface Clause {
  id: string;
  ref: string;
  says: string;
  /** Target capabilities the clause needs to be checked black-box (empty = any target). */
  needs: Capability[];
  level: ClauseLevel;
}

export interface ClauseCatalogue {
  clauses: Clause[];
  byId: Map<string, Clause>;
  clausesFile: string;
  specFile: string;
  /** sha256 (hex) of ftf-interface-spec.md. */
  specSha256: string;
  /** sha256 (hex) of clauses.yaml. */
  clausesSha256: string;
}

/** Spec areas by clause id prefix: the Allure epic and the grouping of the certificate. */
export const SPEC_AREAS: Readonly<Record<string, string>> = {
  RES: 'Resources',
  ST: 'States',
  EP: 'Endpoints',
  AUTH: 'Authentication',
  EVS: 'Events',
  ERR: 'Errors and limits',
};

export function specArea(clauseId: string): string {
  return SPEC_AREAS[clauseId.split('-')[0] ?? ''] ?? 'Other';
}

export function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * Folder holding ftf-interface-spec.md and clauses.yaml: FTF_SPEC_DIR; else the package's own copy (`spec/` under
 * the root: an installed package ships one, written at pack time by scripts/build-package.mjs); else
 * ../shared/spec next to the repository.
 */
export function specDir(env: NodeJS.ProcessEnv = process.env, root = REPO_ROOT): string {
  if (env.FTF_SPEC_DIR) return resolve(env.FTF_SPEC_DIR);
  const own = resolve(root, 'spec');
  return existsSync(join(own, 'clauses.yaml')) ? own : resolve(root, '../shared/spec');
}

// Scenario suites are loaded several times per process (workers, CLI commands); the files rarely change.
const cache = new Map<string, { stamp: string; catalogue: ClauseCatalogue }>();

export function loadClauseCatalogue(dir = specDir()): ClauseCatalogue {
  const clausesFile = join(dir, 'clauses.yaml');
  const specFile = join(dir, 'ftf-interface-spec.md');
  const stamp = [clausesFile, specFile].map(mtimeOf).join('|');
  const cached = cache.get(dir);
  if (cached && cached.stamp === stamp) return cached.catalogue;
  const catalogue = readCatalogue(clausesFile, specFile);
  cache.set(dir, { stamp, catalogue });
  return catalogue;
}

function mtimeOf(file: string): string {
  try {
    return String(statSync(file).mtimeMs);
  } catch {
    return 'missing';
  }
}

function readCatalogue(clausesFile: string, specFile: string): ClauseCatalogue {
  const clausesText = readOrThrow(clausesFile);
  const specText = readOrThrow(specFile);
  const clausesSha256 = sha256(clausesText);
  // Every process of a run (the CLI, Playwright's runner and each worker) reads the catalogue; parsing the YAML is ~40 ms.
  const clauses = keptParse('clauses', clausesText, () => {
    const doc = yamlLibrary().parse(clausesText) as { clauses?: unknown };
    if (!doc || !Array.isArray(doc.clauses)) {
      throw new FtfError('FTF_E_SPEC_INVALID', `${clausesFile} has no 'clauses:' list`, { location: { file: clausesFile } });
    }
    return doc.clauses.map((raw, i) => toClause(raw, i, clausesFile));
  }, (kept): kept is Clause[] => Array.isArray(kept));
  const byId = new Map(clauses.map((c) => [c.id, c]));
  return { clauses, byId, clausesFile, specFile, specSha256: sha256(specText), clausesSha256 };
}

function toClause(raw: unknown, index: number, file: string): Clause {
  const r = raw as Partial<Record<keyof Clause, unknown>>;
  if (typeof r?.id !== 'string' || (r.level !== 'must' && r.level !== 'should')) {
    throw new FtfError('FTF_E_SPEC_INVALID', `clause #${index + 1} needs a string id and level must|should`, {
      location: { file, field: `clauses[${index}]` },
    });
  }
  return {
    id: r.id,
    ref: typeof r.ref === 'string' ? r.ref : '',
    says: typeof r.says === 'string' ? r.says : '',
    needs: Array.isArray(r.needs) ? (r.needs.map(String) as Capability[]) : [],
    level: r.level,
  };
}

function readOrThrow(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (cause) {
    throw new FtfError('FTF_E_SPEC_MISSING', `cannot read ${file}`, {
      cause,
      hint: 'set FTF_SPEC_DIR to the folder holding ftf-interface-spec.md and clauses.yaml (default: the package spec/ copy, else ../shared/spec relative to the repository root)',
      location: { file },
    });
  }
}

/**
 * The clause catalogue (../shared/spec/clauses.yaml): scenario `covers:` ids are checked against it and the
 * covered clauses' `needs` are added to the scenario's needs. Located relative to the repository root,
 * overridable with FTF_SPEC_DIR.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { FtfError } from '../../shared/errors.js';
import type { Capability } from '../target/types.js';

export interface Clause {
  id: string;
  ref: string;
  says: string;
  level: 'must' | 'should';
  needs: Capability[];
}

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

export function specDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.FTF_SPEC_DIR ? resolve(env.FTF_SPEC_DIR) : resolve(REPO_ROOT, '../shared/spec');
}

const cache = new Map<string, Map<string, Clause>>();

export function loadClauses(dir: string = specDir()): Map<string, Clause> {
  const file = join(dir, 'clauses.yaml');
  const cached = cache.get(file);
  if (cached) return cached;
  if (!existsSync(file)) {
    throw new FtfError('FTF_E_SPEC_MISSING', `clause catalogue not found: ${file}`, {
      hint: 'set FTF_SPEC_DIR to the folder holding clauses.yaml (default ../shared/spec relative to the repository root)',
      location: { file },
    });
  }
  const doc = parse(readFileSync(file, 'utf8')) as { clauses?: Array<Partial<Clause>> } | null;
  const map = new Map<string, Clause>();
  for (const c of doc?.clauses ?? []) {
    if (!c.id) continue;
    map.set(c.id, { id: c.id, ref: c.ref ?? '', says: c.says ?? '', level: c.level === 'should' ? 'should' : 'must', needs: c.needs ?? [] });
  }
  cache.set(file, map);
  return map;
}

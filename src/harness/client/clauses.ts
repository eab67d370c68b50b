/** The client-duty catalogue (client-clauses.yaml beside the spec): id, level, what it says, what it needs. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { FtfError } from '../../shared/errors.js';
import { specDir } from '../spec/clauses.js';

export interface ClientClause {
  id: string;
  ref: string;
  says: string;
  level: 'must' | 'should';
  needs: string[];
}

export function clientClausesFile(dir = specDir()): string {
  return join(dir, 'client-clauses.yaml');
}

export function loadClientClauses(file = clientClausesFile()): ClientClause[] {
  let doc: { clauses?: unknown };
  try {
    doc = parse(readFileSync(file, 'utf8')) as { clauses?: unknown };
  } catch (err) {
    throw new FtfError('FTF_E_SPEC_INVALID', `cannot read the client clauses ${file}: ${(err as Error).message}`, { location: { file } });
  }
  if (!Array.isArray(doc?.clauses)) throw new FtfError('FTF_E_SPEC_INVALID', `${file} has no 'clauses:' list`, { location: { file } });
  return doc.clauses.map((raw: Record<string, unknown>) => ({
    id: String(raw.id),
    ref: String(raw.ref ?? ''),
    says: String(raw.says ?? ''),
    level: raw.level === 'should' ? 'should' : 'must',
    needs: Array.isArray(raw.needs) ? raw.needs.map(String) : [],
  }));
}

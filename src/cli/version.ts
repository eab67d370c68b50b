/** `ftf-conformance --version`: the package version and the spec files it checks against (their sha256). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../harness/repo-root.js';
import { loadClauseCatalogue } from '../harness/spec/clauses.js';

export function packageVersion(): string {
  return (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

/** Never throws: a missing spec folder is a line of the answer, not an error. */
export function versionText(): string {
  const lines = [`ftf-conformance ${packageVersion()}`];
  try {
    const c = loadClauseCatalogue();
    lines.push(`spec:    ${c.specFile} sha256 ${c.specSha256}`, `clauses: ${c.clausesFile} sha256 ${c.clausesSha256} (${c.clauses.length} clauses)`);
  } catch (e) {
    lines.push(`spec:    not found (${(e as Error).message.split('\n')[0] ?? ''})`);
  }
  return lines.join('\n');
}

/**
 * `npm run modelines`: gives every scenario, step group and target profile its yaml-language-server modeline
 * (src/harness/yaml/modeline.ts). Idempotent; prints the files it changed.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../src/harness/repo-root.js';
import { modeline, schemaKindOf, withModeline } from '../src/harness/yaml/modeline.js';

export function repoYamlFiles(): string[] {
  return ['specs', 'fixtures/targets'].flatMap((d) =>
    readdirSync(join(REPO_ROOT, d), { recursive: true, encoding: 'utf8' }).filter((f) => /\.ya?ml$/.test(f)).map((f) => join(REPO_ROOT, d, f)));
}

let changed = 0;
for (const file of repoYamlFiles()) {
  const kind = schemaKindOf(file);
  if (!kind) continue;
  const text = readFileSync(file, 'utf8');
  const next = withModeline(text, modeline(file, kind));
  if (next !== text) {
    writeFileSync(file, next);
    changed++;
    console.log(`modeline: ${file.slice(REPO_ROOT.length + 1)}`);
  }
}
console.log(`${changed} file${changed === 1 ? '' : 's'} changed`);

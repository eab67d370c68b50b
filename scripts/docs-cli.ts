/**
 * `npm run docs:cli`: regenerates the per-command blocks and the environment table of docs/cli.md from the
 * commands' help data (src/cli/help.ts). `--check` exits 1 when the file is stale instead of writing it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCommands } from '../src/cli/commands/index.js';
import { updateCliDoc } from '../src/cli/help.js';
import { REPO_ROOT } from '../src/harness/repo-root.js';

const commands = await loadCommands();

const file = join(REPO_ROOT, 'docs/cli.md');
const current = readFileSync(file, 'utf8');
const next = updateCliDoc(current, commands);
if (process.argv.includes('--check')) {
  if (next !== current) {
    console.error('docs/cli.md is stale: run `npm run docs:cli`');
    process.exitCode = 1;
  }
} else if (next !== current) {
  writeFileSync(file, next);
  console.log(`updated ${file}`);
} else {
  console.log(`${file} is current`);
}

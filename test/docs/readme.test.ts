/**
 * The README is part of the product: its error table lists every stable error code the code can raise,
 * and every `npm run <script>` it tells people to type exists in package.json.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadCommands } from '../../src/cli/commands/index.js';
import { ERROR_CODES } from '../../src/harness/report/records/error-codes.js';

const commands = await loadCommands();

const ROOT = join(import.meta.dirname, '../..');
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

describe('README', () => {
  it('lists every error code raised under src/ and specs/', () => {
    // test/report/error-codes.test.ts proves every raised code is in the error-code table; the README lists the table.
    const codes = Object.keys(ERROR_CODES);
    const missing = [...codes].filter((c) => !readme.includes(`\`${c}\``)).sort();
    assert.deepEqual(missing, [], 'add these codes to the README error table');
  });

  it('gives every code the kind of the error-code table, and lists no code the table lacks', () => {
    const rows = [...readme.matchAll(/^\| ((?:`FTF_E_[A-Z0-9_]+`(?:, )?)+) \| ([a-z-]+) \|/gm)];
    assert.ok(rows.length > 20, 'the README error table has a kind column');
    const wrong: string[] = [];
    const listed = new Set<string>();
    for (const [, codes, kind] of rows) {
      for (const [, code] of codes!.matchAll(/`(FTF_E_[A-Z0-9_]+)`/g)) {
        listed.add(code!);
        if (ERROR_CODES[code as keyof typeof ERROR_CODES] !== kind) wrong.push(`${code}: README says ${kind}, table says ${ERROR_CODES[code as keyof typeof ERROR_CODES] ?? 'nothing'}`);
      }
    }
    assert.deepEqual(wrong, []);
    assert.deepEqual(Object.keys(ERROR_CODES).filter((c) => !listed.has(c)).sort(), [], 'add these codes to the README error table');
  });

  it('every npm script it mentions exists', () => {
    const scripts = Object.keys((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts);
    const mentioned = new Set([...readme.matchAll(/npm run ([a-z:-]+)/g)].map((m) => m[1]!));
    assert.ok(mentioned.size >= 5);
    assert.deepEqual([...mentioned].filter((s) => !scripts.includes(s)).sort(), []);
  });

  it('names every ftf-conformance command, as docs/cli.md does', () => {
    const cliDoc = readFileSync(join(ROOT, 'docs/cli.md'), 'utf8');
    const helpLine = /npx ftf-conformance help <([a-z|\\]+)>/.exec(readme)?.[1]?.split('\\|') ?? [];
    assert.deepEqual(helpLine.sort(), Object.keys(commands).sort());
    assert.deepEqual(Object.keys(commands).filter((c) => !cliDoc.includes(`| [\`${c}\`](#${c}) |`)), []);
  });
});

/**
 * docs/ci/ describes what works: every `ftf-conformance` command in the README and pipelines exists and takes
 * the flags written there (checked against each command's usage line), and the sharded flow is the one
 * test/cli/shared-shards.test.ts runs (run --phase shared --shard into per-shard folders, run --phase exclusive
 * after them, then merge), with no raw
 * `playwright merge-reports` or `--reporter` (refused by `run`; they would bypass the redacting reporter).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadCommands } from '../../src/cli/commands/index.js';
import { REPO_ROOT } from '../../src/harness/repo-root.js';

const commands = await loadCommands();

const FILES = ['docs/ci/README.md', 'docs/ci/github-actions.yml', 'docs/ci/gitlab-ci.yml'];
const text = (f: string): string => readFileSync(join(REPO_ROOT, f), 'utf8');

/** `npx ftf-conformance <command> <args…>` up to a comment, `||`, `;` or the end of the line. */
function invocations(src: string): { command: string; flags: string[]; line: string }[] {
  return [...src.matchAll(/ftf-conformance ([a-z]+)([^\n#|;`]*)/g)].map((m) => ({
    command: m[1]!,
    flags: [...m[2]!.matchAll(/(?:^|\s)(--[a-z-]+)/g)].map((f) => f[1]!),
    line: m[0],
  }));
}

describe('CI examples', () => {
  for (const file of FILES) {
    it(`${file}: every ftf-conformance command and flag exists`, () => {
      const calls = invocations(text(file));
      assert.ok(calls.length > 0);
      for (const c of calls) {
        const cmd = commands[c.command];
        assert.ok(cmd, `${file}: unknown command in '${c.line}'`);
        for (const f of c.flags) assert.ok(cmd.help.flags.some((h) => h.flag === f), `${file}: ${c.command} has no ${f} ('${c.line}')`);
      }
    });
  }

  for (const file of FILES) {
    it(`${file}: shards of the shared phase and one exclusive job run into their own folders, one merge gates`, () => {
      const src = text(file);
      // One shared target: only the shared phase is sharded (src/cli/shard-guard.ts refuses other shards of it).
      assert.match(src, /ftf-conformance run --phase shared --shard /);
      assert.deepEqual(invocations(src).filter((c) => c.command === 'run' && c.flags.includes('--shard') && !/--phase shared\b/.test(c.line)).map((c) => c.line), []);
      assert.match(src, /ftf-conformance run --phase exclusive\b/);
      assert.match(src, /FTF_REPORTS_DIR[=:] ?shards\/shard-exclusive/);
      assert.match(src, /FTF_REPORTS_DIR[=:] ?shards\/shard-/);
      assert.match(src, /ftf-conformance merge shards\/shard-\*/);
      assert.doesNotMatch(src, /playwright merge-reports|--reporter|PLAYWRIGHT_BLOB_OUTPUT_DIR|all-blobs/);
    });
  }
});

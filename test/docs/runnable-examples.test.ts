/**
 * Pasted examples run. Every fenced shell block of README.md and docs/cli.md marked `<!-- runnable -->` (the
 * generated ones: a command's `runnableExamples`, src/cli/help.ts) is pasted into bash, line by line as a user
 * would, in an empty folder where `npx ftf-conformance` is this checkout's bin, against a reference server started
 * here: every line must succeed. Only the placeholders a reader replaces are replaced (PLACEHOLDERS below): the
 * example API base, client id and client secret. The reports go to that folder (FTF_REPORTS_DIR).
 *
 * The README's steps 1 to 3 are a new user's path (`init --discover`, `doctor`, `run` with that profile against the
 * running server): besides succeeding, the run fails nothing and skips only what `doctor` announced (newUserPath;
 * this was a second catalogue run in test/cli/shared-target.test.ts, now proved on the pasted commands themselves).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OutcomeEntry } from '../../src/harness/report/outputs/outcome-reporter.js';
import { after, before, describe, it } from 'node:test';
import { REPO_ROOT } from '../../src/harness/repo-root.js';
import { startReferenceServer, type RunningReference } from '../../src/reference/server.js';

const FILES = ['README.md', 'docs/cli.md'];

/** The fenced blocks right after a `<!-- runnable -->` line, with the line they start at. */
export function runnableBlocks(text: string): { line: number; body: string }[] {
  const lines = text.split('\n');
  const out: { line: number; body: string }[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() !== '<!-- runnable -->') continue;
    const open = lines[i + 1] ?? '';
    assert.match(open, /^```(sh|bash)$/, `line ${i + 2}: a runnable marker must stand right above a \`\`\`sh block`);
    const end = lines.indexOf('```', i + 2);
    assert.ok(end > i, `line ${i + 2}: the runnable block is not closed`);
    out.push({ line: i + 2, body: lines.slice(i + 2, end).join('\n') });
  }
  return out;
}

let server: RunningReference;
const work = mkdtempSync(join(tmpdir(), 'ftf-doc-examples-'));
before(async () => {
  server = await startReferenceServer({ port: 0 });
});
after(async () => {
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

/** What a reader replaces, and what with (the reference server started here). */
function placeholders(): [RegExp, string][] {
  return [
    [/https:\/\/sandbox\.example\.com\/api\/v1/g, server.baseUrl],
    [/https:\/\/sandbox\.example\.com/g, server.authUrl],
    [/\bmy-client\b/g, 'cc-alice'],
    [/(FTF_PRIMARY_CLIENT_SECRET=)(\.\.\.|…)/g, `$1${server.secrets.clients['cc-alice']}`],
  ];
}

/** An empty folder where `npx ftf-conformance` resolves to this checkout's bin without the registry. */
function freshFolder(name: string): string {
  const dir = join(work, name);
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "name": "docs-examples", "private": true }\n');
  symlinkSync(join(REPO_ROOT, 'bin', 'ftf-conformance.mjs'), join(dir, 'node_modules', '.bin', 'ftf-conformance'));
  return dir;
}

function bash(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ status: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-e', '-x', '-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, out }));
  });
}

describe('runnable examples of the docs', () => {
  for (const file of FILES) {
    const blocks = runnableBlocks(readFileSync(join(REPO_ROOT, file), 'utf8'));
    it(`${file} marks its pasteable examples`, () => assert.ok(blocks.length > 0, `${file} has no <!-- runnable --> block`));
    for (const block of blocks) {
      it(`${file}:${block.line} runs as pasted`, { timeout: 600_000 }, async () => {
        let script = block.body;
        for (const [from, to] of placeholders()) script = script.replace(from, to);
        const cwd = freshFolder(`${file.replace(/\W/g, '-')}-${block.line}`);
        const env: NodeJS.ProcessEnv = { ...process.env, FTF_REPORTS_DIR: join(cwd, 'reports'), FTF_WORKERS: '2', CI: '1', npm_config_offline: 'true', npm_config_update_notifier: 'false' };
        for (const k of ['FTF_TARGET', 'FTF_SPECS_DIR', 'FTF_BASE_URL', 'FTF_AUTH_URL', 'FTF_CONTROL_URL', 'FTF_PRIMARY_CLIENT_SECRET', 'NODE_OPTIONS']) delete env[k];
        // -e: the first failing line fails the paste; -x: the output shows which line it was.
        // Not spawnSync: the reference server answers from this process's event loop.
        const r = await bash(script, cwd, env);
        assert.equal(r.status, 0, `${file}:${block.line} failed when pasted:\n${r.out.slice(-5000)}`);
        if (/init .*--discover/.test(script) && /\bdoctor\b/.test(script) && /ftf-conformance run\b/.test(script)) newUserPath(r.out, join(cwd, 'reports'));
      });
    }
  }
});

/**
 * A new user's path on a correct server: `init --discover` found the entities and roles, `doctor` said ready, and the
 * run with that profile failed or errored nothing and skipped only scenarios `doctor` announced as skipped.
 */
function newUserPath(out: string, reports: string): void {
  assert.match(out, /discovered 2 entities; indication roles: primary=/);
  assert.match(out, /doctor: ready/);
  // bash -x echoes each pasted line ('+ export FTF_PRIMARY_CLIENT_SECRET=…'): only what the commands printed counts.
  const printed = out.split('\n').filter((l) => !l.startsWith('+')).join('\n');
  assert.equal(printed.includes(server.secrets.clients['cc-alice']!), false, 'no secret printed');
  const announced = new Set(out.split('\n').filter((l) => /^INFO +skipped \(/.test(l)).flatMap((l) => l.replace(/^.*\): /, '').split(', ')));
  const all = (JSON.parse(readFileSync(join(reports, 'outcomes.json'), 'utf8')) as { outcomes: OutcomeEntry[] }).outcomes;
  const passed = all.filter((o) => o.status === 'passed').length;
  assert.ok(passed > 20, `the run ran the catalogue (${passed} passed of ${all.length}; one client: what needs a second user or another credential skips)`);
  const bad = all.filter((o) => o.status === 'failed' || o.status === 'errored').map((o) => `${o.scenario}: ${o.status} ${o.reason ?? ''}`);
  assert.deepEqual(bad, [], 'a profile doctor accepted never fails a correct server');
  const surprises = all.filter((o) => o.status === 'skipped' && !announced.has(o.scenario)).map((o) => `${o.scenario}: ${o.reason ?? ''}`);
  assert.deepEqual(surprises, [], 'every skip was announced by doctor');
  assert.ok(all.some((o) => o.status === 'passed' && o.scenario === 'amounts.minimum-fractional') || announced.has('amounts.minimum-fractional'), 'the discovered fractional-minimum role is used or announced');
}

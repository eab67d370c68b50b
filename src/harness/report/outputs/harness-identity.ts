/**
 * Which harness judged: its package name and version, the git commit it was built from, and the sha-512 of the
 * harness files that ran, so a certificate says exactly which code produced it, from a clone or an installed package.
 *
 * - commit: `git rev-parse HEAD` in a clone; in the installed package the commit scripts/build-package.mjs wrote into
 *   dist/package.json (`commit`) at build time; 'unknown' when neither is known.
 * - files: the harness files, hashed like `sha512sum`: one line `<sha512 hex>  <path>` per file, sorted by path
 *   (bytewise), and the sha-512 of those lines. In the installed package (scope `package`) the files are `bin/`,
 *   `dist/` (without the folders a run writes there: test-results/, .ftf/, reports/) and package.json, paths
 *   relative to the package folder; in a clone (scope `repository`) the files a run loads: package.json, bin/, src/,
 *   specs/, schemas/, fixtures/ and playwright.config.ts. docs/package.md shows the shell line that recomputes it.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PACKAGED, REPO_ROOT } from '../../repo-root.js';

export interface HarnessFiles {
  algorithm: 'sha512';
  scope: 'package' | 'repository';
  /** Number of files hashed. */
  count: number;
  /** Hex sha-512 of the sorted `<sha512 hex>  <path>` lines. */
  digest: string;
}

export interface HarnessIdentity {
  name: string;
  version: string;
  commit: string;
  files: HarnessFiles;
}

/** Folders a run writes under the package's dist/ (Playwright's outputDir, the default key folder, reports): not harness files. */
const RUN_OUTPUT = new Set(['test-results', '.ftf', 'reports']);
const REPOSITORY_ENTRIES = ['package.json', 'bin', 'src', 'specs', 'schemas', 'fixtures', 'playwright.config.ts'];

/** The folder the harness was installed into: the package folder (dist/..) or the clone. */
export const packageRoot = (): string => (PACKAGED ? resolve(REPO_ROOT, '..') : REPO_ROOT);

function walk(root: string, rel: string, skip: (rel: string) => boolean, out: string[]): void {
  const abs = join(root, rel);
  if (!existsSync(abs) || skip(rel)) return;
  if (statSync(abs).isDirectory()) {
    for (const name of readdirSync(abs)) walk(root, rel ? `${rel}/${name}` : name, skip, out);
  } else out.push(rel);
}

/** The harness files of the install at `root`, relative paths with `/`, sorted (code-unit order: bytewise for ASCII paths, as `LC_ALL=C sort`). */
export function harnessFileList(root: string, scope: HarnessFiles['scope']): string[] {
  const out: string[] = [];
  const entries = scope === 'package' ? ['package.json', 'bin', 'dist'] : REPOSITORY_ENTRIES;
  const skip = (rel: string): boolean => scope === 'package' && rel.startsWith('dist/') && RUN_OUTPUT.has(rel.split('/')[1]!);
  for (const entry of entries) walk(root, entry, skip, out);
  return out.sort();
}

/** sha512sum's output for `files` (under `root`), then its sha-512: what `… | xargs sha512sum | sha512sum` prints. */
export function harnessFilesDigest(root: string, files: readonly string[]): string {
  const lines = files.map((f) => `${createHash('sha512').update(readFileSync(join(root, f))).digest('hex')}  ${f}\n`).join('');
  return createHash('sha512').update(lines).digest('hex');
}

let cached: HarnessIdentity | undefined;

/** Name, version and commit (cheap): the Allure run label. */
export function harnessName(): Omit<HarnessIdentity, 'files'> {
  const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { name: string; version: string; commit?: string };
  return { name: pkg.name, version: pkg.version, commit: PACKAGED ? (pkg.commit ?? 'unknown') : gitCommit() };
}

/** Everything, the file digest included (hashes every harness file once per process): certificates. */
export function harnessIdentity(): HarnessIdentity {
  if (cached) return cached;
  const scope: HarnessFiles['scope'] = PACKAGED ? 'package' : 'repository';
  const root = packageRoot();
  const files = harnessFileList(root, scope);
  cached = { ...harnessName(), files: { algorithm: 'sha512', scope, count: files.length, digest: harnessFilesDigest(root, files) } };
  return cached;
}

/**
 * HEAD's commit read from the clone's .git files (a branch's loose ref or packed-refs, or a detached HEAD); undefined
 * for anything else (a worktree, a symbolic ref elsewhere), which `git rev-parse` then answers. Saves the ~18 ms
 * spawn of git on the tail of every run (docs/performance.md, issue 28).
 */
export function headFromFiles(gitDir: string): string | undefined {
  try {
    const head = readFileSync(join(gitDir, 'HEAD'), 'utf8').trim();
    if (/^[0-9a-f]{40}$/.test(head)) return head;
    const ref = /^ref: (refs\/[^\s]+)$/.exec(head)?.[1];
    if (!ref) return undefined;
    const loose = join(gitDir, ref);
    if (existsSync(loose)) return /^[0-9a-f]{40}$/.exec(readFileSync(loose, 'utf8').trim())?.[0];
    const packed = join(gitDir, 'packed-refs');
    return existsSync(packed) ? new RegExp(`^([0-9a-f]{40}) ${ref.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm').exec(readFileSync(packed, 'utf8'))?.[1] : undefined;
  } catch {
    return undefined;
  }
}

function gitCommit(): string {
  const gitDir = join(REPO_ROOT, '.git');
  const fromFiles = existsSync(gitDir) && statSync(gitDir).isDirectory() ? headFromFiles(gitDir) : undefined;
  if (fromFiles) return fromFiles;
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || 'unknown';
  } catch {
    return 'unknown';
  }
}

/**
 * The CLI's `--allow-mutations`, handed to Playwright's runner and workers so that nothing inherited can stand in
 * for it. No environment variable enables production writes by its value: the CLI writes a grant file (a
 * random nonce and its own pid, private to the user) and passes `<nonce>@<file>` as the run setting `grant` (FTF_RUN,
 * shared/run-settings.ts); a worker
 * honours it only when the file holds that nonce, belongs to this user and names a live process that is an
 * ancestor of the worker (the CLI that started this run). The CLI deletes the file when the run ends and
 * drops any inherited grant before it starts Playwright, so a value left in a shell, a CI
 * variable or a `.env` file grants nothing, and `npx playwright test` on its own never writes to production.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processAlive } from '../../shared/process-alive.js';
import { readRunSettings } from '../../shared/run-settings.js';

/** The old opt-in variable: read by nothing any more, named in the console when it is set (src/cli/commands/run.ts). */
export const RETIRED_ALLOW_ENV = 'FTF_ALLOW_MUTATIONS';

export interface MutationGrant {
  /** `<nonce>@<file>`: the run setting `grant` for the run's Playwright environment. */
  value: string;
  /** Deletes the grant file (also done at process exit). */
  revoke(): void;
}

/** Issued by the process that decided (the CLI, or a test standing in for it); valid while that process lives. */
export function issueMutationGrant(): MutationGrant {
  const dir = mkdtempSync(join(tmpdir(), 'ftf-grant-'));
  const file = join(dir, 'grant.json');
  const nonce = randomBytes(16).toString('hex');
  writeFileSync(file, JSON.stringify({ nonce, pid: process.pid }), { mode: 0o600 });
  let revoked = false;
  const revoke = (): void => {
    if (revoked) return;
    revoked = true;
    process.removeListener('exit', revoke);
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', revoke);
  return { value: `${nonce}@${file}`, revoke };
}

/** Why the grant in `env` does not hold (undefined when it holds, or 'none' when there is none). */
export function grantProblem(env: NodeJS.ProcessEnv = process.env, self: { pid: number; uid: number | undefined } = { pid: process.pid, uid: process.getuid?.() }): string | undefined {
  const raw = readRunSettings(env).grant?.trim();
  if (!raw) return 'none';
  const at = raw.indexOf('@');
  if (at <= 0) return 'malformed';
  const nonce = raw.slice(0, at);
  const file = raw.slice(at + 1);
  let grant: { nonce?: unknown; pid?: unknown };
  try {
    if (self.uid !== undefined && statSync(file).uid !== self.uid) return 'grant file belongs to another user';
    grant = JSON.parse(readFileSync(file, 'utf8')) as typeof grant;
  } catch {
    return 'grant file missing (the run that issued it has ended)';
  }
  if (grant.nonce !== nonce) return 'nonce mismatch';
  if (typeof grant.pid !== 'number' || !processAlive(grant.pid)) return 'the process that issued it is gone';
  if (!isAncestor(grant.pid, self.pid)) return 'issued by a process that did not start this one';
  return undefined;
}


/** Walks the parent chain through /proc (Linux); where there is none, a live issuer is accepted. */
function isAncestor(ancestor: number, pid: number): boolean {
  if (!procAvailable()) return true;
  let current = pid;
  for (let depth = 0; depth < 64 && current > 1; depth++) {
    if (current === ancestor) return true;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${current}/stat`, 'utf8');
    } catch {
      return false;
    }
    // pid (comm) state ppid …: comm may hold spaces and parentheses, so read after the last ')'.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (!Number.isInteger(ppid)) return false;
    current = ppid;
  }
  return current === ancestor;
}

const procAvailable = (): boolean => {
  try {
    statSync('/proc/self/stat');
    return true;
  } catch {
    return false;
  }
};

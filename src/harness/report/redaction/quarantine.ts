/**
 * Where the leak scan puts the files it found a secret in, before the run exits with FTF_E_SECRET_LEAK: out of
 * the reports folder and test-results (what a CI "upload reports" step publishes, docs/ci/), into a private
 * folder of this user, `<os tmpdir>/ftf-quarantine-<uid>/<time>-<random>/` (0700; each file 0600, kept at its
 * absolute path below that folder). Nothing of the file is read or printed here; the error names the folder.
 * A file that cannot be moved is deleted; one that cannot be deleted either is named as such.
 */
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

export interface Quarantined {
  /** The private folder the files were moved into (undefined: none could be made, the files were deleted). */
  folder: string | undefined;
  /** Files neither moved nor deleted (they are still where they were). */
  stuck: string[];
}

/** The parent of every quarantine folder of this user (FTF_QUARANTINE_DIR for tests). */
export function quarantineRoot(env: NodeJS.ProcessEnv = process.env): string {
  return env.FTF_QUARANTINE_DIR?.trim() ? resolve(env.FTF_QUARANTINE_DIR) : join(tmpdir(), `ftf-quarantine-${process.getuid?.() ?? 'user'}`);
}

export function quarantine(files: readonly string[], env: NodeJS.ProcessEnv = process.env): Quarantined {
  let folder: string | undefined;
  try {
    const root = quarantineRoot(env);
    mkdirSync(root, { recursive: true, mode: 0o700 });
    chmodSync(root, 0o700);
    folder = mkdtempSync(join(root, `${new Date().toISOString().replace(/[:.]/g, '-')}-`));
    chmodSync(folder, 0o700);
  } catch {
    folder = undefined;
  }
  const stuck: string[] = [];
  for (const file of new Set(files.map((f) => resolve(f)))) {
    if (folder && moveInto(folder, file)) continue;
    try {
      rmSync(file, { force: true });
    } catch {
      stuck.push(file);
    }
  }
  return { folder, stuck };
}

function moveInto(folder: string, file: string): boolean {
  const to = join(folder, file);
  try {
    mkdirSync(dirname(to), { recursive: true, mode: 0o700 });
    // Private before it is moved: a copy across file systems is never readable by others, not even briefly.
    chmodSync(file, 0o600);
    try {
      renameSync(file, to);
    } catch {
      copyFileSync(file, to);
      chmodSync(to, 0o600);
      rmSync(file, { force: true });
    }
    return statSync(to).isFile();
  } catch {
    return false;
  }
}

/**
 * Clearing an earlier run's reports without making this run wait for the disk. Each path is renamed into one
 * discard folder inside the reports folder (a rename per path: from then on nothing of the old run can be
 * read under its name), and that folder is deleted while Playwright runs. A discard folder left by a killed
 * run is deleted by the next one. Where a rename is refused, the path is deleted on the spot, as before.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';

const PREFIX = '.discarded-';

/** Moves `paths` (files or folders; missing ones are skipped) out of the way now; the promise ends when they are deleted. */
export function discardPrevious(reportsRoot: string, paths: readonly string[]): Promise<void> {
  const existing = paths.filter((p) => existsSync(p));
  const leftovers = existsSync(reportsRoot) ? readdirSync(reportsRoot).filter((n) => n.startsWith(PREFIX)).map((n) => join(reportsRoot, n)) : [];
  if (existing.length === 0) return removeAll(leftovers);
  const bin = join(reportsRoot, `${PREFIX}${process.pid}-${randomBytes(3).toString('hex')}`);
  try {
    mkdirSync(bin, { recursive: true });
  } catch {
    for (const p of existing) rmSync(p, { recursive: true, force: true });
    return removeAll(leftovers);
  }
  existing.forEach((p, i) => {
    try {
      renameSync(p, join(bin, `${i}-${basename(p)}`));
    } catch {
      rmSync(p, { recursive: true, force: true });
    }
  });
  return removeAll([bin, ...leftovers]);
}

/** Deleting is best effort: what stays behind (a file held open elsewhere) goes with the next run. */
async function removeAll(paths: string[]): Promise<void> {
  await Promise.all(paths.map((p) => rm(p, { recursive: true, force: true }).catch(() => {})));
}

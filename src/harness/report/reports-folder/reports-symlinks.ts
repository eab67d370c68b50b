/**
 * Nothing is written through a symbolic link inside the reports folder. A link there (a CI cache restored as
 * a link, a folder an attacker replaced) would make the run write, append to or delete files elsewhere: the
 * Allure history that CI caches between runs is appended to in place. The run refuses before it writes
 * anything, naming each link and where it points. The reports folder itself may be a link: the user chose it.
 */
import { lstatSync, readdirSync, readlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import { FtfError } from '../../../shared/errors.js';

/** Links below `root` (not `root` itself), searched without following any; folders being deleted are skipped. */
export function symlinksUnder(root: string, maxEntries = 200_000): string[] {
  const found: string[] = [];
  const stack = [root];
  let seen = 0;
  while (stack.length > 0 && seen < maxEntries) {
    const dir = stack.pop() as string;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      seen++;
      if (dir === root && e.name.startsWith('.discarded-')) continue;
      const path = join(dir, e.name);
      if (e.isSymbolicLink()) found.push(path);
      else if (e.isDirectory()) stack.push(path);
    }
  }
  return found.sort();
}

/** Throws FTF_E_REPORTS_SYMLINK when `root` (or the given extra paths, e.g. a history folder) holds a link. */
export function refuseSymlinks(root: string, extra: readonly string[] = []): void {
  const links = [...new Set([...symlinksUnder(root), ...extra.flatMap((p) => (isLink(p) ? [p] : symlinksUnder(p)))])];
  if (links.length === 0) return;
  const shown = links.slice(0, 5).map((l) => `${relative(root, l) || l} -> ${target(l)}`);
  throw new FtfError('FTF_E_REPORTS_SYMLINK', `the reports folder ${root} holds ${links.length} symbolic link(s), which a run would write through: ${shown.join('; ')}${links.length > 5 ? '; …' : ''}`, {
    hint: 'replace each link with a real file or folder (restore CI caches by copying into reports/, not as links), or remove it; the harness never writes through links',
    location: { file: links[0] as string },
  });
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function target(link: string): string {
  try {
    return readlinkSync(link);
  } catch {
    return '?';
  }
}

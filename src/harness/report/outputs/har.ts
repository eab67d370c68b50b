/**
 * Collects the recorder's HAR files (already redacted: the recorder is the one redaction point) into one
 * HAR for the certificate's evidence. Accepts files, folders and simple globs (`reports/har/*.har`).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

interface HarLog {
  log: { version?: string; creator?: unknown; pages?: unknown[]; entries?: { startedDateTime?: string }[] };
}

/** Expands `dir/*.har`-style patterns (a `*` in the last segment only), folders (their *.har) and files. */
export function expandHarPaths(patterns: string[]): string[] {
  const files = new Set<string>();
  for (const pattern of patterns) {
    const abs = resolve(pattern);
    const name = basename(abs);
    if (name.includes('*')) {
      const dir = dirname(abs);
      const re = new RegExp(`^${name.split('*').map(escapeRe).join('.*')}$`);
      if (existsSync(dir)) for (const f of readdirSync(dir).sort()) if (re.test(f)) files.add(join(dir, f));
    } else if (existsSync(abs) && statSync(abs).isDirectory()) {
      for (const f of readdirSync(abs).sort()) if (f.endsWith('.har')) files.add(join(abs, f));
    } else if (existsSync(abs)) {
      files.add(abs);
    }
  }
  return [...files];
}

const escapeRe = (s: string): string => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&');

export function mergeHar(files: string[], creator: { name: string; version: string }): { har: HarLog; entries: number } {
  const pages: unknown[] = [];
  const entries: { startedDateTime?: string }[] = [];
  for (const file of files) {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as HarLog;
    pages.push(...(parsed.log?.pages ?? []));
    entries.push(...(parsed.log?.entries ?? []));
  }
  entries.sort((a, b) => (a.startedDateTime ?? '').localeCompare(b.startedDateTime ?? ''));
  return { har: { log: { version: '1.2', creator, pages, entries } }, entries: entries.length };
}

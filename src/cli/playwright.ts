/**
 * Runs the suite with Playwright (`npx playwright test`) in the repository; the configured list/line
 * reporter is the progress display. Swappable (`playwright.run = ...`) so CLI tests run without a browser.
 */
import { spawnSync } from 'node:child_process';
import { REPO_ROOT } from '../harness/repo-root.js';

export interface PlaywrightSelection {
  grep?: string;
  tag?: string;
  shard?: string;
  /** Extra arguments after `--`, passed through untouched. */
  extra?: string[];
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Playwright takes one --grep: a tag and a title pattern are combined with lookaheads. */
export function playwrightArgs(sel: PlaywrightSelection): string[] {
  const args = ['playwright', 'test'];
  const tag = sel.tag ? `@${escapeRegExp(sel.tag.replace(/^@/, ''))}\\b` : undefined;
  const grep = sel.grep && tag ? `(?=.*(?:${sel.grep}))(?=.*${tag})` : (sel.grep ?? tag);
  if (grep) args.push('--grep', grep);
  if (sel.shard) args.push('--shard', sel.shard);
  return [...args, ...(sel.extra ?? [])];
}

export const playwright = {
  run(args: string[], env: Record<string, string>): number | null {
    const r = spawnSync('npx', args, { cwd: REPO_ROOT, stdio: 'inherit', env: { ...process.env, ...env } });
    return r.status;
  },
};

/**
 * The process table as /proc shows it (Linux): what the CLI tests need to prove that a run leaves nothing behind
 * and which process started which.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

export interface Proc {
  pid: number;
  ppid: number;
  pgrp: number;
}

export function processes(): Proc[] {
  const out: Proc[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // Fields after "(comm)": state ppid pgrp ...; comm may contain spaces and parentheses.
      const [, ppid, pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.push({ pid: Number(name), ppid: Number(ppid), pgrp: Number(pgrp) });
    } catch {
      // the process ended while we looked
    }
  }
  return out;
}

export function descendants(root: number): Proc[] {
  const all = processes();
  const found: Proc[] = [];
  let frontier = [root];
  while (frontier.length) {
    const next = all.filter((p) => frontier.includes(p.ppid));
    found.push(...next);
    frontier = next.map((p) => p.pid);
  }
  return found;
}

export const alive = (pid: number): boolean => {
  try {
    const state = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) Z /.test(state);
  } catch {
    return false;
  }
};

/** A variable of the environment `pid` was started with (a later change in the process does not show here). */
export function envOf(pid: number, name: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').find((v) => v.startsWith(`${name}=`))?.slice(name.length + 1);
  } catch {
    return undefined; // ended
  }
}

/** The command line of `pid`, its words joined by spaces ('' once it ended). */
export function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

export const POLL_MS = 100;

/** Polls `probe` until it returns a value; bounded by `boundMs` (derived by the caller from what it waits for). */
export async function until<T>(what: string, boundMs: number, probe: () => T | undefined, pollMs = POLL_MS): Promise<T> {
  for (let waited = 0; waited < boundMs; waited += pollMs) {
    const v = probe();
    if (v !== undefined) return v;
    await sleep(pollMs);
  }
  throw new Error(`${what}: not within ${boundMs} ms`);
}

/**
 * Child processes end with the run. A gated Playwright runner (gated-runner.ts) runs in its own process group so that
 * the CLI can stop it AND its workers (which host the per-worker reference servers) with one kill, whatever signal
 * the CLI got: a CI runner's SIGTERM reaches only the CLI's pid, never the grandchildren. The bin forwards SIGINT,
 * SIGTERM and SIGHUP here (onSignal; Playwright in the CLI's own process: in-process-runner.ts); an interrupted run
 * ends with FTF_E_INTERRUPTED and exit 128 + signal.
 */
import type { ChildProcess } from 'node:child_process';
import { constants } from 'node:os';
import { FtfError } from '../shared/errors.js';

export const FORWARDED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
export type ForwardedSignal = (typeof FORWARDED_SIGNALS)[number];

/** The shell convention (130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP): never 0-3, so never a verdict. */
export const signalExitCode = (signal: ForwardedSignal): number => 128 + constants.signals[signal];

export class InterruptedError extends FtfError {
  readonly signal: ForwardedSignal;
  constructor(signal: ForwardedSignal, what: string) {
    super('FTF_E_INTERRUPTED', `interrupted by ${signal}: ${what} stopped, no verdict`, { hint: 'run it again; a partial run is never a verdict' });
    this.name = 'InterruptedError';
    this.signal = signal;
  }
}

/** Grace for a child group to wind down after the forwarded signal before it is killed (FTF_KILL_GRACE_MS). */
export function killGraceMs(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.FTF_KILL_GRACE_MS ?? 10_000);
  return Number.isFinite(n) && n >= 0 ? n : 10_000;
}

interface Group {
  pid: number;
  stop(signal: ForwardedSignal): void;
}

const active = new Set<Group>();

/** Long-running commands whose documented stop is a signal (`reference`): they wind down and exit themselves. */
const stoppers = new Set<(signal: ForwardedSignal) => void>();

/** Registers a command's own stop for SIGINT/SIGTERM/SIGHUP; the returned function removes it. */
export function onStopSignal(stop: (signal: ForwardedSignal) => void): () => void {
  stoppers.add(stop);
  return () => stoppers.delete(stop);
}

/**
 * Called by the bin for SIGINT/SIGTERM/SIGHUP. With a child group running, forwards the signal (the run then
 * throws InterruptedError and exits through main); a second signal kills the groups at once. With none
 * running there is nothing to wind down: returns the exit code for the caller to exit with.
 */
export function onSignal(signal: ForwardedSignal): number | undefined {
  if (active.size === 0 && stoppers.size === 0) return signalExitCode(signal);
  for (const g of active) g.stop(signal);
  for (const s of stoppers) s(signal);
  return undefined;
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already empty.
  }
}

export interface GroupResult {
  status: number | null;
  interruptedBy?: ForwardedSignal;
}

/**
 * The supervision of a child spawned as a group leader (`detached: true`): Playwright's runner in a process of its
 * own (gated-runner.ts). Forwarded signals reach its group, and whatever is left of the group when it exits is killed.
 */
export function superviseGroup(child: ChildProcess, graceMs: number): Promise<GroupResult> {
  return new Promise((resolvePromise, reject) => {
    let interruptedBy: ForwardedSignal | undefined;
    let timer: NodeJS.Timeout | undefined;
    const group: Group = {
      pid: child.pid ?? -1,
      stop(signal) {
        if (child.pid === undefined) return;
        if (interruptedBy) {
          killGroup(child.pid, 'SIGKILL');
          return;
        }
        interruptedBy = signal;
        killGroup(child.pid, signal);
        timer = setTimeout(() => killGroup(child.pid!, 'SIGKILL'), graceMs);
      },
    };
    if (child.pid !== undefined) active.add(group);
    child.once('error', (e) => {
      active.delete(group);
      reject(e);
    });
    child.once('exit', (status) => {
      active.delete(group);
      if (timer) clearTimeout(timer);
      // Workers the leader left behind (a crash, a kill) must not outlive the run.
      if (child.pid !== undefined) killGroup(child.pid, 'SIGKILL');
      resolvePromise({ status, ...(interruptedBy ? { interruptedBy } : {}) });
    });
  });
}

/**
 * One run at a time per reports folder. Two runs sharing a folder delete and overwrite each other's evidence
 * (each clears the last run's results before it starts), so `run`/`certify`/`merge` take `<reports>/.ftf-run.lock`
 * first: created exclusively (O_EXCL), holding the owner's pid, command and start time. A second run meets it
 * and stops with FTF_E_REPORTS_LOCKED naming the other run's pid. A lock whose pid is gone is stale (a run
 * killed by SIGKILL, a crash): it is taken over, and the caller is told, so that the dead run's files, which no
 * leak scan has examined, are removed with the rest of the previous run's. A run that builds the Allure HTML in
 * the background hands the lock to that child (`handOver`), which releases it when the HTML is done.
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { FtfError } from '../../../shared/errors.js';
import { processAlive } from '../../../shared/process-alive.js';

export const LOCK_FILE = '.ftf-run.lock';

interface LockData {
  pid: number;
  command: string;
  startedAt: string;
}

export interface ReportsLock {
  file: string;
  /** The previous holder when its lock was stale (its pid is gone): its files were never leak-scanned. */
  stale?: LockData;
  /** Gives the lock to another live process (the background Allure build); release() then does nothing. */
  handOver(pid: number): void;
  release(): void;
}


function readLock(file: string): LockData | undefined {
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockData>;
    return typeof data.pid === 'number' ? { pid: data.pid, command: String(data.command ?? '?'), startedAt: String(data.startedAt ?? '?') } : undefined;
  } catch {
    return undefined;
  }
}

/** Takes the lock of `root` for `command`, or throws FTF_E_REPORTS_LOCKED while another live run holds it. */
export function lockReports(root: string, command: string): ReportsLock {
  mkdirSync(root, { recursive: true });
  const file = join(root, LOCK_FILE);
  const mine: LockData = { pid: process.pid, command, startedAt: new Date().toISOString() };
  let stale: LockData | undefined;
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o644);
      try {
        writeSync(fd, JSON.stringify(mine));
      } finally {
        closeSync(fd);
      }
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 3) throw e;
    }
    const other = readLock(file);
    if (other && other.pid !== process.pid && processAlive(other.pid)) {
      throw new FtfError('FTF_E_REPORTS_LOCKED', `the reports folder ${root} is in use by another run (pid ${other.pid}, \`${other.command}\`, started ${other.startedAt})`, {
        hint: 'wait for that run to end, or give this run its own folder (FTF_REPORTS_DIR=…); a lock whose process is gone is taken over automatically',
        location: { file },
      });
    }
    // The holder is gone (or the file is unreadable, e.g. a half-written lock of a killed run): stale. Our own
    // pid: an earlier run in this same process (tests, selftest), already ended.
    if (other?.pid !== process.pid) stale ??= other ?? { pid: 0, command: '?', startedAt: '?' };
    rmSync(file, { force: true });
  }
  let owner = process.pid;
  const release = (): void => {
    process.removeListener('exit', release);
    if (owner !== process.pid) return;
    // Only our own lock: never one another run took over after ours went stale.
    if (readLock(file)?.pid === process.pid) rmSync(file, { force: true });
  };
  process.once('exit', release);
  return {
    file,
    ...(stale ? { stale } : {}),
    handOver(pid) {
      owner = pid;
      process.removeListener('exit', release);
      writeFileSync(file, JSON.stringify({ ...mine, pid, command: `${command} (Allure HTML in the background)` }));
    },
    release,
  };
}

/** For the process the lock was handed to: removes it when it names this process. */
export function releaseHandedLock(root: string): void {
  const file = join(root, LOCK_FILE);
  if (readLock(file)?.pid === process.pid) rmSync(file, { force: true });
}

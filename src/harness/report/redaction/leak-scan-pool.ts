/**
 * The leak scan on two cores. The scan is the last step before a run's verdict and, by then, the machine is
 * otherwise idle: a worker thread, started before the run so that its module loading overlaps Playwright,
 * scans about half of the bytes while this thread scans the rest with the same scanner (leak-scan.ts). The
 * result is the same hit list as one `scanForLeaks` over all files. If the thread cannot start or fails, its
 * share is scanned here: the pool may make the scan faster, never absent.
 */
import { availableParallelism } from 'node:os';
import { statSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { scanForLeaks, type LeakHit, type LeakScanOptions } from './leak-scan.js';
import type { ScanReply, ScanRequest } from './leak-scan-thread.js';

export interface LeakScanner {
  scan(files: string[], options: LeakScanOptions): Promise<LeakHit[]>;
  /** How many files the thread scanned and answered for (0: all were scanned on this thread). */
  readonly threadFiles: number;
  /** Ends the thread (idempotent); a scanner is used for one scan. */
  close(): Promise<void>;
}

/** Below this scan cost (about bytes, costOf) a second thread costs more than it saves: all files are scanned here. */
const SPLIT_FROM_COST = 1024 * 1024;

/** Scans on this thread only: one core, or a thread that could not start. */
export const localScanner: LeakScanner = {
  threadFiles: 0,
  scan: async (files, options) => scanForLeaks(files, options),
  close: async () => {},
};

/**
 * Starts the scan thread now (call before the run, close after the scan). In the repository the thread loads
 * the TypeScript sources through tsx like the CLI itself (bin/ftf-conformance.mjs); in the installed package
 * it loads the compiled JavaScript beside this file.
 */
export function startLeakScanner(): LeakScanner {
  if (availableParallelism() < 2) return localScanner;
  let worker: Worker;
  try {
    const fromSources = import.meta.url.endsWith('.ts');
    const entry = new URL(`./leak-scan-thread.${fromSources ? 'ts' : 'js'}`, import.meta.url).href;
    const tsx = fromSources ? import.meta.resolve('tsx/esm/api') : undefined;
    const boot = `(async () => { const d = require('node:worker_threads').workerData; if (d.tsx) (await import(d.tsx)).register(); await import(d.entry); })();`;
    worker = new Worker(boot, { eval: true, workerData: { entry, tsx }, stdout: true, stderr: true });
  } catch {
    return localScanner;
  }
  // Never keeps the CLI alive; a thread that dies before its share is asked for only means a local scan.
  worker.unref();
  // Set once the thread can no longer answer (an error, its exit, close()): its share is then scanned here.
  let gone = false;
  worker.on('error', () => (gone = true));
  worker.on('exit', () => (gone = true));
  let threadFiles = 0;
  return {
    get threadFiles() {
      return threadFiles;
    },
    async scan(files, options) {
      const [here, there] = splitByCost(files);
      if (there.length === 0 || gone) return scanForLeaks(files, options);
      const remote = new Promise<LeakHit[]>((resolve, reject) => {
        const onMessage = (reply: ScanReply) => ('hits' in reply ? resolve(reply.hits) : reject(new Error(reply.error)));
        worker.once('message', onMessage);
        worker.once('error', reject);
        worker.once('exit', () => reject(new Error('the leak-scan thread exited')));
        const request: ScanRequest = { ...options, files: there, digests: options.digests.toJSON() };
        worker.postMessage(request);
      });
      // The thread's rejection is handled below; until then it must not count as unhandled.
      remote.catch(() => {});
      const local = scanForLeaks(here, options);
      const far = await remote.then(
        (hits) => ((threadFiles += there.length), hits),
        () => scanForLeaks(there, options),
      );
      return [...local, ...far].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
    },
    async close() {
      gone = true;
      await worker.terminate();
    },
  };
}

/**
 * A compressed file costs about eight times its size to scan (inflated, then its base64 payloads decoded):
 * the Playwright HTML report's index.html embeds its data as a zip.
 */
const costOf = (file: string): number => sizeOf(file) * (/\.(html|zip)$/i.test(file) ? 8 : 1);

/** Two shares of about equal cost (dearest first, each to the cheaper share); none for the thread when small. */
function splitByCost(files: string[]): [string[], string[]] {
  const costed = files.map((file) => ({ file, cost: costOf(file) })).sort((a, b) => b.cost - a.cost);
  if (costed.reduce((sum, f) => sum + f.cost, 0) < SPLIT_FROM_COST) return [files, []];
  const shares: [string[], string[]] = [[], []];
  const totals = [0, 0];
  for (const f of costed) {
    const i = (totals[0] as number) <= (totals[1] as number) ? 0 : 1;
    shares[i]?.push(f.file);
    totals[i] = (totals[i] as number) + f.cost;
  }
  return shares;
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

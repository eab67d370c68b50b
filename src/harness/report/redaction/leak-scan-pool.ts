/**
 * The leak scan on two cores. The scan is the last step before a run's verdict and, by then, the machine is
 * otherwise idle: for a large scan a worker thread scans about half of the bytes while this thread scans the
 * rest with the same scanner (leak-scan.ts). The result is the same hit list as one `scanForLeaks` over all
 * files. If the thread cannot start or fails, its share is scanned here: the pool may make the scan faster,
 * never absent.
 *
 * The thread starts when a scan is large enough to pay for it, not before the run: loading the scanner's
 * modules in a thread (through tsx in the repository) cost about 1 s of CPU, against 0.45 s to scan all of a
 * one-scenario run's reports (0.8 MB, the HTML report's zip included) here (2026-11-28, a one-scenario `run`
 * measured with and without a pre-started thread: 0.7-1.2 s of CPU saved per run; the self-tests start the CLI
 * hundreds of times on CI's two cores).
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
  /** Whether a scan was large enough to start the thread. */
  readonly threadStarted: boolean;
  /** Ends the thread (idempotent); a scanner is used for one scan. */
  close(): Promise<void>;
}

/**
 * Below this scan cost (about bytes, costOf) a second thread costs more than it saves: all files are scanned here.
 * One idle core scans about 28 MB a second (docs/performance.md: a full run's 19 MB in ~690 ms; 5-7 MB/s on a
 * loaded machine), so the thread takes over a share of half a second or more, against about 1 s of CPU (0.3-0.5 s
 * of wall time) to load it.
 */
export const SPLIT_FROM_COST = 32 * 1024 * 1024;

/** Scans on this thread only: one core, or a thread that could not start. */
export const localScanner: LeakScanner = {
  threadFiles: 0,
  threadStarted: false,
  scan: async (files, options) => scanForLeaks(files, options),
  close: async () => {},
};

/**
 * A scanner for one scan (close it after the scan). Its thread starts only when the scan is large (SPLIT_FROM_COST).
 * In the repository the thread loads the TypeScript sources through tsx like the CLI itself
 * (bin/ftf-conformance.mjs); in the installed package it loads the compiled JavaScript beside this file.
 */
export function leakScanner(options: { splitFromCost?: number } = {}): LeakScanner {
  const splitFromCost = options.splitFromCost ?? SPLIT_FROM_COST;
  if (availableParallelism() < 2) return localScanner;
  let worker: Worker | undefined;
  // Set once the thread can no longer answer (an error, its exit, close()): its share is then scanned here.
  let gone = false;
  let threadFiles = 0;
  const startThread = (): Worker | undefined => {
    if (worker || gone) return worker;
    try {
      const fromSources = import.meta.url.endsWith('.ts');
      const entry = new URL(`./leak-scan-thread.${fromSources ? 'ts' : 'js'}`, import.meta.url).href;
      const tsx = fromSources ? import.meta.resolve('tsx/esm/api') : undefined;
      const boot = `(async () => { const d = require('node:worker_threads').workerData; if (d.tsx) (await import(d.tsx)).register(); await import(d.entry); })();`;
      worker = new Worker(boot, { eval: true, workerData: { entry, tsx }, stdout: true, stderr: true });
    } catch {
      gone = true;
      return undefined;
    }
    // Never keeps the CLI alive; a thread that dies before its share is asked for only means a local scan.
    worker.unref();
    worker.on('error', () => (gone = true));
    worker.on('exit', () => (gone = true));
    return worker;
  };
  return {
    get threadFiles() {
      return threadFiles;
    },
    get threadStarted() {
      return worker !== undefined;
    },
    async scan(files, options) {
      const [here, there] = splitByCost(files, splitFromCost);
      const thread = there.length === 0 ? undefined : startThread();
      if (!thread || gone) return scanForLeaks(files, options);
      const remote = new Promise<LeakHit[]>((resolve, reject) => {
        const onMessage = (reply: ScanReply) => ('hits' in reply ? resolve(reply.hits) : reject(new Error(reply.error)));
        thread.once('message', onMessage);
        thread.once('error', reject);
        thread.once('exit', () => reject(new Error('the leak-scan thread exited')));
        const request: ScanRequest = { ...options, files: there, digests: options.digests.toJSON() };
        thread.postMessage(request);
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
      await worker?.terminate();
    },
  };
}

/**
 * A compressed file costs about eight times its size to scan (inflated, then its base64 payloads decoded):
 * the Playwright HTML report's index.html embeds its data as a zip.
 */
const costOf = (file: string): number => sizeOf(file) * (/\.(html|zip)$/i.test(file) ? 8 : 1);

/** Two shares of about equal cost (dearest first, each to the cheaper share); none for the thread when small. */
function splitByCost(files: string[], splitFromCost: number): [string[], string[]] {
  const costed = files.map((file) => ({ file, cost: costOf(file) })).sort((a, b) => b.cost - a.cost);
  if (costed.reduce((sum, f) => sum + f.cost, 0) < splitFromCost) return [files, []];
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

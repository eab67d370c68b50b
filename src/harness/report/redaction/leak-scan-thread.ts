/**
 * The second core of the leak scan (leak-scan-pool.ts): a worker thread that runs the one scanner
 * (leak-scan.ts) over the files it is sent and answers with the hits. Nothing else.
 */
import { parentPort } from 'node:worker_threads';
import { scanForLeaks, type LeakHit, type LeakScanOptions } from './leak-scan.js';
import { DigestSet, type SecretDigest } from './secret-digests.js';

/** LeakScanOptions as a message: the digests as data (a DigestSet does not survive structured cloning). */
export interface ScanRequest extends Omit<LeakScanOptions, 'digests'> {
  files: string[];
  digests: SecretDigest[];
}

export type ScanReply = { hits: LeakHit[] } | { error: string };

parentPort?.on('message', (request: ScanRequest) => {
  let reply: ScanReply;
  try {
    const { files, digests, ...options } = request;
    reply = { hits: scanForLeaks(files, { ...options, digests: new DigestSet(digests) }) };
  } catch (e) {
    // The kind of failure only: no message text crosses (the caller scans the files itself instead).
    reply = { error: e instanceof Error ? `${e.name}${(e as { code?: unknown }).code ? ` ${String((e as { code?: unknown }).code)}` : ''}` : 'scan failed' };
  }
  parentPort?.postMessage(reply);
});
// A request posted while this module was still loading waits in the port until the listener above exists.

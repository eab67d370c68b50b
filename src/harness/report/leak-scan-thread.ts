/**
 * The second core of the leak scan (leak-scan-pool.ts): a worker thread that runs the one scanner
 * (leak-scan.ts) over the files it is sent and answers with the hits. Nothing else.
 */
import { parentPort } from 'node:worker_threads';
import { scanForLeaks, type LeakHit } from './leak-scan.js';
import { DigestSet, type SecretDigest } from './secret-digests.js';

export interface ScanRequest {
  files: string[];
  digests: SecretDigest[];
  maxBytes?: number;
}

export type ScanReply = { hits: LeakHit[] } | { error: string };

parentPort?.on('message', (request: ScanRequest) => {
  let reply: ScanReply;
  try {
    reply = { hits: scanForLeaks(request.files, { digests: new DigestSet(request.digests), ...(request.maxBytes !== undefined ? { maxBytes: request.maxBytes } : {}) }) };
  } catch (e) {
    reply = { error: e instanceof Error ? e.message : String(e) };
  }
  parentPort?.postMessage(reply);
});
// A request posted while this module was still loading waits in the port until the listener above exists.

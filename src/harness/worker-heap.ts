/**
 * The old-generation ceiling of Playwright's workers, set through NODE_OPTIONS by the config (the runner forks
 * its workers with its own environment).
 *
 * Why: V8 lets the heap grow to the live data times a factor before its next full collection, and caps that
 * factor by the heap's ceiling: 4 when the ceiling is 2 GiB or more (Node's default here is ~4 GiB), scaling
 * down to 1.3 at 256 MiB. A worker's live data is ~60-75 MiB whatever the stream size (bounded recording), yet
 * under the default the same 1M-event walk peaked anywhere from 250 to 334 MiB RSS, depending on when a busy
 * machine let V8 collect. At 1 GiB the factor is at most ~1.6: the peak follows the live data (~220-230 MiB,
 * with two busy loops on the 2 cores too), the walk takes as long, and a worker can still hold 1 GiB, far above
 * what bounded recording and the 5 MiB body cap leave it (docs/performance.md, docs/robustness.md).
 *
 * A ceiling the user chose (NODE_OPTIONS, or the runner's own command line, which Node reads after it) wins.
 */
export const WORKER_OLD_SPACE_MIB = 1024;

const CEILING_FLAG = /(^|\s)--max[-_]old[-_]space[-_]size=/;

/** NODE_OPTIONS for the workers: `current` plus the ceiling, unless `current` already sets one. */
export function workerNodeOptions(current: string | undefined): string {
  const options = (current ?? '').trim();
  if (CEILING_FLAG.test(options)) return options;
  return [options, `--max-old-space-size=${WORKER_OLD_SPACE_MIB}`].filter(Boolean).join(' ');
}

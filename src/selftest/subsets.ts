/**
 * Fault selection: all, a named list, or the fixed CI subset. The CI subset keeps `.ci/run` fast while
 * touching every family; the whole matrix runs through `npm run mutation`.
 */
import { FAULTS, type FaultInfo } from '../reference/faults.js';
import { FtfError } from '../shared/errors.js';

/** One or two faults per family, chosen among the subtle ones (a single scenario is the right killer). */
export const CI_SUBSET: readonly string[] = Object.freeze([
  'token-also-under-base-url', 'client-auth-ignored', 'refresh-token-not-rotated',
  'entity-403-as-404', 'event-stream-leaks-entities',
  'idempotency-replay-status-lost', 'idempotency-concurrent-duplicates',
  // The 2 ms windows: only requests released together from the race barrier reach them (issue 13).
  'idempotency-window-2ms', 'checkpoint-cas-window-2ms',
  'checkpoint-cas-not-atomic', 'checkpoint-put-200-on-create',
  'paging-gap', 'fence-exclusive', 'has-next-page-true-at-end', 'total-count-page-only',
  'minimum-boundary-exclusive', 'maximum-not-enforced',
  'issued-at-request-time', 'late-funding-not-moving-date',
  'event-money-as-number', 'validation-detail-string', 'holding-missing-cell-code',
  'unknown-resource-200-null', 'webhook-delete-shape-wrong',
]);

export type Subset = 'all' | 'ci';

export function selectFaults(o: { faults?: readonly string[]; subset?: Subset }): FaultInfo[] {
  if (o.faults && o.faults.length > 0) {
    const unknown = o.faults.filter((n) => !FAULTS.some((f) => f.name === n));
    if (unknown.length > 0) {
      throw new FtfError('FTF_E_UNKNOWN_FAULT', `unknown fault${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`, {
        hint: `known faults: ${FAULTS.map((f) => f.name).join(', ')}`,
      });
    }
    return FAULTS.filter((f) => o.faults?.includes(f.name));
  }
  if (o.subset === 'ci') return FAULTS.filter((f) => CI_SUBSET.includes(f.name));
  return [...FAULTS];
}

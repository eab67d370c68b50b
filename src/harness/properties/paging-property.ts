/**
 * The paging property as one reusable unit (the Playwright spec and the self-tests both run it): snapshot the
 * stream, decide whether the property applies to this target, then run it through the fast-check runner with
 * the case generator for the chosen fence kind.
 */
import type { Exchange } from '../http/types.js';
import type { ResolvedTarget } from '../target/types.js';
import { FtfError } from '../../shared/errors.js';
import { formatRequestLines } from './counterexample.js';
import type { EventsApi } from './events-api.js';
import { describeCase, pagingCaseArbitrary, type CaseBounds } from './generators.js';
import { snapshotLabeller } from './oracle.js';
import { runPagingCase, takeSnapshot, type Snapshot } from './paging-case.js';
import type { RunLog } from './run-log.js';
import { checkProperty, withoutFrames, type PropertySettings } from './runner.js';
import { PROPERTY_ERROR_CODES, PropertyViolation, propertyFailure, type PagingCase } from './types.js';

/** Pad a short stream (when the control API is there) so walks span several pages. */
export const MIN_STREAM = 60;
/** Largest fenced range (in snapshot events) of an event-fence case. */
export const MAX_RANGE = 40;

export interface PagingPropertyOptions {
  title: string;
  fence: CaseBounds['fence'];
  settings: PropertySettings;
  timeLimitMs: number;
  /** Replay command printed after FTF_FC_SEED/FTF_FC_PATH. */
  command: string;
  onFailure?: (text: string, exchanges: readonly Exchange[]) => Promise<void>;
}

export interface PreparedProperty {
  snapshot: Snapshot;
  /** Why the property does not apply to this target (the test is skipped with this reason). */
  skip: string | undefined;
  run(): Promise<{ numRuns: number; numSkips: number; interrupted: boolean }>;
}

export async function preparePagingProperty(api: EventsApi, log: RunLog, target: ResolvedTarget, opts: PagingPropertyOptions): Promise<PreparedProperty> {
  const exchanges = log.begin();
  const bases = { baseUrl: target.baseUrl, authUrl: target.authUrl, controlUrl: target.controlUrl };
  let snapshot: Snapshot;
  try {
    snapshot = await takeSnapshot(api, { minEvents: MIN_STREAM, entities: target.entities.allowed });
  } catch (e) {
    if (!(e instanceof PropertyViolation)) throw e;
    // Before any case is generated: no seed to replay, but the requests that showed it.
    const lines = formatRequestLines(exchanges, bases);
    throw withoutFrames(propertyFailure(
      [`property "${opts.title}" failed while taking the snapshot: ${e.message}`, '  requests (URLs relative to base_url):', ...lines.map((l) => `  ${l}`)].join('\n'), e));
  }
  if (snapshot.events.length < 2 && api.canAppend) {
    // The profile declares the control API and the appends were accepted, yet the stream stayed short:
    // a declared capability that does not work is a failure, not a reason to skip.
    throw withoutFrames(new FtfError(PROPERTY_ERROR_CODES.failed,
      [`property "${opts.title}": the stream holds ${snapshot.events.length} event(s) after appending ${MIN_STREAM} through the sandbox control API (the profile declares clock)`,
        '  requests (URLs relative to base_url):', ...formatRequestLines(exchanges, bases).map((l) => `  ${l}`)].join('\n')));
  }
  const skip = snapshot.events.length < 2
    ? `the stream holds ${snapshot.events.length} event(s) and the target cannot append (no clock/control capability)`
    : opts.fence === 'head' && !snapshot.complete
      ? 'the stream is longer than one page of the default size, so a walk to the head would be unbounded'
      : opts.fence === 'head' && !snapshot.hasEndCursor
        ? 'the target does not return pageInfo.endCursor (optional), so there is no head fence to check'
        : undefined;
  const entities = [...target.entities.allowed, ...(target.entities.forbidden ? [target.entities.forbidden] : [])];
  const bounds: CaseBounds = { streamLength: snapshot.events.length, maxRange: MAX_RANGE, canAppend: api.canAppend, entities, fence: opts.fence };
  return {
    snapshot,
    skip,
    run: () =>
      checkProperty<PagingCase>({
        title: opts.title,
        arbitrary: pagingCaseArbitrary(bounds),
        predicate: (c) => runPagingCase(api, snapshot, c, target.timeouts.maxPages),
        settings: opts.settings,
        log,
        bases,
        describe: (c) => describeCase(c, (i) => snapshot.events[i]?.cursor),
        label: snapshotLabeller(snapshot.events),
        command: opts.command,
        timeLimitMs: opts.timeLimitMs,
        ...(opts.onFailure ? { onFailure: opts.onFailure } : {}),
      }),
  };
}

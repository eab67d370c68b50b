/**
 * Which scenarios change state that other scenarios running at the same time depend on. On a target of
 * its own (the per-worker embedded reference) this does not matter; on a SHARED target (one external
 * server, every worker) such scenarios must run alone: playwright.config.ts puts the ones tagged
 * EXCLUSIVE_TAG in a serial phase after everything else.
 *
 * Derived from the steps (group steps included), never declared by hand, so a new scenario is classified
 * the moment it advances the clock or registers a webhook:
 * - the sandbox clock is global: advancing it expires every token other scenarios hold, passes cut-offs
 *   and issues their subscriptions (a `clock` step, a control request under /clock, `auth: expired`);
 * - a user has ONE webhook URL: two scenarios registering/deregistering as the same user see each
 *   other's URL (POST/DELETE on the webhook path, outside `parallel` probes of malformed bodies).
 * A reset of the sandbox (control /reset) would wipe every concurrent scenario's data: it is refused.
 */
import type { LocatedStep, RequestSpec, Scenario, Step } from './types.js';

export const EXCLUSIVE_TAG = 'exclusive';

export type ExclusiveReason = 'moves the sandbox clock' | "registers the user's webhook";

/** The control-API call that would wipe a shared target; no scenario may send it (test/harness/isolation.test.ts). */
export const RESET_PATH = '/reset';

interface Found {
  reasons: Set<ExclusiveReason>;
  resets: boolean;
}

function visitRequest(spec: RequestSpec | undefined, found: Found, inParallel: boolean): void {
  if (!spec) return;
  if (spec.auth === 'expired') found.reasons.add('moves the sandbox clock');
  if (spec.base === 'control') {
    if (spec.path.startsWith('/clock')) found.reasons.add('moves the sandbox clock');
    if (spec.path.startsWith(RESET_PATH)) found.resets = true;
  }
  const webhook = spec.path === '/webhook' || spec.path.includes('paths.webhook');
  if (webhook && !inParallel && (spec.method === 'POST' || spec.method === 'DELETE')) found.reasons.add("registers the user's webhook");
}

function visitStep(located: LocatedStep, found: Found): void {
  const step: Step = located.step;
  if (located.kind === 'clock') found.reasons.add('moves the sandbox clock');
  if ('request' in step) visitRequest(step.request, found, false);
  if ('poll' in step) visitRequest(step.poll.request, found, false);
  if ('list' in step) visitRequest(step.list.request, found, false);
  if ('paginate' in step) visitRequest(step.paginate.request, found, false);
  if ('repeat' in step) visitRequest(step.repeat.request, found, false);
  if ('parallel' in step) for (const r of [step.parallel.request, ...(step.parallel.branches ?? [])]) visitRequest(r, found, true);
  for (const inner of located.group?.steps ?? []) visitStep(inner, found);
}

export function isolationOf(scenario: Pick<Scenario, 'steps'>): { reasons: ExclusiveReason[]; resets: boolean } {
  const found: Found = { reasons: new Set(), resets: false };
  for (const s of scenario.steps) visitStep(s, found);
  return { reasons: [...found.reasons].sort(), resets: found.resets };
}

/** Reasons the scenario must run alone on a shared target (empty = it may run beside anything). */
export function exclusiveReasons(scenario: Pick<Scenario, 'steps'>): ExclusiveReason[] {
  return isolationOf(scenario).reasons;
}

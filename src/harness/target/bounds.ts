/**
 * The nesting of every bound of a run, from the profile's `timeouts` only (pure: no I/O, no clock):
 *
 *   request (R)  <  step (poll P, repeat deadline_ms, paginate / parallel / wait: what is left of S)  <  scenario (S)
 *   <  Playwright's test timeout (S + grace)  <  run (globalTimeout)
 *
 * The engine stops a scenario at S with an error naming the exchange or the YAML step that ran out
 * (engine/run.ts); Playwright's own test timeout sits `grace` above it so it never fires first, and the run
 * bound is the per-test bound times the rounds of tests per worker. Self-tests size their limits from the
 * same functions instead of guessing wall-clock numbers.
 */
import { TIMEOUT_DEFAULTS } from './defaults.js';
import type { ProfileIssue } from './validate.js';

export interface Timeouts {
  requestMs: number;
  pollIntervalMs: number;
  pollDeadlineMs: number;
  scenarioMs: number;
  maxPages: number;
  /** Pages one walk of a paged list may read (engine/paging.ts); at most maxPages. */
  maxListPages: number;
}

/**
 * Credentials are not cut by the scenario's deadline: a code-grant refresh + consent + code exchange is up
 * to 3 R (docs/robustness.md). One more R for the exchange they serve.
 */
export const CREDENTIAL_REQUESTS = 3;
const REQUESTS_PER_SCENARIO = CREDENTIAL_REQUESTS + 1;

/**
 * How far past S a scenario may still be running when the engine notices its deadline (credentials in
 * flight), plus a tenth of S for clean-ups, attachments and a loaded machine's scheduling. Scales with the
 * profile, so a slow target's profile gets proportionally more room and no fixed number is guessed.
 */
export function graceMs(t: Pick<Timeouts, 'requestMs' | 'scenarioMs'>): number {
  return CREDENTIAL_REQUESTS * t.requestMs + Math.ceil(t.scenarioMs / 10);
}

/** Playwright's per-test timeout (fixtures included): the engine's scenario bound fires before it. */
export function testTimeoutMs(t: Pick<Timeouts, 'requestMs' | 'scenarioMs'>): number {
  return t.scenarioMs + graceMs(t);
}

/** Playwright's worker count for a run: FTF_WORKERS (the CLI's --workers travels as it), else 2. */
export function configuredWorkers(env: NodeJS.ProcessEnv = process.env): number {
  return Number(env.FTF_WORKERS ?? 2);
}

/**
 * The run bound (Playwright globalTimeout): every test of a worker back to back at its own bound, plus one
 * grace per test for a worker restart (Playwright replaces a worker after each failure) and one test bound
 * for starting the run (workers, embedded server). `serial` of the tests run one at a time (the @exclusive
 * phase against a shared target), not spread over the workers.
 */
export function runTimeoutMs(t: Pick<Timeouts, 'requestMs' | 'scenarioMs'>, tests: number, workers: number, serial = 0): number {
  const parallel = Math.max(0, tests - serial);
  const rounds = Math.max(1, Math.ceil(parallel / Math.max(1, workers)) + serial);
  return rounds * (testTimeoutMs(t) + graceMs(t)) + testTimeoutMs(t);
}

/** What a step may still spend: its own bound cut to what the scenario has left. */
export function stepBudgetMs(ownMs: number, scenarioLeftMs: number): number {
  return Math.max(0, Math.min(ownMs, scenarioLeftMs));
}

type Field = 'request_ms' | 'poll_interval_ms' | 'poll_deadline_ms' | 'scenario_ms' | 'max_pages' | 'max_list_pages';

export interface BoundProblem {
  /** The field reported: the one the profile wrote (a default cannot be at fault alone). */
  field: Field;
  message: string;
  hint: string;
}

/**
 * Combinations that cannot nest. Refused (not clamped): a profile that promises a bound the harness cannot
 * keep would otherwise end scenarios at a different number than the one its author wrote.
 * `written` lists the timeout fields present in the profile (the others are defaults).
 */
export function boundProblems(t: Timeouts, written: ReadonlySet<string>): BoundProblem[] {
  const pick = (preferred: Field, other: Field): Field => (written.has(preferred) || !written.has(other) ? preferred : other);
  const problems: BoundProblem[] = [];
  if (REQUESTS_PER_SCENARIO * t.requestMs > t.scenarioMs) {
    problems.push({
      field: pick('request_ms', 'scenario_ms'),
      message: `timeouts: request_ms ${t.requestMs} × ${REQUESTS_PER_SCENARIO} (credentials + one exchange) exceeds scenario_ms ${t.scenarioMs}: a scenario could not finish one authenticated request`,
      hint: `raise scenario_ms to at least ${REQUESTS_PER_SCENARIO * t.requestMs} or lower request_ms`,
    });
  }
  if (t.pollDeadlineMs + t.requestMs > t.scenarioMs) {
    problems.push({
      field: pick('poll_deadline_ms', 'scenario_ms'),
      message: `timeouts: poll_deadline_ms ${t.pollDeadlineMs} + request_ms ${t.requestMs} exceeds scenario_ms ${t.scenarioMs}: a poll step would outlive its scenario`,
      hint: `raise scenario_ms to at least ${t.pollDeadlineMs + t.requestMs} or lower poll_deadline_ms`,
    });
  }
  if (t.pollIntervalMs >= t.pollDeadlineMs) {
    problems.push({
      field: pick('poll_interval_ms', 'poll_deadline_ms'),
      message: `timeouts: poll_interval_ms ${t.pollIntervalMs} is not below poll_deadline_ms ${t.pollDeadlineMs}: a poll step could not try twice`,
      hint: 'lower poll_interval_ms or raise poll_deadline_ms',
    });
  }
  if (t.maxListPages > t.maxPages) {
    problems.push({
      field: pick('max_list_pages', 'max_pages'),
      message: `timeouts: max_list_pages ${t.maxListPages} exceeds max_pages ${t.maxPages}: a walk of a paged list would read more pages than any walk may`,
      hint: `lower max_list_pages to at most ${t.maxPages} or raise max_pages`,
    });
  }
  return problems;
}

/** boundProblems as profile issues at the line/column of the field at fault (one call from the loader). */
export function boundIssues(t: Timeouts, written: ReadonlySet<string>, locate: (field: string) => { line: number; column: number }): ProfileIssue[] {
  return boundProblems(t, written).map((p) => ({ field: `timeouts.${p.field}`, message: p.message, hint: p.hint, ...locate(p.field) }));
}

/** The `timeouts` a profile wrote (snake_case, any subset), with the defaults filled in. */
export function timeoutsOf(t: { request_ms?: number; poll_interval_ms?: number; poll_deadline_ms?: number; scenario_ms?: number; max_pages?: number; max_list_pages?: number } = {}): Timeouts {
  return {
    requestMs: t.request_ms ?? TIMEOUT_DEFAULTS.requestMs,
    pollIntervalMs: t.poll_interval_ms ?? TIMEOUT_DEFAULTS.pollIntervalMs,
    pollDeadlineMs: t.poll_deadline_ms ?? TIMEOUT_DEFAULTS.pollDeadlineMs,
    scenarioMs: t.scenario_ms ?? TIMEOUT_DEFAULTS.scenarioMs,
    maxPages: t.max_pages ?? TIMEOUT_DEFAULTS.maxPages,
    maxListPages: t.max_list_pages ?? Math.min(TIMEOUT_DEFAULTS.maxListPages, t.max_pages ?? TIMEOUT_DEFAULTS.maxPages),
  };
}

/** The target's own timing (profile `timing`, snake_case), with the default leeway. */
export interface Timing {
  /** Upper bound on expires_in of the `short_lived` credential's tokens (absent: no such test client). */
  shortLivedTokenMaxS?: number;
  /** How long after expires_in the target may still accept a token. */
  expiryLeewayS: number;
  /** Upper bound on how long a uid of the `rotating_uid` indication stays current (absent: no such test product). */
  uidRotationMaxS?: number;
  /** How long a clock-less form watches a new subscription for an issuance that must not come (States rule 2). */
  issuanceWatchS: number;
}

export const ISSUANCE_WATCH_DEFAULT_S = 10;

export const EXPIRY_LEEWAY_DEFAULT_S = 2;

/** The margin a clock-less form waits beyond a declared bound (uid rotation): one second. */
export const ROTATION_MARGIN_S = 1;

export function timingOf(t: { short_lived_token_max_s?: number; expiry_leeway_s?: number; uid_rotation_max_s?: number; issuance_watch_s?: number } = {}): Timing {
  return {
    issuanceWatchS: t.issuance_watch_s ?? ISSUANCE_WATCH_DEFAULT_S,
    ...(t.short_lived_token_max_s !== undefined ? { shortLivedTokenMaxS: t.short_lived_token_max_s } : {}),
    expiryLeewayS: t.expiry_leeway_s ?? EXPIRY_LEEWAY_DEFAULT_S,
    ...(t.uid_rotation_max_s !== undefined ? { uidRotationMaxS: t.uid_rotation_max_s } : {}),
  };
}

/**
 * Real-time waits nest in the scenario too: token.expiry-realtime waits the short-lived token's lifetime plus
 * the leeway, amounts.indication-uid-rotated waits the uid rotation bound plus ROTATION_MARGIN_S, each besides
 * its own exchanges, so that wait plus REQUESTS_PER_SCENARIO exchanges must fit scenario_ms.
 */
export function timingProblems(timing: Timing, t: Timeouts): Array<{ field: 'short_lived_token_max_s' | 'uid_rotation_max_s' | 'issuance_watch_s'; message: string; hint: string }> {
  const problems: Array<{ field: 'short_lived_token_max_s' | 'uid_rotation_max_s' | 'issuance_watch_s'; message: string; hint: string }> = [];
  const exchanges = REQUESTS_PER_SCENARIO * t.requestMs;
  if (timing.shortLivedTokenMaxS !== undefined) {
    const need = (timing.shortLivedTokenMaxS + timing.expiryLeewayS) * 1000 + exchanges;
    if (need > t.scenarioMs) {
      problems.push({
        field: 'short_lived_token_max_s',
        message: `timing: waiting short_lived_token_max_s ${timing.shortLivedTokenMaxS} s + expiry_leeway_s ${timing.expiryLeewayS} s plus ${REQUESTS_PER_SCENARIO} × request_ms ${t.requestMs} exceeds scenario_ms ${t.scenarioMs}: the real-time expiry wait would outlive its scenario`,
        hint: `raise timeouts.scenario_ms to at least ${need} or use a test client with shorter-lived tokens`,
      });
    }
  }
  if (timing.uidRotationMaxS !== undefined) {
    const need = (timing.uidRotationMaxS + ROTATION_MARGIN_S) * 1000 + exchanges;
    if (need > t.scenarioMs) {
      problems.push({
        field: 'uid_rotation_max_s',
        message: `timing: waiting uid_rotation_max_s ${timing.uidRotationMaxS} s + ${ROTATION_MARGIN_S} s plus ${REQUESTS_PER_SCENARIO} × request_ms ${t.requestMs} exceeds scenario_ms ${t.scenarioMs}: the real-time rotation wait would outlive its scenario`,
        hint: `raise timeouts.scenario_ms to at least ${need} or name a test product whose uid rotates sooner`,
      });
    }
  }
  const watch = timing.issuanceWatchS * 1000 + exchanges;
  if (watch > t.scenarioMs) {
    problems.push({
      field: 'issuance_watch_s',
      message: `timing: watching issuance_watch_s ${timing.issuanceWatchS} s plus ${REQUESTS_PER_SCENARIO} × request_ms ${t.requestMs} exceeds scenario_ms ${t.scenarioMs}: the real-time watch for an early issuance would outlive its scenario`,
      hint: `raise timeouts.scenario_ms to at least ${watch} or lower timing.issuance_watch_s`,
    });
  }
  return problems;
}

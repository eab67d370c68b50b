/**
 * Counts of the run's Playwright tests, from their outcome records (one per test, scenario-results.ts
 * testResults), beside the scenario verdicts: against the embedded reference every scenario runs once per
 * project (sandbox and production), so tests and scenarios differ and the console summary reconciles them.
 * Skip reasons are counted per environment (a project's name is its environment; an external target's single
 * project has none, so the profile's environment names it).
 */
import type { OutcomeStatus } from './outcome.js';
import type { ScenarioResult } from './scenario-results.js';

/** Test counts by outcome status (`waived` counts under passed: the record of a waived test says it ran). */
export interface TestCounts {
  total: number;
  passed: number;
  failed: number;
  errored: number;
  skipped: number;
  'not-applicable': number;
}

export interface SkipReason {
  reason: string;
  count: number;
  /** Environment -> how many of `count` were there (ordered as the environments are). */
  environments: Record<string, number>;
  /** True for not-applicable records (the scenario does not apply to the target), false for skips. */
  notApplicable: boolean;
}

export interface EnvironmentTally extends TestCounts {
  /** The Playwright project(s) of this environment ('' for an external target's single project). */
  projects: string[];
  skipReasons: { reason: string; count: number; notApplicable: boolean }[];
}

export interface TestTally extends TestCounts {
  /** Distinct scenario ids among the tests (what the verdict counts). */
  scenarios: number;
  environments: Record<string, EnvironmentTally>;
  /** Every skip / not-applicable reason with its count, most frequent first. */
  skipReasons: SkipReason[];
}

const STATUS_KEY: Record<OutcomeStatus, keyof Omit<TestCounts, 'total'>> = {
  passed: 'passed',
  waived: 'passed',
  failed: 'failed',
  errored: 'errored',
  skipped: 'skipped',
  'not-applicable': 'not-applicable',
};

const zero = (): TestCounts => ({ total: 0, passed: 0, failed: 0, errored: 0, skipped: 0, 'not-applicable': 0 });

/** `defaultEnvironment` names the tests of a project without a name (an external target: its profile's environment). */
export function tallyTests(tests: readonly ScenarioResult[], defaultEnvironment: string): TestTally {
  const tally: TestTally = { ...zero(), scenarios: new Set(tests.map((t) => t.id)).size, environments: {}, skipReasons: [] };
  const reasons = new Map<string, SkipReason>();
  for (const t of tests) {
    const env = t.project || defaultEnvironment;
    const e = (tally.environments[env] ??= { ...zero(), projects: [], skipReasons: [] });
    if (!e.projects.includes(t.project)) e.projects.push(t.project);
    const key = STATUS_KEY[t.record.status];
    tally.total++;
    tally[key]++;
    e.total++;
    e[key]++;
    if (key !== 'skipped' && key !== 'not-applicable') continue;
    const reason = t.record.reason ?? key;
    const id = `${key}\u0000${reason}`;
    const r = reasons.get(id) ?? { reason, count: 0, environments: {}, notApplicable: key === 'not-applicable' };
    r.count++;
    r.environments[env] = (r.environments[env] ?? 0) + 1;
    reasons.set(id, r);
  }
  tally.skipReasons = [...reasons.values()].sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason));
  for (const [env, e] of Object.entries(tally.environments)) {
    e.skipReasons = tally.skipReasons
      .filter((r) => r.environments[env] !== undefined)
      .map((r) => ({ reason: r.reason, count: r.environments[env]!, notApplicable: r.notApplicable }))
      .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason));
  }
  return tally;
}

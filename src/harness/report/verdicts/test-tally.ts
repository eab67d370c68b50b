/**
 * Counts of the run's Playwright tests, each judged like a scenario from its own outcome record
 * (scenario-results.ts testResults, verdicts.ts scenarioOutcome), beside the scenario verdicts: against the embedded reference a scenario runs in
 * sandbox and, for the production project's share, in production too, so tests and scenarios differ and the console summary reconciles them.
 * Skip reasons are counted per environment (a project's name is its environment; an external target's single
 * project has none, so the profile's environment names it). The production project runs only some scenarios
 * (scenario/environment.ts): each environment names the scenarios it has no test of, and why (`notRun`).
 */
import type { ScenarioVerdict } from './verdicts.js';

/** One Playwright test: its scenario, project and the verdict of its own record. */
export interface TestVerdict {
  id: string;
  project: string;
  verdict: ScenarioVerdict;
  reason?: string;
}

/** Test counts by verdict (waivers apply to scenarios, not tests: a waived verdict counts as passed here). */
export interface TestCounts {
  total: number;
  passed: number;
  failed: number;
  warning: number;
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
  /**
   * Scenarios of the run with no test in this environment (neither run nor skipped there, so in no count of it),
   * and why: the production project runs only the scenarios scenario/environment.ts picks. Absent when none.
   */
  notRun?: { scenarios: string[]; reason: string };
}

export interface TestTally extends TestCounts {
  /** Distinct scenario ids among the tests (what the verdict counts). */
  scenarios: number;
  environments: Record<string, EnvironmentTally>;
  /** Every skip / not-applicable reason with its count, most frequent first. */
  skipReasons: SkipReason[];
}

const KEY: Record<ScenarioVerdict, keyof Omit<TestCounts, 'total'>> = {
  passed: 'passed',
  waived: 'passed',
  failed: 'failed',
  warning: 'warning',
  errored: 'errored',
  skipped: 'skipped',
  'not-applicable': 'not-applicable',
};

const zero = (): TestCounts => ({ total: 0, passed: 0, failed: 0, warning: 0, errored: 0, skipped: 0, 'not-applicable': 0 });

/** Why a project has no test of some scenarios, for the projects trimmed by a rule (project name -> reason). */
export type ProjectScopes = Readonly<Record<string, string>>;

/** Said of a scenario missing from an environment that no rule trims (it should not happen: a test was lost). */
export const NO_TEST_REASON = 'no test in this environment';

/**
 * `defaultEnvironment` names the tests of a project without a name (an external target: its profile's environment).
 * `scopes`: the projects that run a share of the scenarios by rule (playwright.config.ts metadata `scope`).
 */
export function tallyTests(tests: readonly TestVerdict[], defaultEnvironment: string, scopes: ProjectScopes = {}): TestTally {
  const tally: TestTally = { ...zero(), scenarios: new Set(tests.map((t) => t.id)).size, environments: {}, skipReasons: [] };
  const reasons = new Map<string, SkipReason>();
  for (const t of tests) {
    const env = t.project || defaultEnvironment;
    const e = (tally.environments[env] ??= { ...zero(), projects: [], skipReasons: [] });
    if (!e.projects.includes(t.project)) e.projects.push(t.project);
    const key = KEY[t.verdict];
    tally.total++;
    tally[key]++;
    e.total++;
    e[key]++;
    if (key !== 'skipped' && key !== 'not-applicable') continue;
    const reason = t.reason ?? key;
    const id = `${key}\u0000${reason}`;
    const r = reasons.get(id) ?? { reason, count: 0, environments: {}, notApplicable: key === 'not-applicable' };
    r.count++;
    r.environments[env] = (r.environments[env] ?? 0) + 1;
    reasons.set(id, r);
  }
  tally.skipReasons = [...reasons.values()].sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason));
  const envs = Object.keys(tally.environments);
  const ids = [...new Set(tests.map((t) => t.id))];
  for (const env of envs.length > 1 ? envs : []) {
    const here = new Set(tests.filter((t) => (t.project || defaultEnvironment) === env).map((t) => t.id));
    const missing = ids.filter((id) => !here.has(id)).sort();
    const e = tally.environments[env]!;
    if (missing.length) e.notRun = { scenarios: missing, reason: e.projects.map((p) => scopes[p]).find((r) => r !== undefined) ?? NO_TEST_REASON };
  }
  for (const [env, e] of Object.entries(tally.environments)) {
    e.skipReasons = tally.skipReasons
      .filter((r) => r.environments[env] !== undefined)
      .map((r) => ({ reason: r.reason, count: r.environments[env]!, notApplicable: r.notApplicable }))
      .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason));
  }
  return tally;
}

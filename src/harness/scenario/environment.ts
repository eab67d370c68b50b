/**
 * Which scenarios the embedded reference's `production` project runs (playwright.config.ts): the ones whose run
 * there can say something the sandbox run does not. The rule is data-driven (the clause catalogue, the
 * scenario's `needs`, `clockless_form` and `tags`) and lives here only; docs/target-profiles.md states it.
 *
 * A scenario (or property test) runs in the production project when at least one holds:
 * 1. it covers a clause that names an environment: the clause's `needs` include `sandbox`/`production`, or its
 *    wording names one (AUTH-API-KEY: "In a sandbox an API key is accepted…; production requires OAuth");
 * 2. its needs include `sandbox` or `production` (token.api-key is skipped there, token.api-key-production runs);
 * 3. its needs include `mutation`: the production guard (target/guard.ts) skips it there, with its reason, so
 *    every mutating scenario shows the guard at the cost of a skip;
 * 4. it has a clock-less form: production has no control API, so the form runs in its place there;
 * 5. it declares it: the tag `production` in its YAML.
 * Every other scenario runs in the sandbox project only: read-only checks whose requests, checks and outcome
 * are the same in both modes. The reports count those per environment (report/verdicts/test-tally.ts `notRun`).
 * Against an EXTERNAL target nothing is trimmed: it is one project running the whole selection.
 */
import type { Clause } from '../spec/clauses.js';
import type { Capability } from '../target/types.js';

/** The Playwright tag (`@production`) of the tests the production project runs; a scenario may declare it too. */
export const PRODUCTION_TAG = 'production';

/** The project metadata key whose value PRODUCTION_TAG marks a project trimmed by this rule (playwright.config.ts). */
export const SCOPE_METADATA = 'scope';

/** The rule in one sentence: the reason reports give for a scenario without a test in the production project. */
export const SANDBOX_ONLY_REASON =
  'their clauses do not differ by environment (rule: the production project runs the scenarios that cover a clause naming an environment, need sandbox, production or mutation, have a clock-less form, or are tagged production; src/harness/scenario/environment.ts)';

const ENVIRONMENTS: readonly Capability[] = ['sandbox', 'production'];
const NAMES_ENVIRONMENT = /\b(sandbox|production)\b/i;

/** True when the clause's behaviour is stated per environment: its needs or its wording name one. */
export function namesEnvironment(clause: Pick<Clause, 'says' | 'needs'>): boolean {
  return clause.needs.some((n) => ENVIRONMENTS.includes(n)) || NAMES_ENVIRONMENT.test(clause.says);
}

/** What the rule reads of a scenario (a property test has needs and tags only). */
export interface EnvironmentSubject {
  needs: readonly Capability[];
  /** Tags, with or without the leading @. */
  tags: readonly string[];
  /** The covered clauses that name an environment (scenario/load.ts, with namesEnvironment). */
  environmentClauses?: readonly string[];
  clocklessForm?: string;
}

/** Why the production project runs it (empty = sandbox only). */
export function productionReasons(s: EnvironmentSubject): string[] {
  const reasons: string[] = [];
  if (s.environmentClauses?.length) reasons.push(`covers ${s.environmentClauses.join(', ')}, which names an environment`);
  const envNeeds = s.needs.filter((n) => ENVIRONMENTS.includes(n));
  if (envNeeds.length) reasons.push(`needs ${envNeeds.join(', ')}`);
  if (s.needs.includes('mutation')) reasons.push('needs mutation: the production guard decides it there');
  if (s.clocklessForm !== undefined) reasons.push(`its clock-less form ${s.clocklessForm} runs there (no control API)`);
  if (s.tags.some((t) => t.replace(/^@/, '') === PRODUCTION_TAG)) reasons.push(`tagged ${PRODUCTION_TAG}`);
  return reasons;
}

/** The project grep that keeps the tests tagged @production (Playwright matches titles with the tags appended). */
export const PRODUCTION_GREP = new RegExp(`(?:^|\\s)@${PRODUCTION_TAG}(?=\\s|$)`);

/** Why a project has no test of the scenarios it leaves out, read from its metadata (undefined: it runs them all). */
export function projectScopeReason(metadata: unknown): string | undefined {
  const scope = (metadata as Record<string, unknown> | undefined)?.[SCOPE_METADATA];
  return scope === PRODUCTION_TAG ? SANDBOX_ONLY_REASON : undefined;
}

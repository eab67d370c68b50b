/**
 * The profile roles a scenario uses: every `target.<table>.<role>` its steps, step groups and vars name
 * (indications.primary, entities.allowed, entities.forbidden, credentials.*). A profile that does not declare a role the
 * scenario needs makes the scenario not runnable there: it is skipped with the role named, never failed
 * (a correct server cannot answer for a product the profile did not name). A role only compared with null
 * (`target.indications.fixed != null ? ... : ...`) is optional: the scenario copes without it.
 * Derived from the text, like `needs:` from the covered clauses, so a new role slots in without a table.
 */
import type { Scenario } from './types.js';

/**
 * Tables of the target view (engine/target-view.ts) whose entries a profile may leave out. Paths, fields
 * (and record pointers) always have a value, the reference server's choice by default: `doctor` checks
 * that they answer on the target instead.
 */
const ROLE_TABLES = ['indications', 'entities', 'credentials'] as const;
const REF = new RegExp(`\\btarget\\.(${ROLE_TABLES.join('|')})\\.([A-Za-z_][A-Za-z0-9_]*)`, 'g');
const GUARD = new RegExp(`\\btarget\\.(${ROLE_TABLES.join('|')})\\.([A-Za-z_][A-Za-z0-9_]*)\\s*[!=]==?\\s*null`, 'g');

/** Credentials named directly by a request's `auth:` (also `{basic|form: name}`) or an `authorize` step. */
const AUTH_NAME = /"(?:auth|basic|form|credential)":"([a-z][a-z0-9_-]*)"/g;
/** auth modes of the client (auth/types.ts SpecialAuth), not credentials; `primary` is required by the schema. */
const NOT_ROLES = new Set(['none', 'invalid', 'expired', 'basic-only', 'api-key-probe', 'primary']);

/** `table.role` names the scenario cannot run without, sorted. */
export function scenarioRoles(scenario: Pick<Scenario, 'steps' | 'vars'>): string[] {
  const text = JSON.stringify([scenario.vars, scenario.steps]);
  const optional = new Set([...text.matchAll(GUARD)].map((m) => `${m[1]}.${m[2]}`));
  const roles = new Set([...text.matchAll(REF)].map((m) => `${m[1]}.${m[2]}`).filter((r) => !optional.has(r)));
  for (const m of text.matchAll(AUTH_NAME)) if (!NOT_ROLES.has(m[1]!)) roles.add(`credentials.${m[1]}`);
  return [...roles].sort();
}

function declared(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return false;
  return !Array.isArray(value) || value.length > 0;
}

/**
 * Roles of `roles` the target does not declare. `view` is what expressions see as `target` (the target
 * view): a role is missing when its entry is absent, null, empty or an empty list.
 */
export function missingRoles(view: Record<string, unknown>, roles: readonly string[]): string[] {
  return roles.filter((role) => {
    const [table, name] = role.split('.') as [string, string];
    const entries = view[table];
    return entries === null || typeof entries !== 'object' || !declared((entries as Record<string, unknown>)[name]);
  });
}

/** The skip reason a run and `doctor` both show. */
export function missingRolesReason(missing: readonly string[]): string {
  return `needs profile role${missing.length > 1 ? 's' : ''} ${missing.join(', ')}: the target profile does not declare ${missing.length > 1 ? 'them' : 'it'}`;
}

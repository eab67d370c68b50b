/**
 * Optional indication roles a target may not have (profile `indications.<role>: null`). A scenario that
 * names such a role (`target.indications.<role>` anywhere in it) cannot say anything about that target: it
 * is not applicable, and the runner skips it with this reason instead of failing it.
 */
import type { ResolvedTarget } from './types.js';

const ROLE_REFERENCE = /target\.indications\.([a-z][a-z0-9_]*)/g;

/** Roles the scenario (any value inside it, steps and arguments included) refers to. */
export function indicationRolesUsed(scenario: unknown): string[] {
  return [...new Set([...JSON.stringify(scenario ?? null).matchAll(ROLE_REFERENCE)].map((m) => m[1] as string))].sort();
}

/** Why the scenario does not apply to the target, or undefined when every role it names has a product. */
export function absentRoleSkipReason(target: Pick<ResolvedTarget, 'absentIndications'>, scenario: unknown): string | undefined {
  const absent = indicationRolesUsed(scenario).filter((r) => target.absentIndications.includes(r));
  if (absent.length === 0) return undefined;
  return `not applicable: needs an indication product for role ${absent.join(', ')}; the target profile declares none (indications.${absent[0]}: null)`;
}

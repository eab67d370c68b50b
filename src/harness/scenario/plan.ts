/**
 * What a selected scenario does on a target, decided once for every command: `run` (specs/scenario-tests.ts
 * skips or runs what this says), `list` ("runs as …", "skipped on …"), `doctor` (the skips and the coverage a
 * profile will give) and `coverage`. A scenario runs itself, or on a target lacking only clock/funding its
 * clock-less form (`clockless_form`, issue 13), whose own needs then decide; else it is skipped with the reason
 * the run shows. Roles the profile leaves out skip it too (scenario/roles.ts).
 */
import type { PropertyTest } from '../properties/catalogue.js';
import { missingCapabilities } from '../target/capabilities.js';
import type { Capability } from '../target/types.js';
import { CLOCK_CAPABILITIES } from './load.js';
import { missingRoles, missingRolesReason, scenarioRoles } from './roles.js';
import type { Scenario } from './types.js';

/** What a plan needs of the target: its capabilities and, to judge roles, the target view (engine/target-view.ts). */
export interface PlanTarget {
  capabilities: ReadonlySet<Capability>;
  /** What expressions see as `target`; without it roles are not judged (a profile read without its secrets still has it). */
  view?: Record<string, unknown>;
}

export interface ScenarioPlan {
  scenario: Scenario;
  /** The scenario that runs: the scenario itself or its clock-less form. */
  runs: Scenario;
  /** The clock-less form's id when it runs in the scenario's place. */
  via?: string;
  /** Why the test is skipped (the reason the run declares); undefined = it runs. */
  skip?: string;
  /** Capabilities missing (for the reason's kind); empty when only roles are missing or nothing is. */
  missing: string[];
}

/** The form a scenario runs as on `target`, and what it still lacks (capability names, annotated for a form). */
export function chooseForm(scenario: Scenario, byId: ReadonlyMap<string, Scenario>, target: Pick<PlanTarget, 'capabilities'>): { run: Scenario; missing: string[]; via?: string } {
  const caps = { capabilities: target.capabilities as Set<Capability> };
  const missing = missingCapabilities(caps, scenario.needs);
  const form = scenario.clocklessForm === undefined ? undefined : byId.get(scenario.clocklessForm);
  if (!form || missing.length === 0 || !missing.every((m) => CLOCK_CAPABILITIES.includes(m))) return { run: scenario, missing };
  const formMissing = missingCapabilities(caps, form.needs);
  return { run: form, missing: formMissing.length ? [...missing.map((m) => `${m} (clock form)`), ...formMissing.map((m) => `${m} (clock-less form ${form.id})`)] : [], via: form.id };
}

/** The skip reason of missing capabilities, as the run declares it. */
export function missingCapabilitiesReason(scenario: Scenario, missing: readonly string[]): string {
  const noForm = scenario.noClocklessForm !== undefined && missing.some((m) => m === 'clock' || m === 'funding') ? `; no clock-less form: ${scenario.noClocklessForm}` : '';
  return `needs ${missing.join(', ')}: the target profile does not declare ${missing.length > 1 ? 'them' : 'it'}${noForm}`;
}

export function planScenario(scenario: Scenario, byId: ReadonlyMap<string, Scenario>, target: PlanTarget): ScenarioPlan {
  const { run, missing, via } = chooseForm(scenario, byId, target);
  const base = { scenario, runs: run, missing, ...(via ? { via } : {}) };
  if (missing.length) return { ...base, skip: missingCapabilitiesReason(scenario, missing) };
  const absent = target.view ? missingRoles(target.view, scenarioRoles(run)) : [];
  if (absent.length) return { ...base, skip: `${via ? `clock-less form ${via}: ` : ''}${missingRolesReason(absent)}` };
  return base;
}

/** The plans of a selection's tests: every scenario that is a test (clock-less forms run inside theirs). */
export function planSelection(scenarios: readonly Scenario[], target: PlanTarget): ScenarioPlan[] {
  const byId = new Map(scenarios.map((s) => [s.id, s]));
  return scenarios.filter((s) => s.formOf === undefined).map((s) => planScenario(s, byId, target));
}

/** A property test's skip reason on `target` (its catalogue needs and roles), as `doctor` states it. */
export function propertySkip(p: PropertyTest, target: PlanTarget): string | undefined {
  const caps = missingCapabilities({ capabilities: target.capabilities as Set<Capability> }, p.needs ?? []);
  if (caps.length) return `needs ${caps.join(', ')}: the target profile does not declare ${caps.length > 1 ? 'them' : 'it'}`;
  const roles = target.view ? missingRoles(target.view, p.roles ?? []) : [];
  return roles.length ? missingRolesReason(roles) : undefined;
}

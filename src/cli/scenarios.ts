/** Scenario catalogue helpers for list / coverage / doctor: loading, selection, capabilities of a profile. */
import { join, relative, resolve } from 'node:path';
import { REPO_ROOT } from '../harness/repo-root.js';
import { loadScenarioSuite, type ScenarioSuite } from '../harness/scenario/load.js';
import type { Scenario } from '../harness/scenario/types.js';
import { withMutationGuard } from '../harness/target/capabilities.js';
import { resolveTargetFile } from '../harness/target/load.js';
import { readProfile } from '../harness/target/profile.js';
import { resolveTarget } from '../harness/target/resolve.js';
import type { Capability } from '../harness/target/types.js';

/** specs/ of the repository, or FTF_SPECS_DIR (as in specs/conformance.spec.ts). */
export function loadSuite(dir = process.env.FTF_SPECS_DIR ?? join(REPO_ROOT, 'specs')): ScenarioSuite {
  return loadScenarioSuite(dir);
}

export const scenarioFile = (s: Scenario): string => relative(REPO_ROOT, s.source.file).split('\\').join('/');

/** The same selection Playwright applies: --grep on "title @tags" (the test title carries the scenario id), --tag on tags. */
export function selectScenarios(scenarios: Scenario[], sel: { grep?: string; tag?: string }): Scenario[] {
  const re = sel.grep ? new RegExp(sel.grep) : undefined;
  const tag = sel.tag?.replace(/^@/, '');
  return scenarios.filter((s) => (!re || re.test(`${s.id} ${s.title} ${s.tags.map((t) => `@${t}`).join(' ')}`)) && (!tag || s.tags.includes(tag)));
}

/**
 * Capabilities a profile gives, without resolving secrets or URLs (list/coverage must work without
 * credentials): the profile pipeline in partial mode. Production targets lose `mutation` unless both
 * opt-ins are given, as in the runner.
 */
export function profileCapabilities(file: string = resolveTargetFile(), allowMutations = false): { name: string; file: string; capabilities: Set<Capability> } {
  const target = withMutationGuard(resolveTarget(readProfile(resolve(file)), { env: process.env, partial: true }), allowMutations);
  return { name: target.name, file: target.file ?? resolve(file), capabilities: target.capabilities };
}

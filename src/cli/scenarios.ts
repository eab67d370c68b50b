/** Scenario catalogue helpers for list / coverage / doctor: loading, selection, capabilities of a profile. */
import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { FtfError } from '../shared/errors.js';
import { REPO_ROOT } from '../harness/report/paths.js';
import { loadScenarioSuite, type ScenarioSuite } from '../harness/scenario/load.js';
import type { Scenario } from '../harness/scenario/types.js';
import { deriveCapabilities } from '../harness/target/capabilities.js';
import { readProfile, resolveTargetFile } from '../harness/target/load.js';
import type { RawProfile } from '../harness/target/semantics.js';
import type { Capability, CredentialConfig } from '../harness/target/types.js';

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
 * credentials). Production targets lose `mutation` unless both opt-ins are given, as in the runner.
 */
export function profileCapabilities(file: string = resolveTargetFile(), allowMutations = false): { name: string; file: string; capabilities: Set<Capability> } {
  const abs = resolve(file);
  if (!existsSync(abs)) throw new FtfError('FTF_E_PROFILE_NOT_FOUND', `target profile not found: ${abs}`, { location: { file: abs } });
  const raw = readProfile(abs).value as Partial<RawProfile>;
  const credentials: Record<string, CredentialConfig> = {};
  for (const [name, c] of Object.entries(raw.credentials ?? {})) {
    credentials[name] = {
      name,
      kind: c.kind,
      ...(c.consent ? { consent: { strategy: c.consent.strategy, authorizePath: c.consent.authorize_path ?? '/oauth/authorize', params: c.consent.params ?? {} } } : {}),
      ...(c.refresh_token_env ? { refreshTokenEnv: c.refresh_token_env, refreshToken: 'declared' } : {}),
      ...(c.refusal_probe ? { refusalProbe: true } : {}),
    };
  }
  const environment = raw.environment === 'production' ? 'production' : 'sandbox';
  const caps = deriveCapabilities(raw.capabilities ?? [], { credentials, entities: { allowed: raw.entities?.allowed ?? [], ...(raw.entities?.forbidden ? { forbidden: raw.entities.forbidden } : {}) }, environment,
    // "embedded" profiles run on loopback; callback_host lets a remote target reach the harness's listener.
    baseUrl: raw.base_url === 'embedded' ? 'http://127.0.0.1/api/v1' : raw.base_url,
    ...(raw.callback_host ? { callbackHost: raw.callback_host } : {}) });
  if (environment === 'production' && !(raw.allow_mutations && allowMutations)) caps.delete('mutation');
  return { name: raw.name ?? abs, file: abs, capabilities: caps };
}

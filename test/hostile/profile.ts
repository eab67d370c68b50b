/**
 * The hostile profile as both hostile runs see it: fixtures/targets/hostile.yaml with fresh canary secrets
 * and the stub's URLs given the way a real run gets them (FTF_BASE_URL / FTF_AUTH_URL / FTF_CONTROL_URL), so
 * the Playwright-level run (hostile.test.ts) and the in-process sweep (sweep.test.ts) load the same target.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { loadTargetProfile } from '../../src/harness/target/load.js';
import type { ResolvedTarget } from '../../src/harness/target/types.js';
import { REPO_ROOT } from '../../src/harness/repo-root.js';

/** Relative to the repo root (the Playwright run resolves FTF_TARGET from there). */
export const HOSTILE_PROFILE = 'fixtures/targets/hostile.yaml';

/** Fresh per call; short-lived canaries (the stub accepts anything). */
export function hostileSecrets(): Record<string, string> {
  const fresh = (): string => randomBytes(12).toString('hex');
  return {
    FTF_HOSTILE_PRIMARY_SECRET: fresh(),
    FTF_HOSTILE_SECOND_SECRET: fresh(),
    FTF_HOSTILE_READONLY_SECRET: fresh(),
    FTF_HOSTILE_CODE_SECRET: fresh(),
    FTF_HOSTILE_API_KEY: fresh(),
  };
}

/** What a run against the stub at `stubUrl` gets in its environment (no production opt-in). */
export function hostileEnv(stubUrl: string, secrets: Record<string, string>): Record<string, string | undefined> {
  return {
    ...secrets,
    FTF_TARGET: HOSTILE_PROFILE,
    FTF_BASE_URL: `${stubUrl}/api/v1`,
    FTF_AUTH_URL: stubUrl,
    FTF_CONTROL_URL: `${stubUrl}/_sandbox`,
    FTF_ALLOW_MUTATIONS: undefined,
  };
}

/** The profile as the runner's `target` fixture loads it; without a stub URL, the profile's own (port 9) URLs. */
export function loadHostileProfile(secrets: Record<string, string>, stubUrl?: string): ResolvedTarget {
  const env = stubUrl === undefined ? { ...process.env, ...secrets } : { ...process.env, ...hostileEnv(stubUrl, secrets) };
  return loadTargetProfile(join(REPO_ROOT, HOSTILE_PROFILE), { env });
}

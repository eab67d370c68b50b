/**
 * Which profile a run uses, and the one-call form of the pipeline: readProfile (profile.ts: read once with
 * positions, validate) -> resolveTarget (resolve.ts: env secrets by NAME, FTF_* overrides, URLs of a
 * launched embedded server). Embedded servers are launched by src/embedded/launch.ts, never here.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GuardTarget } from './guard.js';
import { timeoutsOf } from './bounds.js';
import { readProfile } from './profile.js';
import { resolveTarget, type ResolveOptions } from './resolve.js';
import type { ResolvedTarget } from './types.js';

export const REFERENCE_PROFILE = fileURLToPath(new URL('../../../fixtures/targets/reference.yaml', import.meta.url));

/** FTF_TARGET (resolved against the working directory) or the embedded reference profile. */
export function resolveTargetFile(env: NodeJS.ProcessEnv = process.env): string {
  const chosen = env.FTF_TARGET?.trim();
  return chosen ? resolve(chosen) : REFERENCE_PROFILE;
}

export function loadTargetProfile(file: string = resolveTargetFile(), opts: ResolveOptions = {}): ResolvedTarget {
  return resolveTarget(readProfile(file), opts);
}

/** The embedded reference's production-mode profile (playwright.config.ts's `production` project). */
export const REFERENCE_PRODUCTION_PROFILE = fileURLToPath(new URL('../../../fixtures/targets/reference-production.yaml', import.meta.url));

/**
 * What the production guard needs of a profile file (environment, allow_mutations), read through the pipeline's
 * first step only, like profileTimeouts. Undefined when the file cannot be read or is invalid: then nothing is
 * decided ahead of the run (the `target` fixture reports the profile's problem).
 */
export function profileGuard(file: string): GuardTarget | undefined {
  try {
    const raw = readProfile(file).raw;
    return { environment: raw.environment, allowMutations: raw.allow_mutations ?? false };
  } catch {
    return undefined;
  }
}

/**
 * The timeouts a profile file gives (defaults filled in), read through the pipeline's first step only (no
 * secrets, no URLs). playwright.config.ts sizes the run bound from them; an unreadable or invalid profile
 * gives the defaults (the `target` fixture then reports the profile's real problem).
 */
export function profileTimeouts(file: string): ResolvedTarget['timeouts'] {
  try {
    return timeoutsOf(readProfile(file).raw.timeouts);
  } catch {
    return timeoutsOf();
  }
}

/**
 * Capabilities: what a target lets the harness do. Declared ones (mutation, clock, funding, consent) come
 * from the profile; the others are derived from credentials, entities and environment. The production
 * guard lives here too: mutating a production target needs the profile's allow_mutations AND the CLI flag.
 */
import { FtfError } from '../../shared/errors.js';
import { PROFILE_ERROR_CODES } from './errors.js';
import type { Capability, ResolvedTarget } from './types.js';

type Declared = 'mutation' | 'clock' | 'funding' | 'consent';

/** True when the URL's host is this machine's loopback (a target there can call a listener on 127.0.0.1). */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return false;
  }
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

type DeriveFrom = Pick<ResolvedTarget, 'credentials' | 'entities' | 'environment'> & Partial<Pick<ResolvedTarget, 'baseUrl' | 'callbackHost'>>;

export function deriveCapabilities(declared: readonly Declared[], t: DeriveFrom): Set<Capability> {
  const caps = new Set<Capability>(declared);
  // The probe key exists only to be refused by production (AUTH-API-KEY); it never authenticates anything.
  if (t.environment === 'production' && Object.values(t.credentials).some((c) => c.kind === 'api_key' && c.refusalProbe)) caps.add('api-key-probe');
  // Authentication rule 8 lets a sandbox accept API keys; a profile without one cannot show it (skip, not fail).
  const key = t.credentials.api_key;
  if (key?.kind === 'api_key' && !key.refusalProbe) caps.add('api-key');
  if (t.callbackHost || (t.baseUrl !== undefined && isLoopbackUrl(t.baseUrl))) caps.add('callback');
  if (t.credentials.second) caps.add('second-user');
  if (t.credentials.readonly) caps.add('readonly-user');
  if (t.entities.forbidden) caps.add('forbidden-entity');
  caps.add(t.environment);
  const code = t.credentials.code;
  if (caps.has('consent') && !(code?.kind === 'authorization_code' && (code.consent || code.refreshTokenEnv || code.refreshToken))) caps.delete('consent');
  return caps;
}

/** Capabilities of `needs` the target lacks (empty = the scenario can run). */
export function missingCapabilities(target: Pick<ResolvedTarget, 'capabilities'>, needs: readonly Capability[]): Capability[] {
  return needs.filter((n) => !target.capabilities.has(n));
}

function mutationsAllowed(target: ResolvedTarget, cliAllow: boolean): boolean {
  return target.environment !== 'production' || (target.allowMutations && cliAllow);
}

/** Throws FTF_E_PRODUCTION_MUTATIONS_REFUSED when a production target would be mutated without both opt-ins. */
export function assertMutationsAllowed(target: ResolvedTarget, cliAllow: boolean): void {
  if (!target.capabilities.has('mutation') || mutationsAllowed(target, cliAllow)) return;
  const missing = [!target.allowMutations && 'allow_mutations: true in the profile', !cliAllow && 'the CLI opt-in flag for production mutations'].filter(Boolean);
  throw new FtfError(PROFILE_ERROR_CODES.mutationsRefused,
    `refusing to mutate production target "${target.name}": missing ${missing.join(' and ')}`,
    { hint: 'production mutations create real subscriptions; both opt-ins are required', location: { field: 'allow_mutations', ...(target.file ? { file: target.file } : {}) } });
}

/** A copy of the target without the mutation capability unless mutations are allowed (scenarios needing it are then skipped). */
export function withMutationGuard(target: ResolvedTarget, cliAllow: boolean): ResolvedTarget {
  if (mutationsAllowed(target, cliAllow) || !target.capabilities.has('mutation')) return target;
  const capabilities = new Set(target.capabilities);
  capabilities.delete('mutation');
  return { ...target, capabilities };
}

/** Throws FTF_E_CAPABILITY_MISSING naming what is missing. */
export function requireCapabilities(target: ResolvedTarget, needs: readonly Capability[], why: string): void {
  const missing = missingCapabilities(target, needs);
  if (missing.length) {
    throw new FtfError(PROFILE_ERROR_CODES.capabilityMissing, `${why} needs capability ${missing.join(', ')}, which target "${target.name}" does not have`, {
      hint: 'declare it in the profile (capabilities:) if the target supports it',
    });
  }
}

/**
 * Step 2 of the profile pipeline: a read profile (profile.ts) + the environment -> ResolvedTarget.
 * URL precedence: profile < FTF_BASE_URL / FTF_AUTH_URL / FTF_CONTROL_URL < overrides (the embedded
 * launcher's server). Secrets are read from the variables the profile NAMES; only names reach messages.
 * A Playwright worker re-runs this same code on the environment the CLI handed it, so secrets travel
 * through process environments only, never through files.
 */
import { FtfError } from '../../shared/errors.js';
import { deriveCapabilities } from './capabilities.js';
import { timeoutsOf, timingOf } from './bounds.js';
import { FIELD_DEFAULTS, PATH_DEFAULTS, RECORD_DEFAULTS } from './defaults.js';
import { PROFILE_ERROR_CODES, ProfileError } from './errors.js';
import { EMBEDDED, isEmbedded, type Profile } from './profile.js';
import { pagingOf, requestShapesOf } from './paging.js';
import { position, resolveCredentials } from './secrets.js';
import { checkControlUrl } from './semantics.js';
import type { ResolvedTarget } from './types.js';
import type { ProfileIssue } from './validate.js';

export type TargetUrls = Pick<ResolvedTarget, 'baseUrl' | 'authUrl' | 'controlUrl'>;

export interface ResolveOptions {
  env?: NodeJS.ProcessEnv;
  overrides?: Partial<TargetUrls>;
  /**
   * Describe the target without connecting to it (list, coverage, `run` before Playwright): `embedded` URLs
   * stay `embedded` (each worker launches its own server) and missing secrets are not an error.
   */
  partial?: boolean;
}

/** What an embedded target's URLs are taken to be when describing it: loopback, like every launched server. */
const EMBEDDED_LOOPBACK = 'http://127.0.0.1/api/v1';

export function resolveTarget(profile: Profile, opts: ResolveOptions = {}): ResolvedTarget {
  const { file, raw, source } = profile;
  const env = opts.env ?? process.env;
  const overrides = opts.overrides ?? {};
  const partial = opts.partial ?? false;

  const controlUrlKnown = Boolean(overrides.controlUrl || env.FTF_CONTROL_URL?.trim() || raw.control_url);
  const controlIssues = checkControlUrl(raw, source, controlUrlKnown);
  if (controlIssues.length) throw new ProfileError(PROFILE_ERROR_CODES.invalid, file, controlIssues);

  const urls = resolveUrls(profile, env, overrides, partial);
  const { credentials, missing } = resolveCredentials(raw, source, env);
  if (missing.length && !partial) {
    throw new ProfileError(PROFILE_ERROR_CODES.secretMissing, file, missing,
      `export ${missing.map((m) => m.envName).join(', ')} (the profile names these variables; values are never written in profiles)`);
  }

  const target: ResolvedTarget = {
    name: raw.name,
    source: isEmbedded(profile) ? EMBEDDED : file,
    file,
    ...urls,
    environment: raw.environment,
    ...(raw.callback_host ? { callbackHost: raw.callback_host } : {}),
    credentials,
    entities: { allowed: raw.entities?.allowed ?? [], ...(raw.entities?.forbidden ? { forbidden: raw.entities.forbidden } : {}) },
    indications: Object.fromEntries(Object.entries(raw.indications ?? {}).filter((e): e is [string, string] => e[1] !== null)),
    paths: fillPathParams({ ...PATH_DEFAULTS, ...(raw.paths ?? {}) }, raw.path_params ?? {}),
    fields: { ...FIELD_DEFAULTS, ...(raw.fields ?? {}) },
    records: { ...RECORD_DEFAULTS, ...(raw.records ?? {}) },
    webhook: { deleteBody: false },
    shapes: requestShapesOf(raw, { ...FIELD_DEFAULTS, ...(raw.fields ?? {}) }.webhook_url ?? 'url'),
    paging: pagingOf(raw.paging),
    capabilities: new Set(),
    ...(raw.implementation ? { implementation: implementationOf(raw.implementation) } : {}),
    allowMutations: raw.allow_mutations ?? false,
    timing: timingOf(raw.timing),
    timeouts: timeoutsOf(raw.timeouts),
  };
  target.webhook.deleteBody = target.shapes.webhook_delete.in === 'json-body';
  target.capabilities = deriveCapabilities(raw.capabilities ?? [], { ...target, baseUrl: target.baseUrl === EMBEDDED ? EMBEDDED_LOOPBACK : target.baseUrl });
  return target;
}

/**
 * The one place profile-known placeholders are filled: `{year}` with path_params.year. Placeholders left
 * over are the scenario's (fill_path), e.g. `{entity_code}`; values are URL-encoded like fill_path's.
 */
export function fillPathParams(paths: Record<string, string>, params: Record<string, string | number>): Record<string, string> {
  const fill = (template: string): string => template.replace(/\{([^{}/]+)\}/g, (whole, name: string) => {
    const value = params[name];
    return value === undefined ? whole : encodeURIComponent(String(value));
  });
  return Object.fromEntries(Object.entries(paths).map(([key, template]) => [key, fill(template)]));
}

function implementationOf(raw: NonNullable<Profile['raw']['implementation']>): NonNullable<ResolvedTarget['implementation']> {
  return { ...(raw.version ? { version: raw.version } : {}), ...(raw.version_header ? { versionHeader: raw.version_header.toLowerCase() } : {}) };
}

type UrlField = 'base_url' | 'auth_url' | 'control_url';

function resolveUrls(profile: Profile, env: NodeJS.ProcessEnv, overrides: Partial<TargetUrls>, partial: boolean): TargetUrls {
  const { file, raw, source } = profile;
  const issues: ProfileIssue[] = [];
  const check = (field: UrlField, envName: string, override: string | undefined): string | undefined => {
    const fromEnv = env[envName]?.trim();
    const [url, from] = override ? [override, 'override'] : fromEnv ? [fromEnv, envName] : [raw[field], field];
    if (url === undefined) return undefined;
    // Only a problem needs the position (parsing it may be the process's first YAML parse: yaml/source.ts).
    const at = (): { line: number; column: number } => position(source, [field], 'value');
    if (url === EMBEDDED) {
      if (partial) return EMBEDDED;
      throw new FtfError(PROFILE_ERROR_CODES.embeddedUnresolved, `${field} is "embedded" in ${file} but no URL was supplied`, {
        hint: `launch the embedded reference server for this profile (src/embedded/launch.ts), or set ${envName}`,
        location: { file, ...at(), field },
      });
    }
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      parsed = undefined;
    }
    const trimmed = url.replace(/\/+$/, '');
    if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.search || parsed.hash) {
      issues.push({ field, message: `${field} from ${from} is not an http(s) URL without query: ${JSON.stringify(url)}`, ...at() });
    } else if (field === 'base_url' && !trimmed.endsWith('/api/v1')) {
      issues.push({ field, message: `base_url from ${from} must end in /api/v1 (spec, Versioning): ${JSON.stringify(url)}`, ...at() });
    } else if (field !== 'base_url' && trimmed.endsWith('/api/v1')) {
      issues.push({ field, message: `${field} from ${from} ends in /api/v1, but the token endpoint sits at the environment root (spec, Authentication rule 2)`, ...at() });
    }
    return trimmed;
  };
  const baseUrl = check('base_url', 'FTF_BASE_URL', overrides.baseUrl) as string;
  const authUrl = check('auth_url', 'FTF_AUTH_URL', overrides.authUrl) as string;
  const controlUrl = check('control_url', 'FTF_CONTROL_URL', overrides.controlUrl);
  if (issues.length) throw new ProfileError(PROFILE_ERROR_CODES.invalid, file, issues);
  return { baseUrl, authUrl, ...(controlUrl ? { controlUrl } : {}) };
}

/**
 * Loads a target profile: YAML -> schema validation (errors name the field and file:line:col) -> semantic
 * checks -> URL overrides -> secrets read from the environment variables the profile names -> ResolvedTarget.
 * Secret values are never put in an error message; only the variable names are.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FtfError } from '../../shared/errors.js';
import { boundIssues } from './bounds.js';
import { deriveCapabilities } from './capabilities.js';
import { FIELD_DEFAULTS, PATH_DEFAULTS, TIMEOUT_DEFAULTS } from './defaults.js';
import { PROFILE_ERROR_CODES, ProfileError } from './errors.js';
import { parseYamlSource, type YamlSource } from './locate.js';
import { resolveCredentials } from './secrets.js';
import type { ResolvedTarget } from './types.js';
import { validateProfile, type ProfileIssue } from './validate.js';
import { checkProfile, type RawProfile } from './semantics.js';

export const REFERENCE_PROFILE = fileURLToPath(new URL('../../../fixtures/targets/reference.yaml', import.meta.url));
export const EMBEDDED = 'embedded';

export interface LoadOptions {
  env?: NodeJS.ProcessEnv;
  overrides?: Partial<Pick<ResolvedTarget, 'baseUrl' | 'authUrl' | 'controlUrl'>>;
}

/** FTF_TARGET (resolved against the working directory) or the embedded reference profile. */
export function resolveTargetFile(env: NodeJS.ProcessEnv = process.env): string {
  const chosen = env.FTF_TARGET?.trim();
  return chosen ? resolve(chosen) : REFERENCE_PROFILE;
}

/** True when the profile's URLs say `embedded`: the harness must start the reference server and pass overrides. */
export function isEmbeddedProfile(file: string): boolean {
  const { value } = readProfile(file);
  return value.base_url === EMBEDDED || value.auth_url === EMBEDDED || value.control_url === EMBEDDED;
}

export function loadTargetProfile(file: string = resolveTargetFile(), opts: LoadOptions = {}): ResolvedTarget {
  const env = opts.env ?? process.env;
  const { value, source } = readProfile(file);

  const schemaIssues = validateProfile(value, source);
  if (schemaIssues.length) throw new ProfileError(PROFILE_ERROR_CODES.invalid, file, schemaIssues);

  const controlUrlKnown = Boolean(opts.overrides?.controlUrl || env.FTF_CONTROL_URL?.trim() || value.control_url);
  const semantic = checkProfile(value, source, { controlUrlKnown });
  const apiKeyIssues = semantic.filter((i) => i.code === PROFILE_ERROR_CODES.apiKeyInProduction);
  if (apiKeyIssues.length) throw new ProfileError(PROFILE_ERROR_CODES.apiKeyInProduction, file, apiKeyIssues);
  if (semantic.length) throw new ProfileError(PROFILE_ERROR_CODES.invalid, file, semantic);
  const timeouts = resolveTimeouts(value);
  // Bounds must nest (request < step < scenario): refused at the field at fault (target/bounds.ts).
  const bounds = boundIssues(timeouts, new Set(Object.keys(value.timeouts ?? {})), (field) => source.locate(['timeouts', field], 'value'));
  if (bounds.length) throw new ProfileError(PROFILE_ERROR_CODES.invalid, file, bounds);

  const urls = resolveUrls(value, source, file, env, opts.overrides ?? {});
  const { credentials, missing } = resolveCredentials(value, source, env);
  if (missing.length) {
    throw new ProfileError(PROFILE_ERROR_CODES.secretMissing, file, missing,
      `export ${missing.map((m) => m.envName).join(', ')} (the profile names these variables; values are never written in profiles)`);
  }

  const embedded = value.base_url === EMBEDDED;
  const target: ResolvedTarget = {
    name: value.name,
    source: embedded ? EMBEDDED : file,
    file,
    ...urls,
    environment: value.environment,
    ...(value.callback_host ? { callbackHost: value.callback_host } : {}),
    credentials,
    entities: { allowed: value.entities?.allowed ?? [], ...(value.entities?.forbidden ? { forbidden: value.entities.forbidden } : {}) },
    indications: { ...(value.indications ?? {}) },
    paths: { ...PATH_DEFAULTS, ...(value.paths ?? {}) },
    fields: { ...FIELD_DEFAULTS, ...(value.fields ?? {}) },
    capabilities: new Set(),
    allowMutations: value.allow_mutations ?? false,
    timeouts,
  };
  target.capabilities = deriveCapabilities(value.capabilities ?? [], target);
  return target;
}

function resolveTimeouts(value: RawProfile): ResolvedTarget['timeouts'] {
  const t = value.timeouts ?? {};
  return {
    requestMs: t.request_ms ?? TIMEOUT_DEFAULTS.requestMs,
    pollIntervalMs: t.poll_interval_ms ?? TIMEOUT_DEFAULTS.pollIntervalMs,
    pollDeadlineMs: t.poll_deadline_ms ?? TIMEOUT_DEFAULTS.pollDeadlineMs,
    scenarioMs: t.scenario_ms ?? TIMEOUT_DEFAULTS.scenarioMs,
    maxPages: t.max_pages ?? TIMEOUT_DEFAULTS.maxPages,
  };
}

/**
 * The timeouts a profile file gives (defaults filled in) without loading it: no secrets, no URL checks.
 * playwright.config.ts sizes the run bound from them; an unreadable or invalid profile gives the defaults
 * (the `target` fixture then reports the profile's real problem).
 */
export function profileTimeouts(file: string): ResolvedTarget['timeouts'] {
  try {
    const { value, source } = readProfile(file);
    return validateProfile(value, source).length ? resolveTimeouts({} as RawProfile) : resolveTimeouts(value);
  } catch {
    return resolveTimeouts({} as RawProfile);
  }
}

function readProfile(file: string): { value: RawProfile; source: YamlSource } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    throw new FtfError(PROFILE_ERROR_CODES.notFound, `target profile not found or unreadable: ${file} (${code ?? 'error'})`, {
      hint: 'set FTF_TARGET to a profile file (see fixtures/targets/sandbox.example.yaml) or unset it to use the embedded reference server',
      location: { file },
      cause,
    });
  }
  const source = parseYamlSource(text);
  if (source.doc.errors.length) {
    const issues: ProfileIssue[] = source.doc.errors.map((e) => {
      const pos = source.lines.linePos(e.pos[0]);
      return { field: '(yaml)', message: `YAML syntax: ${e.message.split('\n')[0]} [${e.code}]`, line: pos.line, column: pos.col };
    });
    throw new ProfileError(PROFILE_ERROR_CODES.invalid, file, issues);
  }
  const value = source.doc.toJS() as unknown;
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new ProfileError(PROFILE_ERROR_CODES.invalid, file, [{ field: '(profile)', message: 'a profile is a YAML mapping (name, base_url, auth_url, ...)', line: 1, column: 1 }]);
  }
  return { value: value as RawProfile, source };
}

type Urls = Pick<ResolvedTarget, 'baseUrl' | 'authUrl' | 'controlUrl'>;

/** Precedence: profile < FTF_BASE_URL / FTF_AUTH_URL / FTF_CONTROL_URL < opts.overrides. */
function resolveUrls(value: RawProfile, source: YamlSource, file: string, env: NodeJS.ProcessEnv, overrides: Partial<Urls>): Urls {
  const pick = (field: 'base_url' | 'auth_url' | 'control_url', envName: string, override: string | undefined) => {
    if (override) return { url: override, from: 'override' };
    const fromEnv = env[envName]?.trim();
    if (fromEnv) return { url: fromEnv, from: envName };
    return { url: value[field], from: field };
  };
  const issues: ProfileIssue[] = [];
  const check = (field: 'base_url' | 'auth_url' | 'control_url', envName: string, override: string | undefined): string | undefined => {
    const { url, from } = pick(field, envName, override);
    if (url === undefined) return undefined;
    const at = source.locate([field], 'value');
    if (url === EMBEDDED) {
      throw new FtfError(PROFILE_ERROR_CODES.embeddedUnresolved, `${field} is "embedded" in ${file} but no URL was supplied`, {
        hint: `start the embedded reference server and pass its URLs as overrides, or set ${envName}`,
        location: { file, ...at, field },
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
      issues.push({ field, message: `${field} from ${from} is not an http(s) URL without query: ${JSON.stringify(url)}`, ...at });
    } else if (field === 'base_url' && !trimmed.endsWith('/api/v1')) {
      issues.push({ field, message: `base_url from ${from} must end in /api/v1 (spec, Versioning): ${JSON.stringify(url)}`, ...at });
    } else if (field !== 'base_url' && trimmed.endsWith('/api/v1')) {
      issues.push({ field, message: `${field} from ${from} ends in /api/v1, but the token endpoint sits at the environment root (spec, Authentication rule 2)`, ...at });
    }
    return trimmed;
  };
  const baseUrl = check('base_url', 'FTF_BASE_URL', overrides.baseUrl) as string;
  const authUrl = check('auth_url', 'FTF_AUTH_URL', overrides.authUrl) as string;
  const controlUrl = check('control_url', 'FTF_CONTROL_URL', overrides.controlUrl);
  if (issues.length) throw new ProfileError(PROFILE_ERROR_CODES.invalid, file, issues);
  return { baseUrl, authUrl, ...(controlUrl ? { controlUrl } : {}) };
}

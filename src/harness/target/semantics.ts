/**
 * Checks a schema-valid profile for combinations the schema cannot express well, each reported at the
 * line/column of the field at fault.
 */
import { PROFILE_ERROR_CODES } from './errors.js';
import type { YamlSource } from '../yaml/source.js';
import { position } from './secrets.js';
import type { ProfileIssue } from './validate.js';
import { shapeIssues, type RawPaging, type RawShapes } from './paging.js';

/** The profile as written (snake_case), after schema validation. */
export interface RawProfile {
  name: string;
  base_url: string;
  auth_url: string;
  control_url?: string;
  environment: 'sandbox' | 'production';
  callback_host?: string;
  allow_mutations?: boolean;
  /** The implementation under test: a stated version and/or the response header carrying it. */
  implementation?: { version?: string; version_header?: string };
  credentials: Record<string, RawCredential>;
  entities?: { allowed: string[]; forbidden?: string };
  indications?: Record<string, string | null>;
  paths?: Record<string, string>;
  path_params?: Record<string, string | number>;
  fields?: Record<string, string>;
  records?: Record<string, string | null>;
  webhook?: RawShapes['webhook'];
  checkpoint?: RawShapes['checkpoint'];
  /** How each list is paged (paging.ts). */
  paging?: RawPaging;
  capabilities?: Array<'mutation' | 'clock' | 'funding' | 'consent'>;
  /** Embedded profiles only: which generated secret of the reference server feeds which credential. */
  embedded?: { api_keys?: Record<string, string> };
  /** The target's own timing (clock-less forms of scenarios). */
  timing?: { short_lived_token_max_s?: number; expiry_leeway_s?: number; uid_rotation_max_s?: number; issuance_watch_s?: number };
  timeouts?: { request_ms?: number; poll_interval_ms?: number; poll_deadline_ms?: number; scenario_ms?: number; max_pages?: number; max_list_pages?: number };
}

export interface RawCredential {
  kind: 'client_credentials' | 'api_key' | 'authorization_code';
  client_id?: string;
  client_secret_env?: string;
  redirect_uri?: string;
  /** How many redirect URIs the operator registered for this client (rule 5); unset = not known. */
  registered_redirect_uris?: number;
  consent?: { strategy: 'auto-approve-url' | 'form-post'; authorize_path?: string; params?: Record<string, string> };
  refresh_token_env?: string;
  api_key_env?: string;
  refusal_probe?: boolean;
}

export type SemanticIssue = ProfileIssue & { code?: string };

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Checks that need nothing but the profile itself (run once, when the profile is read). */
export function checkProfile(p: RawProfile, source: YamlSource): SemanticIssue[] {
  const issues: SemanticIssue[] = [];
  const at = (path: string[], which: 'key' | 'value' = 'key') => position(source, path, which);
  const capabilities = p.capabilities ?? [];
  const capIndex = (c: string) => String(capabilities.indexOf(c as never));

  for (const [name, c] of Object.entries(p.credentials)) {
    if (c.refusal_probe && (c.kind !== 'api_key' || p.environment !== 'production')) {
      issues.push({
        field: `credentials.${name}.refusal_probe`,
        message: `credentials.${name}.refusal_probe is only for an api_key credential in a production profile (the key production must refuse)`,
        hint: c.kind === 'api_key' ? 'in a sandbox the API key is an ordinary credential: drop refusal_probe' : 'set kind: api_key, or drop refusal_probe',
        ...at(['credentials', name, 'refusal_probe']),
      });
    }
    // Only an explicit refusal probe may hold an API key in production; it is never used to authenticate.
    if (c.kind === 'api_key' && p.environment === 'production' && c.refusal_probe !== true) {
      issues.push({
        code: PROFILE_ERROR_CODES.apiKeyInProduction,
        field: `credentials.${name}`,
        message: `credentials.${name} is an api_key credential in a production profile; production requires OAuth (spec, Authentication rule 8)`,
        hint: 'remove the api_key credential or set environment: sandbox (to check that production refuses the key, mark it refusal_probe: true)',
        ...at(['credentials', name]),
      });
    }
    for (const [param, envName] of Object.entries(c.consent?.params ?? {})) {
      if (param.endsWith('_env') && !ENV_NAME.test(envName)) {
        issues.push({
          field: `credentials.${name}.consent.params.${param}`,
          message: `credentials.${name}.consent.params.${param} must name an environment variable, got an invalid name`,
          ...at(['credentials', name, 'consent', 'params', param]),
        });
      }
    }
  }

  if (capabilities.includes('consent')) {
    const code = p.credentials.code;
    if (!code || code.kind !== 'authorization_code' || (!code.consent && !code.refresh_token_env)) {
      issues.push({
        field: 'capabilities',
        message: 'capability consent needs credentials.code of kind authorization_code with consent or refresh_token_env',
        ...at(['capabilities', capIndex('consent')], 'value'),
      });
    }
  }
  if (capabilities.includes('mutation') && p.environment === 'production' && !p.allow_mutations) {
    issues.push({
      field: 'capabilities',
      message: 'capability mutation in a production profile needs allow_mutations: true (and the CLI flag at run time)',
      ...at(['capabilities', capIndex('mutation')], 'value'),
    });
  }
  const forbidden = p.entities?.forbidden;
  if (forbidden && p.entities?.allowed.includes(forbidden)) {
    issues.push({
      field: 'entities.forbidden',
      message: `entities.forbidden ${JSON.stringify(forbidden)} is also in entities.allowed`,
      ...at(['entities', 'forbidden'], 'value'),
    });
  }
  issues.push(...checkEmbedded(p, source));
  issues.push(...shapeIssues(p, (path) => position(source, path, 'key')));
  issues.push(...checkTiming(p, source));
  return issues;
}

/** Embedded profiles: every api_key credential must say whose generated key feeds it (embedded.api_keys). */
function checkEmbedded(p: RawProfile, source: YamlSource): SemanticIssue[] {
  const issues: SemanticIssue[] = [];
  const embedded = p.base_url === 'embedded';
  for (const [name, c] of Object.entries(p.credentials)) {
    if (embedded && c.kind === 'api_key' && !p.embedded?.api_keys?.[name]) {
      issues.push({
        field: `credentials.${name}`,
        message: `credentials.${name} is an api_key credential of an embedded profile, but embedded.api_keys does not say whose generated key feeds it`,
        hint: `add embedded: { api_keys: { ${name}: <user e-mail of the reference data> } }`,
        ...position(source, ['credentials', name]),
      });
    }
  }
  for (const name of Object.keys(p.embedded?.api_keys ?? {})) {
    const c = p.credentials[name];
    if (!embedded || c?.kind !== 'api_key') {
      issues.push({
        field: `embedded.api_keys.${name}`,
        message: !embedded ? 'embedded.api_keys is only for a profile whose base_url is `embedded`' : `embedded.api_keys.${name} names no api_key credential of this profile`,
        ...position(source, ['embedded', 'api_keys', name], 'key'),
      });
    }
  }
  return issues;
}

/** Capabilities that need the sandbox control API; whether its URL is known depends on env and overrides. */
export function checkControlUrl(p: RawProfile, source: YamlSource, controlUrlKnown: boolean): SemanticIssue[] {
  const issues: SemanticIssue[] = [];
  const capabilities = p.capabilities ?? [];
  const at = (path: string[]) => position(source, path, 'value');
  const capIndex = (c: string) => String(capabilities.indexOf(c as never));
  for (const cap of ['clock', 'funding'] as const) {
    if (capabilities.includes(cap) && !controlUrlKnown) {
      issues.push({
        field: 'capabilities',
        message: `capability ${cap} needs control_url (the sandbox control API that advances the clock / simulates funding)`,
        hint: 'set control_url or FTF_CONTROL_URL, or drop the capability',
        ...at(['capabilities', capIndex(cap)]),
      });
    }
  }
  return issues;
}

/** The `short_lived` credential and timing.short_lived_token_max_s come together (one says which client, the other how long). */
function checkTiming(p: RawProfile, source: YamlSource): SemanticIssue[] {
  const short = p.credentials.short_lived;
  const max = p.timing?.short_lived_token_max_s;
  if (short && short.kind !== 'client_credentials') {
    return [{ field: 'credentials.short_lived.kind', message: 'credentials.short_lived must be a client_credentials credential (a test client whose tokens live briefly)', hint: 'set kind: client_credentials', ...position(source, ['credentials', 'short_lived', 'kind'], 'value') }];
  }
  if (short && max === undefined) {
    return [{ field: 'timing.short_lived_token_max_s', message: 'credentials.short_lived needs timing.short_lived_token_max_s (how long its tokens live at most)', hint: 'add timing: { short_lived_token_max_s: N }', ...position(source, ['credentials', 'short_lived']) }];
  }
  if (!short && max !== undefined) {
    return [{ field: 'timing.short_lived_token_max_s', message: 'timing.short_lived_token_max_s needs a credential named short_lived (the test client it describes)', hint: 'add credentials.short_lived (kind: client_credentials) or drop the field', ...position(source, ['timing', 'short_lived_token_max_s']) }];
  }
  return checkRotatingUid(p, source);
}

/** indications.rotating_uid and timing.uid_rotation_max_s come together (one says which product, the other how often). */
function checkRotatingUid(p: RawProfile, source: YamlSource): SemanticIssue[] {
  const product = p.indications?.rotating_uid ?? undefined;
  const max = p.timing?.uid_rotation_max_s;
  if (product && max === undefined) {
    return [{ field: 'timing.uid_rotation_max_s', message: 'indications.rotating_uid needs timing.uid_rotation_max_s (how long its uid stays current at most)', hint: 'add timing: { uid_rotation_max_s: N }', ...position(source, ['indications', 'rotating_uid']) }];
  }
  if (!product && max !== undefined) {
    return [{ field: 'timing.uid_rotation_max_s', message: 'timing.uid_rotation_max_s needs indications.rotating_uid (the test product it describes)', hint: 'add indications.rotating_uid or drop the field', ...position(source, ['timing', 'uid_rotation_max_s']) }];
  }
  return [];
}

/**
 * Validates a parsed profile against schemas/target.schema.json and turns ajv's errors into issues that
 * name the field as the user wrote it (credentials.primary.client_id) plus its line and column.
 *
 * The target schema is compiled once per process into the harness's one Ajv instance (schemas/ajv.ts), and a
 * profile is checked against it once: a profile that passed is remembered by a digest (of the schema file and
 * the parsed profile) in the run setting `profilesChecked` (FTF_RUN), which the processes a process starts inherit (the CLI -> the
 * Playwright runner -> its workers), and in the user's cache folder (user-cache.ts, keyed by the harness's
 * code too), so later processes and later runs skip ajv for the same profile. A profile that failed is
 * checked again wherever it is read and reports the same issues.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheDir, codeKey, writeKept } from '../user-cache.js';
import { readRunSettings, updateRunSettings } from '../../shared/run-settings.js';
import type { ErrorObject } from 'ajv/dist/2020.js';
import { fileValidator } from '../schemas/ajv.js';
import { fieldName, pointerSegments, type YamlSource } from '../yaml/source.js';

export interface ProfileIssue {
  field: string;
  message: string;
  hint?: string;
  line: number;
  column: number;
}

export const TARGET_SCHEMA_URL = new URL('../../../schemas/target.schema.json', import.meta.url);
/** Digests kept in the run setting `profilesChecked`: a run reads a few profiles, not more. */
const MAX_CHECKED = 16;

/** Literal secret fields people tend to write; the profile only ever names environment variables. */
const SECRET_LITERALS: Record<string, string> = {
  client_secret: 'client_secret_env',
  secret: 'client_secret_env',
  api_key: 'api_key_env',
  apikey: 'api_key_env',
  refresh_token: 'refresh_token_env',
  access_token: 'client_secret_env (tokens are obtained by the harness)',
  token: 'client_secret_env (tokens are obtained by the harness)',
  password: 'password_env',
  passwd: 'password_env',
};

const PATTERN_HINTS: Record<string, string> = {
  base_url: 'an http(s) URL ending in /api/v1 (spec, Versioning: {base_url} ends in /api/v1), or `embedded`',
  auth_url: 'the environment root as an http(s) URL without query, e.g. https://sandbox.example.com (the token endpoint is {auth_url}/oauth/token)',
  control_url: 'an http(s) URL without query, e.g. https://sandbox.example.com/_sandbox',
  redirect_uri: 'an absolute URI such as https://app.example.com/callback',
};

export function validateProfile(value: unknown, source: YamlSource, env: NodeJS.ProcessEnv = process.env): ProfileIssue[] {
  const digest = checkedDigest(value);
  const checked = readRunSettings(env).profilesChecked ?? [];
  if (checked.includes(digest)) return [];
  const remember = (): ProfileIssue[] => {
    updateRunSettings(env, { profilesChecked: [...checked, digest].slice(-MAX_CHECKED) });
    return [];
  };
  const kept = keptChecks(env);
  const keptKey = keptKeyOf(digest);
  if (kept?.lines.includes(keptKey)) return remember();
  const validate = fileValidator(TARGET_SCHEMA_URL);
  if (validate(value)) {
    if (kept) keep(kept.file, [...kept.lines.filter((l) => l !== keptKey), keptKey].slice(-MAX_KEPT));
    return remember();
  }
  const issues = (validate.errors ?? []).filter((e) => e.keyword !== 'if' && e.keyword !== 'not').map((e) => toIssue(e, source, value));
  // allOf/if-then and propertyNames can repeat the same complaint; keep one per field+message.
  const unique = new Map(issues.map((i) => [`${i.field}|${i.message}`, i]));
  return [...unique.values()].sort((a, b) => a.line - b.line || a.column - b.column);
}

/** A checked profile's line in the cache folder: its digest with this harness's code. */
export const keptKeyOf = (digest: string): string => createHash('sha256').update(codeKey()).update(digest).digest('hex').slice(0, 32);

/** Profiles kept as checked in the cache folder: the last ones only. */
const MAX_KEPT = 64;

/** The cache folder's list of checked profiles (one key a line), or undefined without a cache folder. */
function keptChecks(env: NodeJS.ProcessEnv): { file: string; lines: string[] } | undefined {
  const dir = cacheDir(env);
  if (!dir) return undefined;
  const file = join(dir, 'profiles-checked');
  try {
    return { file, lines: readFileSync(file, 'utf8').split('\n').filter(Boolean) };
  } catch {
    return { file, lines: [] };
  }
}

function keep(file: string, lines: string[]): void {
  try {
    writeKept(file, `${lines.join('\n')}\n`);
  } catch {
    // Not kept: the next run checks the profile again.
  }
}

let schemaBytes: Buffer | undefined;
/**
 * sha256 of the schema file and the parsed profile. Numbers JSON cannot spell (.nan, .inf, -0) are spelt out,
 * so two profiles that differ only there do not share a digest.
 */
export function checkedDigest(value: unknown): string {
  schemaBytes ??= readFileSync(TARGET_SCHEMA_URL);
  const json = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'number' && (!Number.isFinite(v) || Object.is(v, -0)) ? `\0number ${Object.is(v, -0) ? '-0' : String(v)}` : v));
  return createHash('sha256').update(schemaBytes).update('\0').update(json ?? 'undefined').digest('hex').slice(0, 32);
}

function toIssue(e: ErrorObject, source: YamlSource, root: unknown): ProfileIssue {
  const segments = pointerSegments(e.instancePath);
  const params = e.params as Record<string, unknown>;
  const last = segments[segments.length - 1] ?? '';
  const issue = (path: string[], message: string, hint?: string, which: 'key' | 'value' = 'key'): ProfileIssue => {
    const { line, column } = source.locate(path, which);
    return { field: fieldName(path) || '(profile)', message, ...(hint ? { hint } : {}), line, column };
  };
  switch (e.keyword) {
    case 'required': {
      const missing = String(params.missingProperty);
      const kind = kindOf(root, segments);
      const why = kind && segments[0] === 'credentials' && segments.length === 2 ? ` (required for kind ${kind})` : '';
      return issue(segments, `missing required field ${fieldName([...segments, missing])}${why}`);
    }
    case 'additionalProperties': {
      const extra = String(params.additionalProperty);
      const path = [...segments, extra];
      const secretField = SECRET_LITERALS[extra];
      if (secretField) {
        return issue(path, `field ${fieldName(path)} would hold a literal secret; profiles never contain secrets`,
          `put the value in an environment variable and name that variable with ${secretField}`);
      }
      const allowed = Object.keys((e.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      return issue(path, `unknown field ${fieldName(path)}`, allowed.length ? `allowed here: ${allowed.join(', ')}` : undefined);
    }
    case 'propertyNames': {
      const name = String(params.propertyName);
      const path = [...segments, name];
      const secretField = SECRET_LITERALS[name];
      if (secretField && segments.includes('params')) {
        return issue(path, `consent parameter ${fieldName(path)} would hold a literal secret`, `write ${name}_env: <ENV_VAR_NAME> instead`);
      }
      return issue(path, `invalid name ${JSON.stringify(name)} for ${fieldName(segments)}`, 'use lower-case letters, digits, _ and -');
    }
    case 'pattern': {
      const hint = PATTERN_HINTS[last] ?? (segments[0] === 'paths' ? 'a path relative to base_url starting with /' : undefined);
      return issue(segments, `invalid value ${JSON.stringify(e.data)} for ${fieldName(segments)}${hint ? `: must be ${hint}` : ` (must match ${String(params.pattern)})`}`, undefined, 'value');
    }
    case 'enum':
      return issue(segments, `invalid value ${JSON.stringify(e.data)} for ${fieldName(segments)}: must be one of ${(params.allowedValues as unknown[]).map(String).join(', ')}`,
        segments[0] === 'capabilities' ? 'second-user, readonly-user, forbidden-entity, sandbox and production are derived from credentials/entities/environment, not declared' : undefined,
        'value');
    default:
      return issue(segments, `${fieldName(segments) || 'profile'} ${e.message ?? 'is invalid'}`, undefined, 'value');
  }
}

function kindOf(root: unknown, segments: string[]): string | undefined {
  let node: unknown = root;
  for (const s of segments) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[s] : undefined;
  const kind = node && typeof node === 'object' ? (node as Record<string, unknown>).kind : undefined;
  return typeof kind === 'string' ? kind : undefined;
}

/**
 * Resolves secrets from the environment variables a profile names. Missing variables are reported by NAME
 * with the line/column of the `*_env` field; values never leave this module except inside CredentialConfig.
 */
import type { YamlSource } from '../yaml/source.js';
import type { RawProfile } from './semantics.js';
import type { CredentialConfig } from './types.js';
import type { ProfileIssue } from './validate.js';

/** Line and column only: a ProfileIssue carries its file once, in ProfileError. */
export function position(source: YamlSource, path: readonly string[], which: 'key' | 'value' = 'value'): { line: number; column: number } {
  const { line, column } = source.locate(path, which);
  return { line, column };
}

export type MissingSecret = ProfileIssue & { envName: string };

export function resolveCredentials(p: RawProfile, source: YamlSource, env: NodeJS.ProcessEnv): { credentials: Record<string, CredentialConfig>; missing: MissingSecret[] } {
  const missing: MissingSecret[] = [];
  const read = (envName: string, path: string[], required: boolean): string | undefined => {
    const value = env[envName];
    if (value !== undefined && value !== '') return value;
    if (required) {
      missing.push({ envName, field: path.join('.'), message: `environment variable ${envName} (named by ${path.join('.')}) is not set`, ...position(source, path) });
    }
    return undefined;
  };

  const credentials: Record<string, CredentialConfig> = {};
  for (const [name, c] of Object.entries(p.credentials)) {
    const base = ['credentials', name];
    const cred: CredentialConfig = { name, kind: c.kind };
    if (c.client_id !== undefined) cred.clientId = c.client_id;
    if (c.redirect_uri !== undefined) cred.redirectUri = c.redirect_uri;
    if (c.registered_redirect_uris !== undefined) cred.registeredRedirectUris = c.registered_redirect_uris;
    if (c.refusal_probe === true) cred.refusalProbe = true;
    const secretEnv = c.kind === 'api_key' ? c.api_key_env : c.client_secret_env;
    const secretField = c.kind === 'api_key' ? 'api_key_env' : 'client_secret_env';
    if (secretEnv) {
      cred.secretEnv = secretEnv;
      const secret = read(secretEnv, [...base, secretField], true);
      if (secret !== undefined) cred.secret = secret;
    }
    if (c.refresh_token_env) {
      cred.refreshTokenEnv = c.refresh_token_env;
      // Without automatable consent the refresh token is the only way in, so it must be there.
      const token = read(c.refresh_token_env, [...base, 'refresh_token_env'], !c.consent);
      if (token !== undefined) cred.refreshToken = token;
    }
    if (c.consent) {
      const params: Record<string, string> = {};
      const paramEnv: Record<string, string> = {};
      for (const [key, value] of Object.entries(c.consent.params ?? {})) {
        if (key.endsWith('_env')) {
          const param = key.slice(0, -'_env'.length);
          paramEnv[param] = value;
          const resolved = read(value, [...base, 'consent', 'params', key], true);
          if (resolved !== undefined) params[param] = resolved;
        } else {
          params[key] = value;
        }
      }
      cred.consent = { strategy: c.consent.strategy, authorizePath: c.consent.authorize_path ?? '/oauth/authorize', params, paramEnv };
    }
    credentials[name] = cred;
  }
  return { credentials, missing };
}

/**
 * Binds a launched embedded server to an embedded profile, from DATA only: each credential's client
 * secret is the server's generated secret of its `client_id`; an api_key credential uses the key of the
 * reference-data user that `embedded.api_keys` names. The result is a set of environment variables under
 * the NAMES the profile declares (plus FTF_BASE_URL / FTF_AUTH_URL / FTF_CONTROL_URL), which resolveTarget
 * reads in this process or in a Playwright child. The harness never imports the reference server: callers
 * pass what it reported.
 */
import { PROFILE_ERROR_CODES, ProfileError } from './errors.js';
import type { Profile } from './profile.js';
import type { TargetUrls } from './resolve.js';
import { position } from './secrets.js';
import type { ProfileIssue } from './validate.js';

/** What a started reference server reports (its GeneratedSecrets, by client id and by user). */
export interface EmbeddedServerInfo {
  baseUrl: string;
  authUrl: string;
  controlUrl?: string | undefined;
  secrets: { clients: Record<string, string>; apiKeys: Record<string, string>; passwords?: Record<string, string> };
}

export interface EmbeddedBinding {
  overrides: TargetUrls;
  /** Variables for whatever resolves the profile: URLs and, under the profile's names, the secrets. */
  env: Record<string, string>;
  /** Every secret the server generated (for leak scans of reports); never printed. */
  secrets: string[];
}

export function bindEmbedded(profile: Profile, server: EmbeddedServerInfo): EmbeddedBinding {
  const { raw, source, file } = profile;
  const env: Record<string, string> = { FTF_BASE_URL: server.baseUrl, FTF_AUTH_URL: server.authUrl };
  if (server.controlUrl) env.FTF_CONTROL_URL = server.controlUrl;
  const issues: ProfileIssue[] = [];
  for (const [name, c] of Object.entries(raw.credentials)) {
    if (c.kind === 'api_key') {
      const user = raw.embedded?.api_keys?.[name];
      const key = user ? server.secrets.apiKeys[user] : undefined;
      if (key && c.api_key_env) env[c.api_key_env] = key;
      else issues.push({ field: `embedded.api_keys.${name}`, message: `the embedded server generated no API key for ${JSON.stringify(user)} (credential ${name})`, ...position(source, ['embedded', 'api_keys', name]) });
    } else if (c.client_id && c.client_secret_env) {
      const secret = server.secrets.clients[c.client_id];
      if (secret) env[c.client_secret_env] = secret;
      else issues.push({ field: `credentials.${name}.client_id`, message: `the embedded server has no client ${JSON.stringify(c.client_id)} (credential ${name})`, ...position(source, ['credentials', name, 'client_id']) });
    }
  }
  if (issues.length) {
    throw new ProfileError(PROFILE_ERROR_CODES.embeddedUnresolved, file, issues, 'an embedded profile may only name clients and users of fixtures/reference-data');
  }
  const s = server.secrets;
  return {
    overrides: { baseUrl: server.baseUrl, authUrl: server.authUrl, ...(server.controlUrl ? { controlUrl: server.controlUrl } : {}) },
    env,
    secrets: [...new Set([...Object.values(s.clients), ...Object.values(s.apiKeys), ...Object.values(s.passwords ?? {})])],
  };
}

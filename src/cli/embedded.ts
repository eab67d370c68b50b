/**
 * Starts the embedded reference server for a profile whose URLs say `embedded` and hands its URLs and the
 * secrets it generated to the harness through the environment variables the profile names (the target
 * loader reads FTF_BASE_URL / FTF_AUTH_URL / FTF_CONTROL_URL and the *_env variables). The CLI may import
 * both src/reference and src/harness; the harness itself never imports the reference.
 */
import { startReferenceServer } from '../reference/server.js';
import type { ReferenceOptions } from '../reference/context.js';
import { readProfile } from '../harness/target/load.js';

interface RawCredential {
  kind?: string;
  client_id?: string;
  client_secret_env?: string;
  api_key_env?: string;
}

export interface EmbeddedTarget {
  /** Variables to add to the environment of whatever loads the profile (this process or Playwright). */
  env: Record<string, string>;
  /** Every secret value handed out (for leak scans of generated reports). */
  secrets: string[];
  baseUrl: string;
  close(): Promise<void>;
}

export async function startEmbeddedTarget(profileFile: string, options: ReferenceOptions = {}): Promise<EmbeddedTarget> {
  // readProfile: a YAML syntax error is a profile error with file:line:col (exit 2), not a parser crash.
  const profile = readProfile(profileFile).value as { credentials?: Record<string, RawCredential>; environment?: string };
  const server = await startReferenceServer({ port: 0, host: '127.0.0.1', ...(profile.environment === 'production' ? { mode: 'production' } : {}), ...options });
  const env: Record<string, string> = { FTF_BASE_URL: server.baseUrl, FTF_AUTH_URL: server.authUrl };
  if (server.controlUrl) env.FTF_CONTROL_URL = server.controlUrl;
  const apiKeys = Object.values(server.secrets.apiKeys);
  for (const cred of Object.values(profile.credentials ?? {})) {
    const secret = cred.client_id ? server.secrets.clients[cred.client_id] : undefined;
    if (cred.client_secret_env && secret) env[cred.client_secret_env] = secret;
    if (cred.api_key_env && apiKeys[0]) env[cred.api_key_env] = apiKeys[0];
  }
  const secrets = [...Object.values(server.secrets.clients), ...apiKeys, ...Object.values(server.secrets.passwords)];
  return { env, secrets, baseUrl: server.baseUrl, close: () => server.close() };
}

/** True when the profile names `embedded` URLs and no FTF_BASE_URL override is set. */
export function needsEmbeddedServer(profileFile: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.FTF_BASE_URL?.trim()) return false;
  const profile = readProfile(profileFile).value as { base_url?: string };
  return profile.base_url === 'embedded';
}

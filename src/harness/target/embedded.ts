/**
 * Loads a profile whose URLs say `embedded` against a reference server the harness started itself. The
 * server reports its URLs and the secrets it generated at start ({ [clientId]: secret, apiKey }); they are
 * mapped onto the env var NAMES the profile declares, by client_id, so the profile stays the one source of
 * truth and no secret is ever written anywhere. The harness never imports the reference server: callers
 * pass what startReferenceServer returned.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { loadTargetProfile } from './load.js';
import type { ResolvedTarget } from './types.js';

export interface EmbeddedServerInfo {
  baseUrl: string;
  authUrl: string;
  controlUrl?: string;
  /** { [clientId]: clientSecret, apiKey?: string, ... } as returned by startReferenceServer. */
  credentials: Record<string, unknown>;
}

export function loadEmbeddedTarget(file: string, server: EmbeddedServerInfo, env: NodeJS.ProcessEnv = process.env): ResolvedTarget {
  const raw = parse(readFileSync(file, 'utf8')) as { credentials?: Record<string, Record<string, unknown>> } | null;
  const secrets: NodeJS.ProcessEnv = {};
  for (const cred of Object.values(raw?.credentials ?? {})) {
    const clientId = typeof cred.client_id === 'string' ? cred.client_id : undefined;
    const secret = clientId ? server.credentials[clientId] : undefined;
    if (typeof cred.client_secret_env === 'string' && typeof secret === 'string') secrets[cred.client_secret_env] = secret;
    if (cred.kind === 'api_key' && typeof cred.api_key_env === 'string' && typeof server.credentials.apiKey === 'string') {
      secrets[cred.api_key_env] = server.credentials.apiKey;
    }
  }
  // The server's freshly generated secrets win over stale values in the environment.
  return loadTargetProfile(file, {
    env: { ...env, ...secrets },
    overrides: { baseUrl: server.baseUrl, authUrl: server.authUrl, ...(server.controlUrl ? { controlUrl: server.controlUrl } : {}) },
  });
}

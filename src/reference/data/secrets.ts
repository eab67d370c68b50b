/**
 * Secrets generated at every start from the CSPRNG (node:crypto), never from fixtures or the seed: every
 * run's secrets are fresh, so a secret that shows up in a log or report is a leak (canary).
 */
import { randomBytes } from 'node:crypto';
import type { GeneratedSecrets } from '../context.js';
import type { IdentityData } from './types.js';

const token = (prefix: string): string => `${prefix}${randomBytes(24).toString('base64url')}`;

export function generateSecrets(identities: IdentityData): GeneratedSecrets {
  const clients: Record<string, string> = {};
  for (const c of identities.clients) clients[c.clientId] = token('cs_');
  const apiKeys: Record<string, string> = {};
  for (const email of identities.apiKeyUsers) apiKeys[email] = token('ftfk_');
  const passwords: Record<string, string> = {};
  for (const u of identities.users) passwords[u.email] = token('pw_');
  return { clients, apiKeys, passwords };
}

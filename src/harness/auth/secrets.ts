/** Registers every secret a target profile resolved (client secrets + Basic spellings, API keys, refresh tokens, consent form secrets). */
import type { Redactor } from '../http/redactor.js';
import type { ResolvedTarget } from '../target/types.js';

export function registerTargetSecrets(target: ResolvedTarget, redactor: Redactor): void {
  for (const cred of Object.values(target.credentials)) {
    if (cred.secret !== undefined) {
      const label = cred.secretEnv ?? `${cred.name.toUpperCase()}_SECRET`;
      if (cred.kind === 'api_key' || !cred.clientId) redactor.addSecret(cred.secret, label);
      else redactor.addBasicCredentials(cred.clientId, cred.secret, label);
    }
    if (cred.refreshToken !== undefined) redactor.addSecret(cred.refreshToken, cred.refreshTokenEnv ?? `${cred.name.toUpperCase()}_REFRESH_TOKEN`);
    for (const [param, envName] of Object.entries(cred.consent?.paramEnv ?? {})) {
      const value = cred.consent?.params[param];
      if (value !== undefined) redactor.addSecret(value, envName);
    }
  }
}

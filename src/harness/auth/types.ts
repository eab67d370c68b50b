/**
 * Obtains Authorization header values for named credentials of the target profile. Tokens are cached per
 * credential and refreshed before expires_in runs out; rotated refresh tokens are kept for the next cycle.
 * Every secret it sees (client secrets, tokens, codes, verifiers) is registered with the redactor.
 */
export type SpecialAuth = 'none' | 'invalid' | 'expired' | 'basic-only';

export interface AuthClient {
  /** Header value for a credential name of the profile ("Bearer …"), or a special mode; undefined = no header. */
  authorization(credential: string | SpecialAuth): Promise<string | undefined>;
  /** Drop cached tokens (for "token reused until expiry" scenarios that need a fresh one). */
  forget(credential: string): void;
}

/**
 * Obtains Authorization header values for named credentials of the target profile. Tokens are cached per
 * credential and refreshed before expires_in runs out; rotated refresh tokens are kept for the next cycle.
 * Every secret it sees (client secrets, tokens, codes, verifiers) is registered with the redactor.
 */
export type SpecialAuth = 'none' | 'invalid' | 'expired' | 'basic-only' | 'api-key-probe';

export interface AuthClient {
  /** Header value for a credential name of the profile ("Bearer …"), or a special mode; undefined = no header.
   *  `api-key-probe`: "Bearer <key>" of the production profile's refusal-probe API key, the ONLY way that key
   *  is ever sent (scenario token.api-key-production checks that production refuses it); naming the probe
   *  credential directly is FTF_E_PROFILE_API_KEY_IN_PRODUCTION. */
  authorization(credential: string | SpecialAuth): Promise<string | undefined>;
  /** Drop cached tokens (for "token reused until expiry" scenarios that need a fresh one). */
  forget(credential: string): void;
  /** Drop every cached access token (the engine calls it after clock advances). Rotated refresh tokens are kept. */
  forgetAll(): void;
  /** "Basic base64(client_id:client_secret)" of an OAuth credential, for scenarios that call the token endpoint themselves. */
  clientAuthorization(credential: string): string;
  /** Runs the consent step only (PKCE S256), for scenarios that do the code exchange themselves (redirect/PKCE checks). */
  authorizeCode(credential: string, opts?: { redirectUri?: string }): Promise<CodeGrant>;
  /** Metadata of the cached token (no secret): when it was obtained and when it expires, ms since epoch by the client's clock. */
  tokenInfo(credential: string): TokenInfo | undefined;
}

export interface CodeGrant {
  code: string;
  codeVerifier: string;
  redirectUri: string;
  state: string;
}

export interface TokenInfo {
  obtainedAt: number;
  expiresAt: number;
  expiresIn: number;
  hasRefreshToken: boolean;
}

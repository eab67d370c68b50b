/**
 * Identity part of the reference data (fixtures/reference-data/identities.yaml). The domain part
 * (entities, cells, indications, holdings, ...) is typed in the same folder by its loader.
 */
export interface UserRecord {
  email: string;
  /** Entity codes on this user's allow-list. */
  entities: string[];
}

export interface OAuthClientRecord {
  clientId: string;
  /** The user this client acts as (client_credentials) or the only user allowed to consent (code). */
  user: string;
  grants: Array<'client_credentials' | 'authorization_code' | 'refresh_token'>;
  redirectUris: string[];
  /** Read-only clients may only GET under /api/v1; anything else is 403 "Endpoint not enabled for this API user." */
  readOnly: boolean;
}

export interface IdentityData {
  users: UserRecord[];
  clients: OAuthClientRecord[];
  /** Users that get a sandbox API key at start. */
  apiKeyUsers: string[];
}

/** Filled by data/load.ts; the domain fields are added by the core data loader. */
export interface ReferenceData extends IdentityData {
  seed: number;
  [domain: string]: unknown;
}

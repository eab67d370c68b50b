/**
 * A target profile after loading: schema-validated, env overrides applied, secrets resolved from the
 * environment variables the profile names. Field names mirror schemas/target.schema.json (snake_case in
 * YAML, camelCase here).
 */
import type { ListKey, ListPaging, RequestShape, RequestShapeKey } from './paging.js';

export type Capability =
  | 'mutation'
  | 'second-user'
  | 'readonly-user'
  | 'forbidden-entity'
  | 'clock'
  | 'funding'
  | 'consent'
  | 'sandbox'
  | 'production'
  /** A production profile's refusal-probe API key: only sent to check that production refuses it. */
  | 'api-key-probe'
  /** An API key credential named `api_key` (not a refusal probe): sandbox scenarios that send it as the bearer need it. */
  | 'api-key'
  /** The target can reach a callback listener of the harness (callback_host, or base_url on loopback). */
  | 'callback';

export type CredentialKind = 'client_credentials' | 'api_key' | 'authorization_code';

export interface ConsentConfig {
  /** auto-approve-url: GET authorizePath with params, read `code` from the Location redirect.
   *  form-post: POST the consent form (fields, values may name env vars via `*_env`). */
  strategy: 'auto-approve-url' | 'form-post';
  authorizePath: string;
  /** Resolved parameter values (a `<name>_env` entry in the YAML becomes `<name>` with the env value). */
  params: Record<string, string>;
  /** Parameter name -> env var NAME, for parameters whose value came from the environment (secrets). */
  paramEnv?: Record<string, string>;
}

export interface CredentialConfig {
  name: string;
  kind: CredentialKind;
  clientId?: string;
  /** Env var NAME holding the secret (the value is in `secret`). */
  secretEnv?: string;
  /** Resolved secret value; never printed. */
  secret?: string;
  redirectUri?: string;
  /** How many redirect URIs are registered for this client (Authentication rule 5); unset = not known. */
  registeredRedirectUris?: number;
  consent?: ConsentConfig;
  /** Pre-obtained refresh token (authorization_code without automatable consent). */
  refreshTokenEnv?: string;
  refreshToken?: string;
  /** api_key in production only: sent solely by the `api-key-probe` auth mode, to check it is refused. */
  refusalProbe?: boolean;
}

export interface ResolvedTarget {
  name: string;
  /** Profile file, or "embedded" when the reference server was started by the harness. */
  source: string;
  /** The profile file that was loaded (also for embedded targets). */
  file?: string;
  baseUrl: string;
  authUrl: string;
  /** Sandbox control API root, when the target has one (clock/funding capabilities). */
  controlUrl?: string;
  /** Host the harness binds its callback listener on and advertises (profile `callback_host`); default 127.0.0.1. */
  callbackHost?: string;
  environment: 'sandbox' | 'production';
  credentials: Record<string, CredentialConfig>;
  entities: { allowed: string[]; forbidden?: string };
  /** Logical indication roles -> codes: primary, fractional_minimum, enforced_maximum, unenforced_maximum, ...
   *  A role the profile sets to null (no such product) is left out: scenarios needing it are skipped (scenario/roles.ts). */
  indications: Record<string, string>;
  /** Paths (relative to base_url) of the operations the spec leaves "not shown"; may carry a query string.
   *  Placeholders the profile gives in `path_params` are already filled in; the rest are filled by scenarios. */
  paths: Record<string, string>;
  /** Field names / JSON pointers the spec leaves "not shown" (e.g. the subscribe body's indication uid field). */
  fields: Record<string, string>;
  /** JSON pointer to where each record sits in its response ("" = the body); null = the response holds no record. */
  records: Record<string, string | null>;
  /** Request shapes of webhook operations the spec does not show. `deleteBody`: DELETE /webhook carries a JSON body (shapes.webhook_delete). */
  webhook: { deleteBody: boolean };
  /** Where a value goes in each request whose shape the spec leaves open (profile webhook.delete, webhook.register, checkpoint.put). */
  shapes: Record<RequestShapeKey, RequestShape>;
  /** How each list is paged (profile paging.<list>; `none` = one answer is the whole list). */
  paging: Record<ListKey, ListPaging>;
  capabilities: Set<Capability>;
  /** Profile `implementation`: a stated version and/or the (lower-cased) name of a response header carrying it. */
  implementation?: { version?: string; versionHeader?: string };
  allowMutations: boolean;
  /** The target's own timing (profile `timing`): what clock-less forms of scenarios may wait for (bounds.ts Timing). */
  timing: { shortLivedTokenMaxS?: number; expiryLeewayS: number; uidRotationMaxS?: number; issuanceWatchS?: number };
  timeouts: { requestMs: number; pollIntervalMs: number; pollDeadlineMs: number; scenarioMs: number; maxPages: number; maxListPages: number };
}

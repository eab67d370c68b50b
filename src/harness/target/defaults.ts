/**
 * Defaults for what the spec leaves "not shown": they are the reference server's choices
 * (docs/architecture.md), so a profile only lists what its target does differently.
 * Keys stay snake_case (as in the YAML) in ResolvedTarget.paths / .fields / .indications.
 */
export const PATH_DEFAULTS: Readonly<Record<string, string>> = {
  health: '/health',
  cells: '/cell',
  cell: '/cell/{code}',
  entities: '/entity',
  entity: '/entity/{code}',
  entity_users: '/entity/{code}/user',
  holdings: '/holding/{entity_code}',
  holding_extensions: '/holding/{entity_code}/{holding_uid}/extension',
  holidays: '/holiday',
  indications: '/indication',
  checkpoints: '/event/checkpoint',
  checkpoint_delete: '/event/checkpoint/{name}',
  webhook: '/webhook',
};

/** Body field names and JSON pointers into responses. List pointers: "" = the body itself is the array. */
export const FIELD_DEFAULTS: Readonly<Record<string, string>> = {
  subscribe_indication_uid: 'indicationUid',
  indication_uid: '/uid',
  subscription_uid: '/uid',
  webhook_url: 'url',
  cells_list: '',
  entities_list: '',
  entity_users_list: '',
  holdings_list: '',
  holding_extensions_list: '',
  holidays_list: '',
  indications_list: '',
  subscriptions_list: '',
  // The reference answers GET /event/checkpoint with {"checkpoints": [...]}.
  checkpoints_list: '/checkpoints',
};

/**
 * Where each record sits in its response (JSON pointer, "" = the body): the reference's layout. `null` in a
 * profile = the response holds no record (for `subscribe`: only the uid, at fields.subscription_uid).
 */
export const RECORD_DEFAULTS: Readonly<Record<string, string | null>> = {
  indication: '',
  subscribe: '',
};

export const TIMEOUT_DEFAULTS = {
  requestMs: 10_000,
  pollIntervalMs: 200,
  pollDeadlineMs: 30_000,
  scenarioMs: 60_000,
  maxPages: 10_000,
  maxListPages: 1_000,
} as const;

export const INDICATION_ROLES = ['primary', 'fractional_minimum', 'enforced_maximum', 'unenforced_maximum', 'extendable'] as const;

/** Conventional credential names the scenarios use; only `primary` is required. */
export const CREDENTIAL_NAMES = ['primary', 'second', 'readonly', 'code', 'api_key'] as const;

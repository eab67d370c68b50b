/**
 * The catalogue of variants (issue 12): data only. A variant is the mirror of a fault: a DIFFERENT BUT
 * CONFORMANT reading of a point where the spec is silent ("not shown") or says "A or B". A harness must pass
 * a server running any of them, given a target profile that says what the variant changes.
 *
 * Per variant: the `point` it belongs to (variants of one point exclude each other; the default behaviour is
 * the point's implicit first behaviour), the spec text that allows it (`spec`, quoted), today's behaviour
 * (`default`), the alternate, and `profile`: the target-profile settings a harness needs under this variant
 * alone, as dotted keys (`paths.holdings`, `fields.holdings_list` for a JSON pointer to a list, `records.x`
 * for a JSON pointer to where a record sits, other keys for behaviour a harness has to be told about).
 * `profileFor(names)` in variants.ts composes them for a set of variants.
 */
export type ProfileValue = string | number | boolean | null;

export interface VariantInfo {
  name: string;
  point: string;
  spec: string;
  default: string;
  alternate: string;
  profile: Readonly<Record<string, ProfileValue>>;
}

/** Every list the reference serves, as the key of its `fields.<key>_list` pointer in a target profile. */
export const LIST_KEYS = [
  'cells', 'entities', 'entity_users', 'holdings', 'holding_extensions', 'holidays', 'indications', 'subscriptions', 'checkpoints',
] as const;
export type ListKey = typeof LIST_KEYS[number];

const allLists = (pointer: string): Record<string, string> => Object.fromEntries(LIST_KEYS.map((k) => [`fields.${k}_list`, pointer]));

const NOT_SHOWN_PATHS = 'Endpoints rule 8: "Paths and parameters of the operations for cells, entities and their users, holdings lists, holding extensions, holidays, indication lists, the health check and checkpoint deletion and listing: not shown."';
const RECORDS_NOT_SHOWN = 'Resources: "Fields of the indication record and the subscription record: not shown beyond those named in Endpoints and Errors."';

type Row = [name: string, point: string, spec: string, dflt: string, alternate: string, profile: Record<string, ProfileValue>];

const PAGING_SPEC = `${NOT_SHOWN_PATHS} Endpoints: GET /subscription answers "subscriptions, each with uid and holdingUid" (layout and paging not shown); paging is shown for GET /event alone (Endpoint rule 1).`;
type PagingKindName = 'page-number' | 'cursor' | 'link-header' | 'offset-limit';
/** What each paging scheme looks like on the wire (http/paging.ts; 2 entries a page, oldest first). */
const PAGING_WIRE: Record<PagingKindName, string> = {
  'page-number': '`?page=N` from 1, `{"results": [...], "pageInfo": {"page", "pageSize", "hasNextPage"}}`',
  cursor: '`?cursor=<opaque>`, `{"data": [...], "next": "<opaque>" | null}`',
  'link-header': 'the usual layout, `?per_page=S` (default and maximum 50), next page in `Link: <absolute URL>; rel="next"` (RFC 8288)',
  'offset-limit': 'the usual layout, `?offset=O&limit=L` (default and maximum 50)',
};
/** The profile words a paged list needs (http/paging.ts pagingSettings writes the same; profileFor composes them). */
const PAGING_PROFILE: Record<PagingKindName, (k: string) => Record<string, ProfileValue>> = {
  'page-number': (k) => ({ [`paging.${k}.kind`]: 'page-number', [`paging.${k}.param`]: 'page', [`paging.${k}.first`]: 1, [`paging.${k}.has_next`]: '/pageInfo/hasNextPage', [`fields.${k}_list`]: '/results' }),
  cursor: (k) => ({ [`paging.${k}.kind`]: 'cursor', [`paging.${k}.param`]: 'cursor', [`paging.${k}.next`]: '/next', [`fields.${k}_list`]: '/data' }),
  'link-header': (k) => ({ [`paging.${k}.kind`]: 'link-header', [`paging.${k}.size_param`]: 'per_page', [`paging.${k}.size`]: 2 }),
  'offset-limit': (k) => ({ [`paging.${k}.kind`]: 'offset-limit', [`paging.${k}.offset_param`]: 'offset', [`paging.${k}.limit_param`]: 'limit', [`paging.${k}.limit`]: 2 }),
};

/**
 * Every list paged one way at once (point lists-paging), and subscriptions and holdings each under every kind
 * (points subscriptions-paging, holdings-paging; they win over lists-paging). The first row of each point is
 * what persona all-alternate takes: kinds that keep each list's layout and page only when asked for a page
 * size, so the other variants' probes still see them; persona paged-lists takes the others.
 */
function pagingRows(): Row[] {
  const rows: Row[] = [];
  const each = (point: string, prefix: string, keys: readonly string[], order: PagingKindName[], what: string): void => {
    for (const kind of order) {
      rows.push([`${prefix}-${kind}`, point, PAGING_SPEC, `${what} answered whole, in one response`, `${what} paged by ${kind}: ${PAGING_WIRE[kind]}`,
        Object.assign({}, ...keys.map((k) => PAGING_PROFILE[kind](k))) as Record<string, ProfileValue>]);
    }
  };
  each('lists-paging', 'lists', LIST_KEYS, ['link-header', 'cursor', 'page-number', 'offset-limit'], 'every list');
  each('subscriptions-paging', 'subscriptions', ['subscriptions'], ['offset-limit', 'page-number', 'cursor', 'link-header'], 'GET /subscription');
  each('holdings-paging', 'holdings', ['holdings'], ['link-header', 'offset-limit', 'page-number', 'cursor'], 'the holdings list');
  return rows;
}

const ROWS: Row[] = [
  // ---- record layouts ----
  ['indication-as-list', 'indication-record',
    `Endpoints: GET /indication/{code} answers "indication with current uids, minimum, maximum ... and subscriptionDates list" (plural uids; layout not shown). ${RECORDS_NOT_SHOWN}`,
    'the indication record at the root of the body', 'a JSON array holding the one indication record (as a real FTF provider does)',
    { 'records.indication': '/0' }],
  ['indication-wrapped', 'indication-record',
    `Endpoints: GET /indication/{code} answers "indication with current uids, ..."; the response layout is not shown. ${RECORDS_NOT_SHOWN}`,
    'the indication record at the root of the body', '`{"indication": {...}}`',
    { 'records.indication': '/indication' }],
  ['subscribe-response-wrapped', 'subscribe-response',
    `Endpoints: POST /subscribe answers a "response containing the subscription uid". ${RECORDS_NOT_SHOWN}`,
    '200 with the Subscription record at the root', '200 `{"subscription": Subscription}`',
    { 'records.subscribe': '/subscription', 'fields.subscription_uid': '/subscription/uid' }],
  ['subscribe-response-minimal', 'subscribe-response',
    'Endpoints: POST /subscribe answers a "response containing the subscription uid"; nothing more is required of it.',
    '200 with the Subscription record at the root', '200 `{"subscriptionUid": uid, "status": "Pending"}` (read the record from GET /subscription)',
    { 'records.subscribe': null, 'fields.subscription_uid': '/subscriptionUid' }],
  ['lists-wrapped', 'list-layout',
    `${NOT_SHOWN_PATHS} Endpoints: GET /subscription answers "subscriptions, each with uid and holdingUid" (layout not shown).`,
    'every list a bare JSON array, except checkpoints `{"checkpoints": [...]}`', 'every list `{"items": [...], "page": {"size": n, "totalCount": n}}`',
    allLists('/items')],
  ['checkpoint-list-bare', 'list-layout', NOT_SHOWN_PATHS,
    'every list a bare JSON array, except checkpoints `{"checkpoints": [...]}`', 'the checkpoint list a bare JSON array too',
    { 'fields.checkpoints_list': '' }],
  // ---- paging of the lists (issue 25): only GET /event's paging is shown ----
  ...pagingRows(),
  // ---- paths of the operations the spec does not show ----
  ['plural-paths', 'operation-paths', NOT_SHOWN_PATHS,
    '`/health`, `/cell`, `/entity`, `/entity/{code}/user`, `/holding/{entity_code}`, `.../extension`, `/holiday`, `/indication`, `/event/checkpoint` (list and delete)',
    '`/status`, `/cells`, `/entities`, `/entities/{code}/users`, `/holdings/{entity_code}`, `.../extensions`, `/holidays`, `/indications`, `/event/checkpoints` (list and delete)',
    {}],
  ['entity-in-query', 'list-entity-placement', NOT_SHOWN_PATHS,
    'holdings list and entity users take the entity as a path segment (`/holding/{entity_code}`, `/entity/{code}/user`)',
    'they take it as a query parameter (`/holding?entity_code=…`, `/user?entity_code=…`), like GET /subscription',
    {}],
  ['holidays-by-year', 'holiday-path', `${NOT_SHOWN_PATHS} Resources: "Fields of Holiday beyond its country (calendar name) and date: not shown."`,
    '`GET /holiday` (optional `country` query) answers every year', '`GET /holiday/{year}` answers the holidays of that year (the reference data holds 2026)',
    { 'path_params.year': 2026 }],
  ['health-public', 'health-auth', `${NOT_SHOWN_PATHS} "The service has a health check whose response body is {status}."`,
    'the health check needs a bearer like every {base_url} call (401 without)', 'the health check answers 200 `{status}` without a token (a token, if sent, is ignored)',
    {}],
  ['unknown-route-401-first', 'unknown-route-order', 'Errors: 401 "missing or invalid access token", 404 "resource does not exist or was removed"; the order of the two checks is not shown. Authentication rule 2 keeps {base_url}/oauth/token a 404.',
    'an unknown route under {base_url} answers 404 before authentication', 'it answers 401 without a valid token and 404 with one ({base_url}/oauth/token stays 404 either way)',
    {}],
  // ---- checkpoints ----
  ['checkpoint-put-existing-201', 'checkpoint-put-existing', 'Endpoints rule 11: "Request body of PUT /event/checkpoint/{name} and behaviour when the name already exists: not shown."',
    '200 with the existing checkpoint, unchanged', '201 again with the existing checkpoint, unchanged',
    {}],
  ['checkpoint-put-existing-reset', 'checkpoint-put-existing', 'Endpoints rule 11: "behaviour when the name already exists: not shown."',
    '200 with the existing checkpoint, unchanged', '200 with the checkpoint moved to the current end of the caller\'s stream (new checkpointVersion), as a create would set it',
    {}],
  ['checkpoint-put-json-body', 'checkpoint-put-request', 'Endpoints rule 11: "Request body of PUT /event/checkpoint/{name} and behaviour when the name already exists: not shown."',
    'PUT /event/checkpoint/{name} takes no body', 'PUT needs a JSON body naming the checkpoint (`{"name": <the path name>}`; 422 without, 400 for another name)',
    { 'checkpoint.put.in': 'json-body', 'checkpoint.put.name': 'name' }],
  ['checkpoint-put-form', 'checkpoint-put-request', 'Endpoints rule 11: "Request body of PUT /event/checkpoint/{name} and behaviour when the name already exists: not shown."',
    'PUT /event/checkpoint/{name} takes no body', 'PUT needs a form body naming the checkpoint (`application/x-www-form-urlencoded`, `name=<the path name>`; 422 without, 400 for another name)',
    { 'checkpoint.put.in': 'form', 'checkpoint.put.name': 'name' }],
  ['checkpoint-name-64', 'checkpoint-name-limit', 'Limits: "Maximum length and allowed characters of a checkpoint name: not shown."',
    'names of 1..128 characters of `A-Z a-z 0-9 . _ ~ -` (else 422)', 'names of 1..64 such characters (else 422)',
    {}],
  ['checkpoint-patch-bare', 'checkpoint-patch-body', 'Endpoints: PATCH /event/checkpoint/{name} answers the "updated checkpoint" (layout not shown).',
    '200 `{"checkpoint": CheckpointData}` (as GET)', '200 with the CheckpointData at the root',
    {}],
  ['checkpoint-conflict-bare', 'checkpoint-conflict-body', 'Endpoints: "409 with the current state if the version no longer matches"; Errors: "PATCH checkpoint version mismatch | 409 | body holds the current state"; failure body `{detail: string}`.',
    '409 `{"detail": "...", "checkpoint": CheckpointData}`', '409 with the CheckpointData fields at the root, plus `detail`',
    {}],
  ['checkpoint-noop-keeps-version', 'checkpoint-noop-patch', 'CheckpointData: "checkpointVersion | opaque version token (prefix ec1.) of the checkpoint\'s current state"; a PATCH whose newCursor is the cursor already held changes no state (behaviour not shown).',
    'every successful PATCH gives a new checkpointVersion', 'a PATCH with the current version to the cursor already held answers 200 with the checkpoint unchanged (same checkpointVersion); a stale version is still 409',
    {}],
  // ---- event paging ----
  ['page-size-250', 'page-size', 'Limits: "Events per request | returned in pageInfo.limit (the sample value is 1000)"; "Maximum page size that a client can request: not shown."',
    'default and maximum page size 1000 (a larger limit is 422)', 'default and maximum page size 250 (a larger limit is 422)',
    {}],
  ['page-limit-clamped', 'page-size-over-maximum', 'Limits: "Maximum page size that a client can request: not shown"; pageInfo.limit is the "maximum events returned per request".',
    'a limit above the maximum is 422', 'a limit above the maximum is served with the maximum, reported in pageInfo.limit',
    {}],
  ['limit-param-page-size', 'page-size-parameter', 'Endpoints rule 10: "Further filter parameters of GET /event: not shown."',
    'the page size parameter is `limit`', 'it is `page_size` (`limit` is an unknown parameter, ignored)',
    { 'fields.event_limit_param': 'page_size' }],
  ['total-count-null', 'total-count', 'Resources / EventPageInfo: "totalCount | integer or null | no".',
    'totalCount is the exact count', 'totalCount is null',
    {}],
  ['total-count-absent', 'total-count', 'Resources / EventPageInfo: "totalCount | integer or null | no" (not required).',
    'totalCount is the exact count', 'totalCount is absent',
    {}],
  ['page-cursors-absent', 'page-cursors-when-none', 'Resources / EventPageInfo: endCursor, pageEndCursor, startCursor are "string or null" and not required.',
    'endCursor, pageEndCursor, startCursor are null when there is none (empty page or stream)', 'they are absent when there is none',
    {}],
  ['foreign-cursor-refused', 'foreign-cursor', 'Nothing in the spec says a cursor of an event the caller cannot see is a valid position; pageEndCursor, endCursor and checkpoint cursors are always of the caller\'s stream.',
    'any valid cursor is a position, also of an event of an entity the caller may not see', 'a start_cursor or end_cursor of an event outside the caller\'s allow-list is `400 Invalid cursor.`',
    {}],
  ['query-errors-400', 'query-validation-status', 'Errors: "400 | invalid request", "422 | body failed schema validation": a bad query or path value is not a body.',
    'a query or path value failing validation (e.g. `limit=0`) is 422 `{detail: [{loc, msg, type}]}`', 'it is 400 `{detail: string}`; bodies stay 422',
    {}],
  // ---- token endpoint ----
  ['token-response-extras', 'token-response', 'Authentication: "Token response fields beyond access_token, expires_in and refresh_token: not shown."; "OAuth scopes ...: not shown."',
    '`{access_token, token_type: "Bearer", expires_in[, refresh_token]}`', 'adds `scope`, `issued_at`, lower-case `token_type: "bearer"` (RFC 6749 5.1: case-insensitive)',
    {}],
  ['token-refresh-null', 'client-credentials-refresh-token', 'Authentication rule 4: "No refresh token is issued" for Client Credentials.',
    'client_credentials responses have no `refresh_token` field', 'they carry `refresh_token: null`',
    {}],
  // ---- extra fields ----
  ['extra-fields', 'extra-fields', 'The spec lists required and optional fields; it never forbids others ("not shown beyond ..."). README: "extra fields ... are all conformant".',
    'bodies carry the reference\'s fields only', 'every JSON object in every response carries an additional unknown field `x-reference-extra`',
    {}],
  // ---- webhook ----
  ['webhook-url-field', 'webhook-body-field', 'Endpoints rule 9: "Request body of POST /webhook and request shape of DELETE /webhook: not shown."',
    'POST /webhook body `{"url"}`', 'POST /webhook body `{"callbackUrl"}`',
    { 'fields.webhook_url': 'callbackUrl' }],
  ['webhook-post-201', 'webhook-post-status', 'Endpoints: POST /webhook "registers a webhook URL" and answers "accepted" (status not shown).',
    '200 `{email, url}`', '201 `{email, url}`',
    {}],
  ['webhook-post-202', 'webhook-post-status', 'Endpoints: POST /webhook answers "accepted" (status not shown).',
    '200 `{email, url}`', '202 `{email, url}`',
    {}],
  ['webhook-delete-body', 'webhook-delete-request', 'Endpoints rule 9: "request shape of DELETE /webhook: not shown."',
    'DELETE /webhook takes no body', 'DELETE /webhook needs a JSON body naming the URL field (`{"url": ...}`; 422 without)',
    { 'webhook.delete_body': true }],
  ['webhook-delete-query', 'webhook-delete-request', 'Endpoints rule 9: "request shape of DELETE /webhook: not shown."',
    'DELETE /webhook takes no body', 'DELETE /webhook needs the URL as a query parameter (`?url=...`; 422 without)',
    { 'webhook.delete.in': 'query', 'webhook.delete.name': 'url' }],
  ['webhook-delete-form', 'webhook-delete-request', 'Endpoints rule 9: "request shape of DELETE /webhook: not shown."',
    'DELETE /webhook takes no body', 'DELETE /webhook needs the URL in a form body (`application/x-www-form-urlencoded`, `url=...`; 422 without)',
    { 'webhook.delete.in': 'form', 'webhook.delete.name': 'url' }],
  ['webhook-delete-url-null', 'webhook-delete-url', 'Resources / DeleteWebhookResponse: "`url` (string or null, the webhook URL)".',
    '`url` is the URL that was removed (null when none was set)', '`url` is null: no URL is registered any more',
    {}],
  // ---- POST /subscribe "A or B" ----
  ['expired-uid-404', 'expired-indication-uid', 'Errors: "indication uid expired or changed ... | 400 or 404 | Indication not found; or Indication is no longer available for subscription."',
    'a rotated (yesterday\'s) Fixed uid is `400 Indication is no longer available for subscription.`', 'it is `404 Indication not found`',
    {}],
  ['maximum-detail-other', 'maximum-detail', 'Errors: "amount > indication maximum x 1,000,000 | 200 ... or 400, depending on enforceMaximum | not fixed" (detail text).',
    '`400 Amount is above the indication maximum.`', '`400 Requested amount exceeds the maximum for this product.`',
    {}],
  ['detail-texts-other', 'open-detail-texts', 'Errors rules: "The exact detail text for 401 and 404 on other resources: not shown."',
    '401 `Not authenticated` / `Invalid or expired access token` (and the API-key text); 404 `<Resource> not found` or `Not Found` for an unknown route',
    'every 401 is `Authentication credentials were missing or not accepted.` and every 404 `The requested resource could not be found.` (POST /subscribe keeps the Errors table\'s `Indication not found`)',
    {}],
  ['enforce-maximum-renamed', 'enforce-maximum-field', 'Errors rules: "The name of the field or parameter that enforceMaximum refers to: not shown."',
    'the indication field is `enforceMaximum`', 'it is `maximumEnforced`',
    {}],
  ['indication-decimal-strings', 'indication-number-type', 'Resources / Conventions: only event money (decimal strings) and holding/extension numbers (JSON numbers) are fixed; the indication\'s minimum and maximum are "in millions of currency units", type not shown.',
    'minimum and maximum are JSON numbers', 'they are decimal strings (`"0.25"`, `"50"`)',
    {}],
  ['replay-no-header', 'replay-marker', 'Endpoints rule 5: "A retry with the same key replays the cached response"; no replay marker is shown.',
    'a replay carries the header `idempotent-replayed: true`', 'a replay carries no marker header',
    {}],
  ['opaque-ids', 'id-format', 'Resources / Conventions: "Identifiers (uid, holdingUid and similar) are opaque strings."',
    'runtime uids (subscriptions, issued holdings, checkpoints) and indication uids are UUIDs', 'they are non-UUID opaque strings (`id_` + 32 hex digits)',
    {}],
];

export const VARIANTS: readonly VariantInfo[] = Object.freeze(
  ROWS.map(([name, point, spec, dflt, alternate, profile]) => Object.freeze({ name, point, spec, default: dflt, alternate, profile: Object.freeze(profile) })),
);

/** A persona: a documented name standing for a set of variants. */
export interface PersonaInfo {
  name: string;
  description: string;
  variants: readonly string[];
}

/** Variants of one point exclude each other, so "all alternate" takes the first alternate of every point. */
function firstOfEachPoint(): string[] {
  const seen = new Set<string>();
  return VARIANTS.filter((v) => !seen.has(v.point) && seen.add(v.point)).map((v) => v.name);
}

export const PERSONAS: readonly PersonaInfo[] = Object.freeze([
  Object.freeze({
    name: 'all-alternate',
    description: 'every point at once on its first alternate (variants of one point exclude each other)',
    variants: Object.freeze(firstOfEachPoint()),
  }),
  Object.freeze({
    name: 'paged-and-shaped',
    description: 'the paging kinds all-alternate does not take (every list by cursor, subscriptions by page number, holdings by offset/limit) with request shapes it does not take either (DELETE /webhook by query, PUT checkpoint with a form body)',
    variants: Object.freeze(['lists-cursor', 'subscriptions-page-number', 'holdings-offset-limit', 'webhook-delete-query', 'checkpoint-put-form']),
  }),
  // The two below take every alternate the first two leave out, so each variant runs in at least one whole-suite
  // run at once with others (the variant matrix, and the test set of `npm run mutation:code`, where code only a
  // variant reaches is judged by the personas' runs alone).
  Object.freeze({
    name: 'second-alternates',
    description: 'the alternates neither all-alternate nor paged-and-shaped takes, except three paging kinds (lists by page number, subscriptions by cursor, holdings by page number; the other layouts of an indication, a subscribe answer and the checkpoint list; a reset PUT on an existing checkpoint; no total count; POST /webhook 202; DELETE /webhook by form)',
    variants: Object.freeze(['indication-wrapped', 'subscribe-response-minimal', 'checkpoint-list-bare', 'lists-page-number', 'subscriptions-cursor', 'holdings-page-number', 'checkpoint-put-existing-reset', 'total-count-absent', 'webhook-post-202', 'webhook-delete-form']),
  }),
  Object.freeze({
    name: 'last-paging-kinds',
    description: 'the paging kinds no other persona takes: lists by offset/limit, subscriptions by Link header, holdings by cursor',
    variants: Object.freeze(['lists-offset-limit', 'subscriptions-link-header', 'holdings-cursor']),
  }),
]);

export function variantInfo(name: string): VariantInfo | undefined {
  return VARIANTS.find((v) => v.name === name);
}

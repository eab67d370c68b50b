/**
 * The catalogue of injectable faults (issue 5): data only. Each fault is ONE deviation from one rule of the
 * spec, switched on at the one place that rule lives (`faults.on(name)`); `clauses` are the ids of
 * /work/shared/spec/clauses.yaml it breaks, so the mutation matrix can tell "killed for the right reason"
 * (a failing scenario covers one of them) from "killed incidentally".
 *
 * `profile`: the kind of target on which the deviation is observable. Almost all are observable on the
 * sandbox; `production` faults only change a production-mode server and need a production profile to die.
 */
export const FAULT_FAMILIES = ['token', 'permissions', 'idempotency', 'checkpoints', 'paging', 'amounts', 'lifecycle', 'schema', 'others'] as const;
export type FaultFamily = typeof FAULT_FAMILIES[number];

export interface FaultInfo {
  name: string;
  description: string;
  clauses: readonly string[];
  family: FaultFamily;
  profile: 'sandbox' | 'production';
}

type Row = [name: string, family: FaultFamily, clauses: string[], description: string, profile?: 'production'];

const ROWS: Row[] = [
  // ---- token placement and grants (src/reference/auth) ----
  ['token-also-under-base-url', 'token', ['AUTH-TOKEN-ROOT'], 'the token endpoint also answers at {base_url}/oauth/token instead of 404'],
  ['token-only-under-base-url', 'token', ['AUTH-TOKEN-ROOT'], 'the token endpoint moved under {base_url}/oauth/token; {auth_url}/oauth/token is 404'],
  ['client-auth-ignored', 'token', ['AUTH-TOKEN-REQUEST'], 'a known client_id gets a token with any client secret'],
  ['client-secret-optional', 'token', ['AUTH-TOKEN-REQUEST'], 'client authentication checks the secret only when one is presented: HTTP Basic with the client_id and the secret left out (`client_id:`, no client_secret in the form) gets a token'],
  ['token-no-expires-in', 'token', ['AUTH-TOKEN-RESPONSE'], 'the token response has no expires_in'],
  ['token-expires-in-string', 'schema', ['AUTH-TOKEN-RESPONSE'], 'expires_in is a string ("28800"), not a number of seconds'],
  ['expired-token-accepted', 'token', ['AUTH-BEARER'], 'an access token past its expires_in is still accepted'],
  ['token-expiry-grace-10min', 'token', ['AUTH-BEARER'], 'access tokens are accepted for 10 minutes past expires_in (a "clock-skew" leeway far beyond any skew: an expired token keeps working)'],
  ['refresh-token-not-rotated', 'token', ['AUTH-REFRESH-ROTATION'], 'the refresh_token grant returns the presented refresh token again (no rotation)'],
  ['redirect-uri-not-checked', 'token', ['AUTH-CODE-REDIRECT'], 'the code exchange accepts a redirect_uri other than the one used to obtain the code'],
  ['pkce-not-checked', 'token', ['AUTH-CODE-PKCE'], 'the code exchange accepts a missing or wrong code_verifier'],
  ['client-credentials-refresh-token', 'token', ['AUTH-CLIENT-CREDENTIALS'], 'client_credentials also issues a refresh token'],
  ['api-key-refused-in-sandbox', 'token', ['AUTH-API-KEY'], 'the sandbox refuses API keys (401), as if it were production'],
  ['api-key-accepted-in-production', 'token', ['AUTH-API-KEY'], 'production accepts sandbox-style API keys instead of requiring OAuth', 'production'],
  ['unauthorized-body-not-detail', 'schema', ['AUTH-BEARER', 'RES-ERROR-BODY'], '401 bodies are {"error": ...} instead of {"detail": string}'],
  // ---- permissions ----
  ['entity-403-as-200', 'permissions', ['AUTH-ENTITY-403', 'AUTH-EVENT-SCOPE'], 'an entity not on the allow-list is served (200) instead of 403, GET /event filtered by it included (its events)'],
  ['entity-403-as-404', 'permissions', ['AUTH-ENTITY-403'], 'an entity not on the allow-list answers 404 "Entity not found" instead of 403'],
  ['entity-403-detail-changed', 'permissions', ['AUTH-ENTITY-403'], 'the entity 403 says "Forbidden" instead of "Not authorised for this entity"'],
  ['entity-users-not-allow-listed', 'permissions', ['AUTH-ENTITY-403'], 'GET of an entity\'s users serves an entity not on the allow-list (200); every other entity-scoped operation still answers 403'],
  ['readonly-client-can-write', 'permissions', ['AUTH-ENDPOINT-403'], 'a read-only client may call write endpoints'],
  ['readonly-client-can-delete', 'permissions', ['AUTH-ENDPOINT-403'], 'the read-only check knows POST, PUT and PATCH as writes: a read-only client may DELETE (e.g. DELETE /webhook)'],
  ['holding-read-skips-allow-list', 'permissions', ['AUTH-ENTITY-403'], 'GET /holding/{entity_code}/{holding_uid} checks that the holding exists but not the allow-list (the lists do): a holding of a forbidden entity is served, an unknown uid is 404'],
  ['event-filter-skips-allow-list', 'permissions', ['AUTH-EVENT-SCOPE'], 'GET /event with entity_code and event_type together skips the allow-list check of entity_code (the combined read path): the forbidden entity\'s events of that type are served; entity_code alone is still 403'],
  ['event-filter-readonly-skips-allow-list', 'permissions', ['AUTH-EVENT-SCOPE'], 'GET /event with entity_code by a read-only client skips the allow-list check (its reads take a reporting path that checks only the endpoint permission): the forbidden entity\'s events are served to it; the same filter by a full client is still 403'],
  ['holding-read-ignores-entity', 'permissions', ['EP-ENTITY-SCOPE'], 'GET /holding/{entity_code}/{holding_uid} finds the holding by uid alone: a holding of another of the caller\'s entities is served under the entity in the path'],
  ['event-stream-leaks-entities', 'permissions', ['AUTH-EVENT-SCOPE'], 'GET /event without entity_code returns events of every entity, not only the allow-list'],
  // ---- idempotency (POST /subscribe) ----
  ['idempotency-key-optional', 'idempotency', ['EP-SUBSCRIBE-IDEMPOTENCY-KEY'], 'POST /subscribe without Idempotency-Key is processed instead of 400'],
  ['idempotency-no-replay', 'idempotency', ['EP-SUBSCRIBE-REPLAY'], 'a retry with a used key is processed again (a new subscription each time)'],
  ['idempotency-rejections-not-cached', 'idempotency', ['EP-SUBSCRIBE-REPLAY'], 'only successes are cached: a retry of a rejected request is processed again'],
  ['idempotency-replay-status-lost', 'idempotency', ['EP-SUBSCRIBE-REPLAY'], 'a replay always answers 200 (a cached 400 comes back as 200 with its body)'],
  ['idempotency-concurrent-duplicates', 'idempotency', ['EP-SUBSCRIBE-REPLAY'], 'an await between cache lookup and store: concurrent retries with one key create several subscriptions'],
  ['idempotency-window-2ms', 'idempotency', ['EP-SUBSCRIBE-REPLAY'], 'a 2 ms await between cache lookup and store: only retries arriving within 2 ms of each other create several subscriptions'],
  ['idempotency-replay-current-state', 'idempotency', ['EP-SUBSCRIBE-REPLAY'], 'a replay of a successful subscribe re-reads the subscription and answers it as it is now, not the cached response: once the state moved on (issued) the retry shows the new status and holdingUid'],
  ['idempotency-key-not-user-scoped', 'idempotency', ['AUTH-ENTITY-403', 'EP-SUBSCRIBE-REPLAY'], "the replay cache is keyed by Idempotency-Key alone, not (user, key): another user's request with a used key replays the first user's response before any permission check"],
  // ---- checkpoints ----
  ['checkpoint-no-version-check', 'checkpoints', ['EP-CHECKPOINT-CONFLICT'], 'PATCH ignores expectedCheckpointVersion (a stale version wins)'],
  ['checkpoint-cas-not-atomic', 'checkpoints', ['EP-CHECKPOINT-CONFLICT'], 'an await between version check and write: several concurrent PATCHes with one version all get 200'],
  ['checkpoint-cas-window-2ms', 'checkpoints', ['EP-CHECKPOINT-CONFLICT'], 'a 2 ms await between version check and write: only PATCHes arriving within 2 ms of each other all get 200'],
  ['checkpoint-409-without-state', 'checkpoints', ['EP-CHECKPOINT-CONFLICT'], 'the 409 body carries only detail, not the current checkpoint'],
  ['checkpoint-same-cursor-unversioned', 'checkpoints', ['EP-CHECKPOINT-CONFLICT'], 'a PATCH to the cursor the checkpoint already holds is a no-op 200 before the version check: a stale expectedCheckpointVersion is not refused'],
  ['checkpoint-patch-after-delete', 'checkpoints', ['ERR-NOT-FOUND'], 'DELETE only hides a checkpoint from GET (404): a PATCH with its last version still succeeds and brings it back'],
  ['checkpoint-recreate-restores', 'checkpoints', ['EP-CHECKPOINT-CREATE'], 'PUT of a name after its DELETE restores the deleted checkpoint (201 with its old cursor and version) instead of creating one at the current end of the stream'],
  ['checkpoint-put-200-on-create', 'checkpoints', ['EP-CHECKPOINT-CREATE'], 'first creation by PUT answers 200 instead of 201'],
  ['checkpoint-cursor-not-at-end', 'checkpoints', ['EP-CHECKPOINT-CREATE'], 'a new checkpoint points at the event before the newest one (off by one)'],
  ['checkpoint-not-user-scoped', 'checkpoints', ['EP-CHECKPOINT-SCOPE'], 'checkpoints are shared by every user'],
  ['checkpoint-version-unchanged', 'checkpoints', ['EP-CHECKPOINT-CYCLE'], 'a successful PATCH keeps the old checkpointVersion'],
  ['checkpoint-version-prefix-missing', 'schema', ['RES-CHECKPOINT'], 'checkpointVersion lacks the "ec1." prefix'],
  // ---- paging (GET /event) ----
  ['paging-overlap', 'paging', ['EP-EVENT-PAGING'], 'pageEndCursor is the second-to-last event of the page: the next page repeats the last event'],
  ['paging-gap', 'paging', ['EP-EVENT-PAGING', 'EVS-ORDER'], 'start_cursor skips the first event after it: one event is lost between pages'],
  ['start-cursor-inclusive', 'paging', ['EP-EVENT-PAGING', 'EVS-ORDER'], 'start_cursor is inclusive: the event of the cursor is returned again'],
  ['fence-ignored', 'paging', ['EP-EVENT-FENCE'], 'end_cursor is ignored: paging runs past the fence to the head'],
  ['fence-exclusive', 'paging', ['EP-EVENT-FENCE'], 'end_cursor is exclusive: the fence event itself is not returned'],
  ['end-cursor-is-page-end', 'paging', ['EP-EVENT-FENCE'], 'pageInfo.endCursor is the last event of the page, not the head of the stream'],
  ['end-cursor-moving', 'paging', ['EP-EVENT-FENCE'], 'pageInfo.endCursor is a symbolic "head" cursor: used later as end_cursor, the fence has moved to the new head'],
  ['has-next-page-false-early', 'paging', ['EP-EVENT-PAGING'], 'hasNextPage is false when the remaining events fit in one more page'],
  ['has-next-page-true-at-end', 'paging', ['EP-EVENT-PAGING'], 'hasNextPage is true whenever the page is full, also when nothing follows'],
  ['total-count-page-only', 'paging', ['EP-EVENT-TOTAL'], 'totalCount counts the events of the page, not of the whole range'],
  ['events-out-of-order', 'paging', ['EP-EVENT-PAGING', 'EVS-ORDER'], 'the events of a page come newest first'],
  ['page-limit-exceeded', 'paging', ['EP-EVENT-PAGE-LIMIT'], 'a page holds limit + 1 events'],
  ['page-size-off-by-one', 'paging', ['EP-EVENT-PAGING', 'EVS-ORDER'], 'with a limit other than the default page size, pageEndCursor is the event after the last one on the page: one event lost per page (default-size pages are right)'],
  ['fence-by-timestamp', 'paging', ['EP-EVENT-FENCE'], 'end_cursor is compared by the time events were recorded (to the second), not by stream position: events appended after the fence event within the same second pass the fence (observable only with appends after the fence: the control API, or subscribes)'],
  ['fence-first-page-only', 'paging', ['EP-EVENT-FENCE'], 'end_cursor is honoured only on a request without start_cursor: the pages after the first run past the fence'],
  // ---- amounts and dates (POST /subscribe) ----
  ['minimum-in-units', 'amounts', ['ERR-AMOUNT-MIN'], 'the minimum is compared in currency units, not millions (amount 1 is accepted)'],
  ['minimum-boundary-exclusive', 'amounts', ['ERR-AMOUNT-MIN'], 'an amount equal to minimum x 1,000,000 is refused'],
  ['minimum-detail-changed', 'amounts', ['ERR-AMOUNT-MIN'], 'below-minimum detail says "Amount too small." instead of the spec text'],
  ['minimum-as-422', 'amounts', ['ERR-AMOUNT-MIN'], 'an amount below the minimum is answered as a schema failure (422 {detail: [{loc, msg, type}]}) instead of 400'],
  ['minimum-sub-cent-tolerance', 'amounts', ['ERR-AMOUNT-MIN'], 'the minimum is compared with half a cent of slack ("rounding-safe"): an amount a tenth of a cent below minimum x 1,000,000 is accepted (whole-unit and cent steps are still refused)'],
  ['maximum-sub-cent-tolerance', 'amounts', ['ERR-AMOUNT-MAX'], 'an enforced maximum is compared with half a cent of slack: an amount a tenth of a cent above maximum x 1,000,000 is accepted (whole-unit and cent steps are still refused)'],
  ['maximum-not-enforced', 'amounts', ['ERR-AMOUNT-MAX'], 'an indication with enforceMaximum accepts amounts above the maximum (manual review)'],
  ['amount-sign-dropped', 'amounts', ['ERR-AMOUNT-MIN'], 'the sign of amount is dropped: a negative amount passes the body schema and is read as its magnitude, so -(minimum x 1,000,000) is accepted as a subscription of minimum x 1,000,000'],
  ['subscription-date-not-validated', 'amounts', ['ERR-SUBSCRIPTION-DATE'], 'any well-formed subscriptionDate is accepted, listed or not'],
  ['subscription-date-cutoff-not-checked', 'amounts', ['ERR-SUBSCRIPTION-DATE'], "today's date is accepted as subscriptionDate after today's cut-off (the check compares calendar days, not the cut-off)"],
  ['expired-indication-uid-accepted', 'amounts', ['ERR-INDICATION-UID'], "yesterday's (rotated) uid of a Fixed indication is accepted"],
  // ---- lifecycle ----
  ['issued-at-request-time', 'lifecycle', ['ST-ISSUE-AFTER-CUTOFF'], 'a subscription is issued at the next request instead of after its cut-off'],
  ['issued-seconds-after-request', 'lifecycle', ['ST-ISSUE-AFTER-CUTOFF'], 'a subscription is issued 3 seconds after the request (on the clock) instead of after its cut-off: a read right after the request still shows it Pending'],
  ['holding-uid-set-early', 'lifecycle', ['ST-HOLDING-AFTER-SUBSCRIPTION', 'EP-SUBSCRIPTION-LIST'], 'holdingUid is set when the subscription is created, before the holding exists'],
  ['cutoff-compared-in-utc', 'lifecycle', ['ST-ISSUE-AFTER-CUTOFF', 'ERR-SUBSCRIPTION-DATE'], "the cut-off is compared as the product's wall-clock cutoffTime read in UTC, not in its zone (cutoffDatetime still shows the right instant): east of Greenwich a date stays open and accepts subscriptions after its cut-off, west of it subscriptions are issued before their cut-off (needs the clock: control API)"],
  ['late-funding-not-moving-date', 'lifecycle', ['ST-LATE-FUNDING'], 'late funding is treated as on time: issued on the original date'],
  ['default-date-wrong', 'lifecycle', ['ST-DEFAULT-DATE'], 'an omitted subscriptionDate defaults to the second available date, not today'],
  ['default-date-ignores-cutoff', 'lifecycle', ['ST-DEFAULT-DATE'], "an omitted subscriptionDate is today also after today's cut-off (not moved to the next available date)"],
  // ---- schema of responses ----
  ['event-money-as-number', 'schema', ['RES-DECIMAL'], 'event money and rate fields are JSON numbers, not decimal strings'],
  ['holding-number-as-string', 'schema', ['RES-NUMBER', 'RES-HOLDING'], 'Holding.cost is a string, not a number'],
  ['holding-missing-cell-code', 'schema', ['RES-HOLDING'], 'Holding lacks the required cellCode'],
  ['holding-status-lowercase', 'schema', ['RES-HOLDING-STATUS', 'RES-HOLDING'], 'Holding.status is lower case ("issued")'],
  ['holding-date-with-time', 'schema', ['RES-DATE', 'RES-HOLDING'], 'Holding.issueDate carries a time ("2026-03-02T00:00:00Z")'],
  ['event-cursor-prefix-missing', 'schema', ['RES-EVENT-COMMON', 'RES-CHECKPOINT'], 'event cursors lack the "ev1." prefix'],
  ['validation-detail-string', 'schema', ['RES-VALIDATION-ERROR', 'ERR-VALIDATION-422'], '422 bodies carry detail as a string, not [{loc, msg, type}]'],
  ['validation-detail-string-checkpoints', 'schema', ['RES-VALIDATION-ERROR', 'ERR-VALIDATION-422'], '422 bodies of the checkpoint routes (/event/checkpoint...) carry detail as a string; every other 422 keeps [{loc, msg, type}]'],
  ['validation-detail-string-queries', 'schema', ['RES-VALIDATION-ERROR', 'ERR-VALIDATION-422'], '422 answers to bad query or path values carry detail as a string; a 422 for a body keeps [{loc, msg, type}] (only a should-level scenario meets it: the must-level rule of the 422 layout must still fail the run)'],
  ['unknown-event-type', 'schema', ['RES-EVENT-TYPE'], 'SUBSCRIBED events are sent as eventType "SUBSCRIPTION_CREATED"'],
  ['finalized-false', 'schema', ['RES-EVENT-FINALIZED'], 'FINALIZED events carry finalized: false'],
  // ---- others ----
  ['health-body-wrong', 'others', ['RES-HEALTH'], 'GET /health answers {"ok": true} instead of {status}'],
  ['webhook-not-user-scoped', 'others', ['EP-WEBHOOK'], 'one webhook registration for every user: DELETE /webhook answers (and removes) the URL another user registered last'],
  ['webhook-reregister-keeps-old', 'others', ['EP-WEBHOOK'], 'DELETE /webhook only deactivates the registration; a POST after it reactivates the old record with its old URL instead of the new one: the next DELETE answers the URL deregistered before'],
  ['webhook-delete-shape-wrong', 'others', ['RES-WEBHOOK-DELETE', 'EP-WEBHOOK'], 'DELETE /webhook answers {"deleted": true} without email'],
  ['server-error-on-bad-input', 'others', ['ERR-NO-SERVER-ERROR'], 'a malformed JSON body answers 500 instead of 400'],
  ['unknown-resource-200-null', 'others', ['ERR-NOT-FOUND', 'EP-HOLDING-GET'], 'an unknown holding uid answers 200 null instead of 404'],
];

export const FAULTS: readonly FaultInfo[] = Object.freeze(
  ROWS.map(([name, family, clauses, description, profile]) => Object.freeze({ name, family, clauses: Object.freeze(clauses), description, profile: profile ?? 'sandbox' })),
);

export function faultInfo(name: string): FaultInfo | undefined {
  return FAULTS.find((f) => f.name === name);
}

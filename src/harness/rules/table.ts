/**
 * The response rules (issue 13): data only. A rule applies to EVERY response the engine records under
 * {base_url} whose status (and, for some, request) matches; it judges the body and its check carries the
 * rule's clause ids, whatever scenario provoked the response. `rules/apply.ts` evaluates the table.
 *
 * What a rule may demand is what the spec fixes for that status, and no more:
 *   - a layout rule takes the body shape from the operation map (schemas/operations.yaml `defaults.api` /
 *     `unmatched.api`: 400/401/403/404 -> error `{detail: string}`, 422 -> validation-error), so the shape
 *     lives in one place; the rule adds that it is judged on every response, with its clauses;
 *   - a detail rule names the spec's exact texts, only where the Errors table fixes them (never 401/404
 *     texts, "not shown"; never the above-maximum text, "not fixed"; never the expired-uid status, "400 or 404").
 * Rules are keyed on the status the target answered: they never demand a status (a scenario does that), so
 * "200 or 400" choices and spec-silent statuses (409 with the current state, 413, 415, 5xx) meet no rule.
 */

/** The two texts the spec fixes for 403 (Errors / specific cases); a 403 is one of the two causes. */
export const ENTITY_FORBIDDEN_TEXT = 'Not authorised for this entity';
export const ENDPOINT_FORBIDDEN_TEXT = 'Endpoint not enabled for this API user.';
export const IDEMPOTENCY_KEY_REQUIRED_TEXT = 'Idempotency-Key header is required.';

/** Which responses a rule judges. Every field given must hold. */
export interface RuleScope {
  /** Statuses the target answered. */
  statuses: readonly number[];
  /** Request method (exact, upper case). */
  method?: string;
  /** Request path relative to {base_url} (exact; the spec shows it). */
  path?: string;
  /** The request carried no such header (lower case). */
  withoutHeader?: string;
}

export type RuleJudge =
  /** The body satisfies the operation map's schema for this status (the failure layout). */
  | { kind: 'layout' }
  /** `detail` is exactly one of these texts. */
  | { kind: 'detail'; texts: readonly string[] };

export interface ResponseRule {
  id: string;
  when: RuleScope;
  judge: RuleJudge;
  /** Clause ids (shared/spec/clauses.yaml) a failure of this rule breaks. */
  clauses: readonly string[];
  /**
   * A failure shows that one of `clauses` broke, not which (the response alone cannot tell): each is "in doubt"
   * with the others unless another check proves one (report/verdicts/verdicts.ts).
   */
  inDoubt?: true;
  /** The spec's words the rule rests on (for docs and failure messages). */
  spec: string;
}

export const RESPONSE_RULES: readonly ResponseRule[] = Object.freeze([
  {
    id: 'validation-layout',
    when: { statuses: [422] },
    judge: { kind: 'layout' },
    clauses: ['RES-VALIDATION-ERROR', 'ERR-VALIDATION-422'],
    spec: 'Errors: "Validation failures (422) give {detail: [ {loc: array, msg: string, type: string} ]}."',
  },
  {
    id: 'detail-layout',
    when: { statuses: [400, 401, 403, 404] },
    judge: { kind: 'layout' },
    clauses: ['RES-ERROR-BODY'],
    spec: 'Errors: "Failure body: {detail: string}."',
  },
  {
    id: 'forbidden-detail',
    when: { statuses: [403] },
    judge: { kind: 'detail', texts: [ENTITY_FORBIDDEN_TEXT, ENDPOINT_FORBIDDEN_TEXT] },
    clauses: ['AUTH-ENTITY-403', 'AUTH-ENDPOINT-403'],
    // A 403 alone does not say whether the entity or the endpoint was refused: the scenario's own detail check names it.
    inDoubt: true,
    spec: `Errors: "403 | valid token without permission for the entity or endpoint"; specific cases: 403 "${ENTITY_FORBIDDEN_TEXT}", 403 "${ENDPOINT_FORBIDDEN_TEXT}"`,
  },
  {
    id: 'idempotency-key-detail',
    when: { statuses: [400], method: 'POST', path: '/subscribe', withoutHeader: 'idempotency-key' },
    judge: { kind: 'detail', texts: [IDEMPOTENCY_KEY_REQUIRED_TEXT] },
    clauses: ['EP-SUBSCRIBE-IDEMPOTENCY-KEY'],
    spec: `Errors / specific cases: "Idempotency-Key header missing on POST /subscribe | 400 | ${IDEMPOTENCY_KEY_REQUIRED_TEXT}"`,
  },
] satisfies ResponseRule[]);

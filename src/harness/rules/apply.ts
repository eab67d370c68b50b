/**
 * Applies the response rules (rules/table.ts) to one recorded exchange. The engine calls this for every
 * response under {base_url} (exchange.ts finishExchange), like the schema check; each applicable rule gives
 * one CheckResult named `rule:<id>` whose clauses are the rule's own, so a failure counts against those
 * clauses in the outcome record (and in the fault matrix), whichever scenario provoked the response.
 *
 * Layout rules reuse the schema check against the operation map (the ONE place failure shapes are mapped;
 * a status the map gives no schema meets no layout rule); `layoutJudged` tells the caller that the body shape is already judged, so the plain auto schema check of
 * the same body is not run twice.
 */
import { checkSchema } from '../checks/schema.js';
import { describeExchange, excerpt, identity, type Redact } from '../checks/excerpt.js';
import { result, type CheckedResponse, type CheckResult } from '../checks/types.js';
import type { SchemaRegistry } from '../schemas/types.js';
import { RESPONSE_RULES, type ResponseRule } from './table.js';

export interface RuleInput {
  response: CheckedResponse;
  /** Request headers as sent (lower-case names). */
  requestHeaders: Readonly<Record<string, string>>;
  base: 'api' | 'auth' | 'control';
  /** Request path relative to its base, without the query. */
  pathname: string;
  registry: SchemaRegistry;
  redact?: Redact;
}

export interface RuleOutcome {
  checks: CheckResult[];
  /** A layout rule judged the body against the operation map (the auto schema check would repeat it). */
  layoutJudged: boolean;
}

/** The rules that apply to this exchange (only {base_url} responses: the token endpoint's errors are OAuth's, the control API is not the spec's). */
export function applicableRules(input: Pick<RuleInput, 'response' | 'requestHeaders' | 'base' | 'pathname'>, rules: readonly ResponseRule[] = RESPONSE_RULES): ResponseRule[] {
  if (input.base !== 'api') return [];
  return rules.filter(({ when }) =>
    when.statuses.includes(input.response.status)
    && (when.method === undefined || when.method === input.response.method.toUpperCase())
    && (when.path === undefined || when.path === input.pathname)
    && (when.withoutHeader === undefined || input.requestHeaders[when.withoutHeader] === undefined));
}

export function applyResponseRules(input: RuleInput, rules: readonly ResponseRule[] = RESPONSE_RULES): RuleOutcome {
  const checks: CheckResult[] = [];
  let layoutJudged = false;
  for (const rule of applicableRules(input, rules)) {
    const check = judge(rule, input);
    if (check === undefined) continue;
    if (rule.judge.kind === 'layout') layoutJudged = true;
    checks.push({ ...check, clauses: [...rule.clauses], ...(rule.inDoubt ? { doubt: true } : {}) });
  }
  return { checks, layoutJudged };
}

function judge(rule: ResponseRule, input: RuleInput): CheckResult | undefined {
  const name = `rule:${rule.id}`;
  const redact = input.redact ?? identity;
  const { response: r } = input;
  if (rule.judge.kind === 'layout') {
    // The layout is the operation map's schema for this status; where the map gives none, the rule has nothing
    // to judge (the auto schema check reports an unlisted status).
    if (input.registry.matchOperation(r.method, input.pathname, 'api', r.status)?.schemaId === undefined) return undefined;
    const schema = checkSchema({ response: r, registry: input.registry, mode: 'auto', base: 'api', pathname: input.pathname, redact });
    if (schema === undefined) return undefined;
    return { ...schema, check: name, message: schema.passed ? schema.message : `${rule.id} (${rule.spec}): ${schema.message}` };
  }
  const texts = rule.judge.texts;
  const detail = isRecord(r.body) ? r.body.detail : undefined;
  const expected = texts.map((t) => JSON.stringify(t)).join(' or ');
  if (typeof detail === 'string' && texts.includes(detail)) return result(name, true, 'must', expected, JSON.stringify(detail), `detail is ${JSON.stringify(detail)}`);
  const actual = typeof detail === 'string' ? JSON.stringify(redact(detail)) : `no detail string (${excerpt(r.text, redact, 120)})`;
  return result(name, false, 'must', expected, actual,
    `${describeExchange(r, redact)}: ${rule.id} (${rule.spec}): detail must be ${expected}, got ${actual}`);
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

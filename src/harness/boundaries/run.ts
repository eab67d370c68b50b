/**
 * Runs the amount boundary cases against a target: for each indication the profile names for an amount role
 * (primary, fractional_minimum, enforced_maximum, unenforced_maximum; each code once), reads its minimum and
 * maximum, sends every case of amounts.ts as POST /subscribe with a new Idempotency-Key (the amount written digit
 * for digit into the JSON body) and judges the answers by their clause (judge.ts). The answers' schema mismatches
 * are checks too. Returns every check result; nothing is thrown for a non-conformance.
 */
import { randomUUID } from 'node:crypto';
import { Decimal } from 'decimal.js';
import type { CheckResult } from '../checks/types.js';
import type { ResolvedTarget } from '../target/types.js';
import { RawJson, type ModelApi } from '../properties/model/api.js';
import { amountBoundaries, describeCase, jsonNumber } from './amounts.js';
import { judgeBoundaries, type Reply } from './judge.js';

export const AMOUNT_ROLES = ['primary', 'fractional_minimum', 'enforced_maximum', 'unenforced_maximum'] as const;

/** The profile's indications of the amount roles, each code once, with what the profile says of its maximum. */
export function boundaryIndications(target: ResolvedTarget): Array<{ code: string; enforced: boolean | undefined }> {
  const codes = [...new Set(AMOUNT_ROLES.map((r) => target.indications[r]).filter((c): c is string => typeof c === 'string'))];
  return codes.map((code) => ({
    code,
    enforced: target.indications.enforced_maximum === code ? true : target.indications.unenforced_maximum === code ? false : undefined,
  }));
}

export interface BoundaryRun {
  checks: CheckResult[];
  requests: number;
}

export async function runAmountBoundaries(api: ModelApi, target: ResolvedTarget): Promise<BoundaryRun> {
  const entity = target.entities.allowed[0] as string;
  const field = target.fields.subscribe_indication_uid ?? 'indicationUid';
  const checks: CheckResult[] = [];
  let requests = 0;
  for (const { code, enforced } of boundaryIndications(target)) {
    const p = await api.product(code, entity);
    requests++;
    const cases = amountBoundaries({ minimum: new Decimal(p.minimumUnits), maximum: p.maximumUnits === undefined ? undefined : new Decimal(p.maximumUnits) });
    const results: Array<{ c: (typeof cases)[number]; r: Reply }> = [];
    for (const c of cases) {
      const body = new RawJson(`{${JSON.stringify(field)}:${JSON.stringify(p.uid)},"entityCode":${JSON.stringify(entity)},"amount":${jsonNumber(c.amount)}}`);
      const a = await api.subscribe(randomUUID(), body, `boundary ${code}: ${describeCase(c)}`);
      requests++;
      results.push({ c, r: a });
      if (a.schema) {
        checks.push({ check: 'schema', passed: false, severity: 'must', expected: 'the operation map\'s schema', actual: a.schema.message, message: `${code}: ${describeCase(c)}: ${a.schema.message}`, clauses: ['EP-SUBSCRIBE-BODY'], step: `${code}: ${describeCase(c)}` });
      }
    }
    checks.push(...judgeBoundaries(code, results, enforced));
  }
  return { checks, requests };
}

/**
 * Judges the answers to the amount boundary cases (amounts.ts), each by the clause of its bound, as check results
 * naming that clause. What the spec leaves open is accepted in every reading, applied consistently:
 * - the precision of `amount` is not shown: a target may refuse sub-cent amounts as such (400 with another detail,
 *   or 422); then the sub-cent amounts beyond a bound may get that same refusal instead of the bound's answer. A
 *   sub-cent amount within both limits refused as below the minimum is wrong whatever the reading;
 * - a negative amount is below the minimum; the body schema is not shown, so refusing the sign as such (422, or 400
 *   with another detail) is a refusal too: only serving it breaks the clause;
 * - above the maximum: 400 where the profile names the indication enforced, 200 where unenforced, otherwise one
 *   of the two, the same for every amount above the maximum of that indication.
 */
import type { CheckResult } from '../checks/types.js';
import { describeCase, type BoundaryCase } from './amounts.js';

export interface Reply {
  status: number;
  text: string;
  json: unknown;
}

export const BELOW_MINIMUM_DETAIL = 'Amount is below the indication minimum.';

const detailOf = (r: Reply): unknown => (typeof r.json === 'object' && r.json !== null ? (r.json as { detail?: unknown }).detail : undefined);
const shown = (r: Reply): string => `${r.status} ${r.text.length > 160 ? `${r.text.slice(0, 160)}…` : r.text}`;

/** A refusal of the amount's precision: not a limit's answer (400 with another detail, or 422). */
function precisionRefusal(r: Reply): boolean {
  return (r.status === 400 && typeof detailOf(r) === 'string' && detailOf(r) !== BELOW_MINIMUM_DETAIL) || r.status === 422;
}

/** `enforced`: the profile names the indication as enforced_maximum (true), unenforced_maximum (false), or neither. */
export function judgeBoundaries(code: string, results: ReadonlyArray<{ c: BoundaryCase; r: Reply }>, enforced: boolean | undefined): CheckResult[] {
  const subCentInRange = results.filter((x) => x.c.scale === 'sub-cent' && x.c.expect === 'accepted');
  // The target's sub-cent reading, from the amounts within both limits: refused as such -> the statuses it used.
  const refusedStatuses = new Set(subCentInRange.filter((x) => precisionRefusal(x.r)).map((x) => x.r.status));
  const aboveStatuses = new Set(results.filter((x) => x.c.expect === 'above-maximum' && !(x.c.scale === 'sub-cent' && refusedStatuses.has(x.r.status))).map((x) => x.r.status));
  return results.map(({ c, r }) => {
    const what = `${code}: ${describeCase(c)}`;
    const subCentRefused = c.scale === 'sub-cent' && refusedStatuses.has(r.status) && precisionRefusal(r);
    let expected: string;
    let ok: boolean;
    switch (c.expect) {
      case 'below-minimum':
        expected = `400 "${BELOW_MINIMUM_DETAIL}"${c.scale === 'sub-cent' && refusedStatuses.size ? ' (or the target\'s refusal of sub-cent amounts)' : ''}`;
        ok = (r.status === 400 && detailOf(r) === BELOW_MINIMUM_DETAIL) || subCentRefused;
        break;
      case 'negative':
        // Below the minimum; a target may refuse the sign before the limit (422, or 400 with its own detail).
        expected = `400 "${BELOW_MINIMUM_DETAIL}" (or a refusal of the negative amount as such: 422, or 400 with {detail})`;
        ok = (r.status === 400 && typeof detailOf(r) === 'string') || r.status === 422;
        break;
      case 'accepted':
        expected = c.scale === 'sub-cent' ? '200 (or a refusal of sub-cent amounts as such: 422, or 400 with a detail other than the minimum\'s)' : '200: not beyond either limit';
        ok = r.status === 200 || (c.scale === 'sub-cent' && precisionRefusal(r));
        break;
      default: {
        const want = enforced === true ? [400] : enforced === false ? [200] : [200, 400];
        expected = `${want.join(' or ')}${enforced === undefined ? ', the same for every amount above the maximum' : ''}${c.scale === 'sub-cent' && refusedStatuses.size ? ' (or the target\'s refusal of sub-cent amounts)' : ''}`;
        ok = subCentRefused || (want.includes(r.status) && (enforced !== undefined || aboveStatuses.size === 1));
        if (ok && r.status === 400 && typeof detailOf(r) !== 'string') ok = false;
      }
    }
    return {
      check: 'boundary',
      passed: ok,
      severity: 'must',
      expected,
      actual: shown(r),
      message: ok ? `${what} answered ${r.status}` : `${what} answered ${shown(r)}, expected ${expected}`,
      clauses: [c.clause],
      step: what,
    };
  });
}

/** The graders, one per CL-* clause, by duty area (areas.ts): adding a duty is a module and one line here. */
import type { ClientDutyArea } from '../areas.js';
import type { Grader } from '../types.js';
import { codeExchange, refreshRotated } from './code-grant.js';
import { checkpointConflict, checkpointCycle, eventPaging, eventResume } from './events.js';
import { pollInterval, pollStop } from './polling.js';
import { amountUnits, entityCode, idemKey, idemNewKey, idemRetrySameKey, indicationCurrent, noRetry403, retryBackoff, subscriptionDate } from './subscribe.js';
import { bearer, refreshBeforeExpiry, renewAfter401, tokenRequest, tokenReuse, tokenRoot } from './tokens.js';

export const GRADERS_BY_AREA: Readonly<Record<ClientDutyArea, readonly Grader[]>> = {
  tokens: [tokenRoot, tokenRequest, bearer, tokenReuse, refreshBeforeExpiry, renewAfter401],
  'code-grant': [refreshRotated, codeExchange],
  subscribing: [idemKey, idemRetrySameKey, idemNewKey, indicationCurrent, amountUnits, subscriptionDate, entityCode, noRetry403, retryBackoff],
  polling: [pollInterval, pollStop],
  events: [eventPaging, eventResume, checkpointCycle, checkpointConflict],
};

export const GRADERS: readonly Grader[] = Object.values(GRADERS_BY_AREA).flat();

/** The duty area of a clause (by its grader), undefined for a clause no grader judges. */
export function areaOf(clause: string): ClientDutyArea | undefined {
  return (Object.entries(GRADERS_BY_AREA) as Array<[ClientDutyArea, readonly Grader[]]>).find(([, graders]) => graders.some((g) => g.clause === clause))?.[0];
}

/** The graders, one per CL-* clause: adding a duty is a module and one line here. */
import type { Grader } from '../types.js';
import { codeExchange, refreshRotated } from './code-grant.js';
import { checkpointConflict, checkpointCycle, eventPaging, eventResume } from './events.js';
import { pollInterval, pollStop } from './polling.js';
import { amountUnits, entityCode, idemKey, idemNewKey, idemRetrySameKey, indicationCurrent, noRetry403, retryBackoff, subscriptionDate } from './subscribe.js';
import { bearer, refreshBeforeExpiry, renewAfter401, tokenRequest, tokenReuse, tokenRoot } from './tokens.js';

export const GRADERS: readonly Grader[] = [
  tokenRoot, tokenRequest, bearer, tokenReuse, refreshBeforeExpiry, renewAfter401, refreshRotated, codeExchange,
  idemKey, idemRetrySameKey, idemNewKey, indicationCurrent, amountUnits, subscriptionDate, entityCode, noRetry403, retryBackoff,
  pollInterval, pollStop,
  eventPaging, eventResume, checkpointCycle, checkpointConflict,
];

/**
 * The areas of the client duties (client-clauses.yaml's sections), one grader module each. Reports group the
 * CL-* verdicts by them: the Allure feature of a clause, and the failure categories (report/outputs/allure.ts).
 */
export const CLIENT_DUTY_AREAS = [
  { slug: 'tokens', name: 'tokens and authentication' },
  { slug: 'code-grant', name: 'Code Authorisation' },
  { slug: 'subscribing', name: 'subscribing (keys, retries, amounts)' },
  { slug: 'polling', name: 'polling a new subscription' },
  { slug: 'events', name: 'event stream and checkpoints' },
] as const;

export type ClientDutyArea = (typeof CLIENT_DUTY_AREAS)[number]['slug'];

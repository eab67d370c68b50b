// The example client's choices and fault switches. Each fault breaks exactly one duty: `selftest --clients`
// runs the client with each and checks that the grader of that clause, and only it, finds the breach.
export const CHOICES = {
  // Doubling backoff, a server-side checkpoint, polling every 35 plan seconds.
  default: { backoff: 'doubling', checkpoint: true, pollSeconds: 35 },
  // Other permitted choices: equal-jitter backoff, a cursor kept by the client, polling every 45 plan seconds.
  alternate: { backoff: 'equalJitter', checkpoint: false, pollSeconds: 45 },
};

/** fault switch -> the clause it breaks. */
export const FAULTS = {
  'new-key-on-retry': 'CL-IDEM-RETRY-SAME-KEY',
  'same-key-changed-body': 'CL-IDEM-NEW-KEY',
  'key-not-uuid': 'CL-IDEM-KEY',
  'token-per-request': 'CL-TOKEN-REUSE',
  'retry-refused-token': 'CL-401-RENEW',
  'reuse-refresh-token': 'CL-REFRESH-ROTATED',
  'retry-403': 'CL-NO-RETRY-403',
  'tight-retry': 'CL-RETRY-BACKOFF',
  'poll-every-second': 'CL-POLL-INTERVAL',
  'poll-after-issued': 'CL-POLL-STOP',
  'restart-stream': 'CL-EVENT-RESUME',
  'stale-patch-after-409': 'CL-CHECKPOINT-CONFLICT',
  'amount-in-millions': 'CL-AMOUNT-UNITS',
  'token-under-base-url': 'CL-TOKEN-ROOT',
  'api-key-in-production': 'CL-BEARER',
};

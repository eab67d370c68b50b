/**
 * The fault matrix against a sandbox WITHOUT the control API (`selftest --mode no-control`): every project
 * loads fixtures/targets/reference-no-control.yaml (the launcher starts the reference without /_sandbox, its
 * clock in real time). Faults whose deviation only shows once the clock moves (a day passes, a cut-off passes,
 * funding arrives late) cannot be observed there: they are listed here with the reason and not run in that
 * mode; every other fault must die, killed by a scenario that runs without a clock.
 */
export const NO_CONTROL_PROFILE = 'fixtures/targets/reference-no-control.yaml';

/** Fault -> why no clock-less scenario can observe it (the run would take a day, or a cut-off that is not in the run). */
export const CLOCK_ONLY_FAULTS: Readonly<Record<string, string>> = Object.freeze({
  'late-funding-not-moving-date': 'needs funding delayed past a cut-off, then the holding issued (funding control + clock)',
  'default-date-wrong': 'the defaulted date shows only on the issued holding, after that date\'s cut-off has passed (clock)',
  'default-date-ignores-cutoff': 'shows only when a subscription is made after today\'s cut-off and its holding is issued: a time of day the run does not choose, then a cut-off (clock)',
  'subscription-date-cutoff-not-checked': 'today\'s date is wrongly accepted only after today\'s cut-off: a time of day the run does not choose (clock)',
  'cutoff-compared-in-utc': 'the wrong zone shows only between the true cut-off and the one read in UTC: an hour of the day the run does not choose (clock)',
});

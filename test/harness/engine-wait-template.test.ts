/**
 * Issue 13: a `wait` step's `ms` computed from the profile (`target.timing`), as token.expiry-realtime waits a
 * short-lived token out. The clock is injected (no real time passes); a computed value outside 1..60000 is a
 * step error, like the schema's bound on a literal.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeTarget, run, scenarioFromYaml } from './engine-helpers.js';

const scenario = (ms: string) => scenarioFromYaml(`
id: t.wait
title: waiting
covers: [T-ONE]
steps:
  - set: { lifetime: 3 }
  - wait: { ms: '${ms}' }
`);

/** A fake clock: sleep advances it; returns the total time slept. */
function fakeClock(): { now: () => number; sleep: (ms: number) => Promise<void>; slept: () => number } {
  let t = 1_000_000;
  let total = 0;
  return { now: () => t, sleep: async (ms) => { t += ms; total += ms; }, slept: () => total };
}

describe('wait with a computed ms', () => {
  it('waits exactly the value computed from target.timing', async () => {
    const clock = fakeClock();
    const target = { ...makeTarget('http://127.0.0.1:9'), timing: { shortLivedTokenMaxS: 3, expiryLeewayS: 2 } };
    const r = await run(scenario('$' + '{num((lifetime + target.timing.expiry_leeway_s) * 1000)}'), target, { now: clock.now, sleep: clock.sleep });
    assert.equal(r.error, undefined, r.error?.message);
    assert.equal(clock.slept(), 5000);
  });

  it('a computed value outside 1..60000 fails the step, naming it', async () => {
    const clock = fakeClock();
    const r = await run(scenario('$' + '{num(lifetime * 100000)}'), makeTarget('http://127.0.0.1:9'), { now: clock.now, sleep: clock.sleep });
    assert.equal((r.error as { code?: string } | undefined)?.code, 'FTF_E_STEP_FAILED');
    assert.match(r.error?.message ?? '', /not an integer from 1 to 60000/);
    assert.equal(clock.slept(), 0);
  });
});

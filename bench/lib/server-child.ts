/**
 * Child process: the reference server with `count` synthetic events visible to alice (ENT-ALPHA, ENT-BETA)
 * on top of the seeded history, launched like every embedded server (src/embedded/launch.ts) for the
 * reference profile. Sends { env, head, holding } over IPC: env carries the URLs and, under the profile's
 * variable names, the generated secrets (never printed); the traversal child resolves the same profile from
 * it; holding is the API path of one of alice's holdings (bench/real-path.ts GETs it).
 * Closes on the parent's 'close' message or when the parent goes away.
 */
import { launchEmbedded } from '../../src/embedded/launch.js';
import { REFERENCE_PROFILE } from '../../src/harness/target/load.js';
import { readProfile } from '../../src/harness/target/profile.js';

const count = Number(process.argv[2] ?? 100_000);
let head = 0;
let holding = '';
const launch = await launchEmbedded(readProfile(REFERENCE_PROFILE), {
  server: { seed: 1 },
  prepare: ({ domain }) => {
    domain.appendSynthetic(count, ['ENT-ALPHA', 'ENT-BETA']);
    head = domain.store.head;
    const h = domain.holdingsOf('ENT-ALPHA')[0];
    if (h) holding = `/holding/${encodeURIComponent(h.entityCode)}/${encodeURIComponent(h.uid)}`;
  },
});
process.send?.({ env: launch.env, head, holding });
const stop = (): void => {
  void launch.close().then(() => process.exit(0));
};
process.on('message', (m) => {
  if (m === 'close') stop();
});
process.on('disconnect', stop);

/**
 * `selftest`: the mutation matrix (clean reference + every fault; `npm run mutation`), or with `--variants`
 * the variant matrix (clean reference + every conformant variant; `npm run variants`).
 */
import { runMutationCli, USAGE } from '../../selftest/mutation.js';
import { runVariantCli, VARIANT_USAGE, wantsVariants } from '../../selftest/variant-cli.js';
import type { Command } from './types.js';

export const selftestCommand: Command = {
  summary: 'prove the harness: catch every fault (mutation matrix), or pass every conformant variant (--variants)',
  usage: `${USAGE.replace(/^usage: ftf-conformance /, '')}\n       ${VARIANT_USAGE.replace(/^usage: ftf-conformance /, '')}`,
  run: (argv) => (wantsVariants(argv) ? runVariantCli(argv) : runMutationCli(argv)),
};

/** `selftest`: the mutation matrix (clean reference + every injected fault); `npm run mutation` calls it. */
import { runMutationCli, USAGE } from '../../selftest/mutation.js';
import type { Command } from './types.js';

export const selftestCommand: Command = {
  summary: 'prove the harness catches non-conformance: run the suite against the clean reference and every fault',
  usage: USAGE.replace(/^usage: ftf-conformance /, ''),
  run: (argv) => runMutationCli(argv),
};

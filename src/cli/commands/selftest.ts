/** `selftest`: the mutation matrix (clean reference + every injected fault), the same as `npm run mutation`. */
import { runMutationCli } from '../../selftest/mutation.js';
import type { Command } from './types.js';

export const selftestCommand: Command = {
  summary: 'prove the harness catches non-conformance: run the suite against the clean reference and every fault',
  usage: 'selftest [--faults a,b,c | --subset ci|all] [--workers N] [--full] [--write-docs]',
  run: (argv) => runMutationCli(argv),
};

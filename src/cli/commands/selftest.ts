/**
 * `selftest`: the mutation matrix (clean reference + every fault; `npm run mutation`), or with `--variants`
 * the variant matrix (clean reference + every conformant variant; `npm run variants`).
 */
import { runMutationCli, USAGE } from '../../selftest/mutation.js';
import { runVariantCli, VARIANT_USAGE, wantsVariants } from '../../selftest/variant-cli.js';
import { CLIENT_MATRIX_USAGE } from '../../selftest/client-matrix.js';
import { assertReferenceInstalled } from '../../embedded/reference-packages.js';
import type { Command } from './types.js';

export const selftestCommand: Command = {
  summary: 'prove the harness: catch every fault (mutation matrix), or pass every conformant variant (--variants)',
  help: {
    synopsis: [USAGE.replace(/^usage: ftf-conformance /, ''), VARIANT_USAGE.replace(/^usage: ftf-conformance /, ''), CLIENT_MATRIX_USAGE.replace(/^usage: ftf-conformance /, '')],
    description: 'The fault matrix: the suite against the clean reference and against every injected fault (or the named ones, or the CI subset); prints fault -> failing scenarios -> verdict and writes reports/mutation.json (docs/mutation.md for the whole matrix or with --write-docs). '
      + 'With --variants the variant matrix instead: every conformant variant must pass (reports/variants.json, docs/variants-matrix.md). '
      + 'With --clients the client fault matrix (docs/client-conformance.md): the example client clean, with its alternate choices, and with each fault switch, graded on plan full (reports/client-matrix.json). '
      + 'Exit 0 when the clean run has no failure and every fault is killed for the right reason (every variant passes), 1 otherwise, 2 for bad flags.',
    flags: [
      { flag: '--faults', value: 'a,b,c', text: 'only these faults (names: src/reference/faults.ts)' },
      { flag: '--subset', value: 'ci|all', text: 'the fixed CI subset or every fault (variant)', default: 'all' },
      { flag: '--mode', value: 'reference|no-control', text: 'no-control: the reference as a sandbox without the control API (fixtures/targets/reference-no-control.yaml); faults only a clock can show are listed as not run, with the reason, and do not decide the exit code; never rewrites the kill table of docs/mutation.md (with --write-docs: its own section `no-control` at the end)', default: 'reference' },
      { flag: '--grep', value: 'RE', text: 'only tests whose title matches, in every project of both passes (e.g. `^model: ` to show what the model property kills on its own); never rewrites the kill table of docs/mutation.md. With --variants: only what `run --grep RE` selects ("<id>: <title> @<tags>", e.g. `@model`), in every run; never rewrites docs/variants-matrix.md' },
      { flag: '--workers', value: 'N', text: 'Playwright workers, an integer from 1 to 99', default: 'the machine\'s cores' },
      { flag: '--full', text: 'run every scenario against every fault instead of the targeted ones; with --variants: every run on the whole suite instead of the tests that make the clean server ask about its variants (docs/variants.md)' },
      { flag: '--write-docs', text: 'update docs/mutation.md (docs/variants-matrix.md) after a partial run too; with --grep (or --mode no-control), write that run\'s own section at the end of docs/mutation.md instead (kept by full runs)' },
      { flag: '--variants', value: 'a,b,c', optionalValue: true, text: 'the variant matrix: these variants, or every variant and persona' },
      { flag: '--clients', text: 'the client fault matrix (with --faults: only these client faults, examples/client/faults.js)' },
      { flag: '--jobs', value: 'N', text: '(--clients) client runs at once', default: '3' },
    ],
    env: ['FTF_SPEC_DIR', 'FTF_EMBEDDED_START_MS'],
    examples: [
      { text: 'two faults, one worker', command: 'ftf-conformance selftest --faults expired-token-accepted,checkpoint-no-version-check --workers 1' },
      { text: 'the fault matrix against a target without clock control', command: 'ftf-conformance selftest --mode no-control --workers 2' },
      { text: 'the CI subset of the variant matrix', command: 'ftf-conformance selftest --variants --subset ci' },
      { text: 'the client fault matrix', command: 'ftf-conformance selftest --clients' },
      { text: 'the model property alone on every variant and persona', command: "ftf-conformance selftest --variants --grep '@model' --workers 1" },
    ],
  },
  run: async (argv) => {
    assertReferenceInstalled('`selftest`');
    if (argv.some((a) => a === '--clients' || a === '--jobs' || a.startsWith('--jobs='))) return (await import('../../selftest/client-matrix.js')).runClientMatrixCli(argv);
    return wantsVariants(argv) ? runVariantCli(argv) : runMutationCli(argv);
  },
};

/**
 * ftf-conformance selftest [--faults a,b,c | --subset ci] [--mode reference|no-control] [--grep REGEX] [--workers N] [--full] [--write-docs]
 * (also `npm run mutation -- …`, which calls the CLI; the command is src/cli/commands/selftest.ts)
 *
 * The mutation matrix (issue 5): the conformance suite against the clean reference and against every injected
 * fault; prints fault -> failing scenarios -> verdict, writes reports/mutation.json and docs/mutation.md.
 * Exit 0 only when the clean run has no failure and every fault is killed for the right reason; 1 otherwise;
 * 2 for bad flags. The library entry point is runMutationMatrix.
 */
import { parseArgs } from 'node:util';
import { WORKERS } from '../cli/args.js';
import { runMutationMatrix, type MutationOptions } from './matrix.js';

export { runMutationMatrix, type MutationOptions, type MutationResult } from './matrix.js';
export type { MutationReport, FaultResult, Verdict } from './verdict.js';
export { CI_SUBSET } from './subsets.js';

export const USAGE = 'usage: ftf-conformance selftest [--faults a,b,c | --subset ci|all] [--mode reference|no-control] [--grep REGEX] [--workers N] [--full] [--write-docs]';

export class MutationUsageError extends Error {}

export function parseMutationArgs(argv: string[]): MutationOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        faults: { type: 'string' }, subset: { type: 'string' }, workers: { type: 'string' }, grep: { type: 'string' },
        mode: { type: 'string' }, full: { type: 'boolean' }, 'write-docs': { type: 'boolean' }, help: { type: 'boolean' },
      },
    }));
  } catch (err) {
    throw new MutationUsageError((err as Error).message);
  }
  if (values.help) throw new MutationUsageError('');
  if (values.subset !== undefined && values.subset !== 'ci' && values.subset !== 'all') {
    throw new MutationUsageError(`--subset must be ci or all (got "${values.subset}")`);
  }
  if (values.workers !== undefined && !WORKERS.test(values.workers)) {
    throw new MutationUsageError(`--workers must be an integer from 1 to 99 (got "${values.workers}")`);
  }
  if (values.grep !== undefined) {
    try {
      new RegExp(values.grep);
    } catch (err) {
      throw new MutationUsageError(`--grep must be a regular expression: ${(err as Error).message}`);
    }
    if (values.grep === '') throw new MutationUsageError('--grep must not be empty');
  }
  if (values.mode !== undefined && values.mode !== 'reference' && values.mode !== 'no-control') {
    throw new MutationUsageError(`--mode must be reference or no-control (got "${values.mode}")`);
  }
  const faults = values.faults?.split(',').map((s) => s.trim()).filter((s) => s !== '');
  return {
    ...(faults?.length ? { faults } : {}),
    ...(values.subset ? { subset: values.subset as 'ci' | 'all' } : {}),
    ...(values.workers ? { workers: Number(values.workers) } : {}),
    ...(values.grep !== undefined ? { grep: values.grep } : {}),
    ...(values.full ? { full: true } : {}),
    ...(values.mode === 'no-control' ? { mode: 'no-control' as const } : {}),
    ...(values['write-docs'] ? { writeDocs: true } : {}),
  };
}

/** `ftf-conformance selftest`: parse, run the matrix, print it; returns the exit code. */
export async function runMutationCli(argv: string[]): Promise<number> {
  let options: MutationOptions;
  try {
    options = parseMutationArgs(argv);
  } catch (err) {
    if (!(err instanceof MutationUsageError)) throw err;
    if (err.message) console.error(`error: ${err.message}`);
    console.error(USAGE);
    return 2;
  }
  const result = await runMutationMatrix(options);
  console.log(`\n${result.matrix}`);
  const docs = result.docsWritten === 'section' ? '; its section of docs/mutation.md updated' : result.docsWritten === 'all' ? '; docs/mutation.md updated' : '';
  console.log(`\nreports/mutation.json written${docs}`);
  return result.ok ? 0 : 1;
}

/**
 * ftf-conformance selftest --variants [a,b,c] [--subset ci|all] [--grep REGEX] [--workers N] [--full] [--write-docs]
 * (also `npm run variants`): the variant matrix (variant-matrix.ts). `--variants` alone runs every variant
 * and persona; `--grep` narrows every run to the selection of `run --grep` (scenario/selection.ts). Exit 0 when the clean run and every variant run pass; 1 otherwise; 2 for bad flags.
 */
import { parseArgs } from 'node:util';
import { WORKERS } from '../cli/args.js';
import { runVariantMatrix, type VariantMatrixOptions } from './variant-matrix.js';

export const VARIANT_USAGE = 'usage: ftf-conformance selftest --variants [a,b,c] [--subset ci|all] [--grep REGEX] [--workers N] [--full] [--write-docs]';

export class VariantUsageError extends Error {}

/** True when argv asks for the variant matrix rather than the fault matrix. */
export function wantsVariants(argv: readonly string[]): boolean {
  return argv.some((a) => a === '--variants' || a.startsWith('--variants='));
}

export function parseVariantArgs(argv: readonly string[]): VariantMatrixOptions {
  // `--variants` may stand alone (every variant): give it an empty value so parseArgs accepts it.
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    args.push(a);
    if (a === '--variants' && (i + 1 >= argv.length || (argv[i + 1] as string).startsWith('--'))) args.push('');
  }
  let values;
  try {
    ({ values } = parseArgs({
      args, strict: true, allowPositionals: false,
      options: { variants: { type: 'string' }, subset: { type: 'string' }, grep: { type: 'string' }, workers: { type: 'string' }, full: { type: 'boolean' }, 'write-docs': { type: 'boolean' }, help: { type: 'boolean' } },
    }));
  } catch (err) {
    throw new VariantUsageError((err as Error).message);
  }
  if (values.help) throw new VariantUsageError('');
  if (values.subset !== undefined && values.subset !== 'ci' && values.subset !== 'all') throw new VariantUsageError(`--subset must be ci or all (got "${values.subset}")`);
  if (values.workers !== undefined && !WORKERS.test(values.workers)) throw new VariantUsageError(`--workers must be an integer from 1 to 99 (got "${values.workers}")`);
  if (values.grep !== undefined) {
    if (values.grep === '') throw new VariantUsageError('--grep must not be empty');
    try {
      new RegExp(values.grep);
    } catch (err) {
      throw new VariantUsageError(`--grep must be a regular expression: ${(err as Error).message}`);
    }
  }
  const variants = (values.variants ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
  return {
    ...(variants.length ? { variants } : {}),
    ...(values.subset ? { subset: values.subset as 'ci' | 'all' } : {}),
    ...(values.grep !== undefined ? { grep: values.grep } : {}),
    ...(values.workers ? { workers: Number(values.workers) } : {}),
    ...(values.full ? { full: true } : {}),
    ...(values['write-docs'] ? { writeDocs: true } : {}),
  };
}

export async function runVariantCli(argv: readonly string[]): Promise<number> {
  let options: VariantMatrixOptions;
  try {
    options = parseVariantArgs(argv);
  } catch (err) {
    if (!(err instanceof VariantUsageError)) throw err;
    if (err.message) console.error(`error: ${err.message}`);
    console.error(VARIANT_USAGE);
    return 2;
  }
  const result = await runVariantMatrix(options);
  console.log(`\n${result.matrix}`);
  const docs = options.grep !== undefined
    ? (options.writeDocs ? '; its section of docs/mutation.md updated' : '')
    : (options.writeDocs || (!options.variants && (options.subset ?? 'all') === 'all') ? '; docs/variants-matrix.md updated' : '');
  console.log(`\nreports/variants.json written${docs}`);
  console.log(`variant matrix wall time: ${(result.report.wallMs / 1000).toFixed(1)} s`);
  return result.ok ? 0 : 1;
}

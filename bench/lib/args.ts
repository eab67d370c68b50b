/** The command line of bench/run-all.ts: `[--quick] [--baseline DIR] [name…]`, names checked against the known ones. */
export interface BenchArgs {
  quick: boolean;
  baseline?: string;
  /** The benchmarks named, in order given; empty = all. */
  names: string[];
}

export function parseBenchArgs(args: readonly string[], known: readonly string[]): BenchArgs {
  let quick = false;
  let baseline: string | undefined;
  const names: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--quick') quick = true;
    else if (a === '--baseline') {
      baseline = args[++i];
      if (baseline === undefined || baseline.startsWith('--')) throw new Error('--baseline needs a folder (a checkout with its node_modules)');
    } else if (known.includes(a)) names.push(a);
    else throw new Error(`unknown benchmark ${a} (known: ${known.join(', ')}; flags: --quick, --baseline DIR)`);
  }
  return { quick, ...(baseline !== undefined ? { baseline } : {}), names };
}

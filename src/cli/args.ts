/** Argument parsing for the commands: node:util parseArgs, with usage errors that exit 2. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { FtfError } from '../shared/errors.js';

export class UsageError extends FtfError {
  constructor(command: string, message: string) {
    super('FTF_E_USAGE', `${command}: ${message}`, { hint: `see \`ftf-conformance help ${command}\` or docs/cli.md#${command}` });
    this.name = 'UsageError';
  }
}

type Options = NonNullable<ParseArgsConfig['options']>;

export function parse<T extends Options>(command: string, args: string[], options: T, allowPositionals = false) {
  try {
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (e) {
    throw new UsageError(command, (e as Error).message.replace(/^TypeError \[[A-Z_]+\]: /, ''));
  }
}

export function oneOf<V extends string>(command: string, flag: string, value: string | undefined, allowed: readonly V[], fallback: V): V {
  if (value === undefined) return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as V;
  throw new UsageError(command, `--${flag} must be one of ${allowed.join(', ')} (got '${value}')`);
}

/** A --grep pattern that compiles, or a usage error naming the flag (never a SyntaxError exiting 3). */
export function regExpFlag(command: string, flag: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  try {
    new RegExp(value);
  } catch (e) {
    throw new UsageError(command, `--${flag} is not a valid regular expression: ${(e as Error).message}`);
  }
  return value;
}

/**
 * --workers N for run, certify and selftest: Playwright workers, a whole number from 1 to 99. Returned as the
 * FTF_WORKERS value playwright.config.ts reads; anything else exits 2 before anything starts.
 */
export function workersFlag(command: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!WORKERS.test(value)) throw new UsageError(command, `--workers must be an integer from 1 to 99 (got '${value}')`);
  return value;
}

/** The one rule for a worker count (selftest's parsers use it too). */
export const WORKERS = /^[1-9][0-9]?$/;

/** Playwright's --shard i/n with 1 <= i <= n: checked here so a bad shard exits 2 before anything starts. */
export function shardFlag(command: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const m = /^(\d+)\/(\d+)$/.exec(value);
  const [i, n] = m ? [Number(m[1]), Number(m[2])] : [NaN, NaN];
  if (!m || i < 1 || n < 1 || i > n) throw new UsageError(command, `--shard must be i/n with 1 <= i <= n, e.g. 1/4 (got '${value}')`);
  return value;
}

/**
 * Playwright flags `run` passes through after `--`. Left out on purpose: reporters and config (they would
 * bypass the redacting reporter), --trace (traces hold Authorization headers), --timeout/--global-timeout
 * (bounds derive from the profile), interactive modes and snapshot updates. Value-taking flags are marked.
 */
const PASSTHROUGH: ReadonlyMap<string, 'flag' | 'value' | 'optional'> = new Map([
  ['--retries', 'value'], ['--repeat-each', 'value'], ['--max-failures', 'value'], ['-x', 'flag'],
  ['--workers', 'value'], ['-j', 'value'], ['--project', 'value'], ['--grep', 'value'], ['-g', 'value'],
  ['--grep-invert', 'value'], ['-G', 'value'], ['--output', 'value'], ['--fail-on-flaky-tests', 'flag'],
  ['--forbid-only', 'flag'], ['--fully-parallel', 'flag'], ['--pass-with-no-tests', 'flag'],
  ['--quiet', 'flag'], ['--shuffle', 'optional'], ['--list', 'flag'], ['--no-deps', 'flag'],
]);

/** Checks the arguments after `--` before anything starts: an unknown or refused Playwright flag exits 2. */
export function passthroughArgs(command: string, extra: string[]): string[] {
  for (let i = 0; i < extra.length; i++) {
    const arg = extra[i]!;
    const [name, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const kind = PASSTHROUGH.get(name);
    if (name === '--last-failed') {
      throw new UsageError(command, "'--last-failed' after -- is Playwright's: one test-results/.last-run.json for every target and reports folder, rerunning whole spec files; use `run --last-failed` (only the scenarios that failed when last run against this target, kept in this reports folder)");
    }
    if (kind === undefined) {
      throw new UsageError(
        command,
        `'${arg}' after -- is not a Playwright flag this harness passes through (allowed: ${[...PASSTHROUGH.keys()].join(' ')}; reporters, --config and --trace would bypass redaction, timeouts come from the profile)`,
      );
    }
    if (kind === 'value' && inline === undefined) {
      const next = extra[i + 1];
      if (next === undefined || next.startsWith('-')) throw new UsageError(command, `${name} after -- needs a value`);
      i++;
    }
    if (kind === 'flag' && inline !== undefined) throw new UsageError(command, `${name} after -- takes no value (got '${arg}')`);
    if (kind === 'optional' && inline === undefined && extra[i + 1] !== undefined && /^\d+$/.test(extra[i + 1]!)) i++;
  }
  return extra;
}

/** Argument parsing for the commands: node:util parseArgs, with usage errors that exit 2. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { FtfError } from '../shared/errors.js';

export class UsageError extends FtfError {
  constructor(command: string, message: string) {
    super('FTF_E_USAGE', `${command}: ${message}`, { hint: `see \`ftf-conformance help\` or docs/cli.md#${command}` });
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

/** Playwright's --shard i/n with 1 <= i <= n: checked here so a bad shard exits 2 before anything starts. */
export function shardFlag(command: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const m = /^(\d+)\/(\d+)$/.exec(value);
  const [i, n] = m ? [Number(m[1]), Number(m[2])] : [NaN, NaN];
  if (!m || i < 1 || n < 1 || i > n) throw new UsageError(command, `--shard must be i/n with 1 <= i <= n, e.g. 1/4 (got '${value}')`);
  return value;
}

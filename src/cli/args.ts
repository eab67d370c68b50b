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

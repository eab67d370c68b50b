import type { CommandHelp } from '../help.js';

export interface Command {
  /** One line for `ftf-conformance help`. */
  summary: string;
  /** Every flag, variable and an example, as data: `help <command>`, `<command> --help` and docs/cli.md render it (src/cli/help.ts). */
  help: CommandHelp;
  /** Returns the exit code; throws FtfError for "could not start" problems (mapped to 2 by main). */
  run(args: string[]): Promise<number>;
}

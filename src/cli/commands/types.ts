export interface Command {
  /** One line for `ftf-conformance help`. */
  summary: string;
  /** Synopsis of the flags. */
  usage: string;
  /** Returns the exit code; throws FtfError for "could not start" problems (mapped to 2 by main). */
  run(args: string[]): Promise<number>;
}

import type { Command } from './types.js';
import { runCommand } from './run.js';

/** Registry of CLI commands: add a command by adding its file and one line here. */
export const commands: Record<string, Command> = {
  run: runCommand,
};

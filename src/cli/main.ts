/**
 * ftf-conformance command line. One file per command under src/cli/commands/; this file only dispatches
 * and maps errors to exit codes (docs/cli.md):
 *   0 conformant · 1 non-conformant · 2 nothing tested / could not start · 3 internal error.
 */
import { commands } from './commands/index.js';
import { describeError, EXIT, exitCodeForError } from './errors.js';

export { EXIT };
/** For the bin's signal handlers. */
export { FORWARDED_SIGNALS, onSignal } from './process-group.js';

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    printHelp();
    return name ? EXIT.conformant : EXIT.cannotStart;
  }
  const command = commands[name];
  if (!command) {
    console.error(`ftf-conformance: unknown command '${name}'. Commands: ${Object.keys(commands).join(', ')}`);
    return EXIT.cannotStart;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(`usage: ftf-conformance ${command.usage}\n\n${command.summary}`);
    return EXIT.conformant;
  }
  try {
    return await command.run(rest);
  } catch (error) {
    console.error(describeError(name, error));
    return exitCodeForError(error);
  }
}

function printHelp(): void {
  console.log('usage: ftf-conformance <command> [options]   (details: docs/cli.md)\n');
  for (const [name, c] of Object.entries(commands)) console.log(`  ${name.padEnd(10)} ${c.summary}`);
  console.log('\nexit codes: 0 conformant, 1 non-conformant, 2 nothing tested / could not start, 3 internal error');
}

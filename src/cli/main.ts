/**
 * ftf-conformance command line. One file per command under src/cli/commands/; this file only dispatches.
 * Exit codes: 0 conformant, 1 non-conformant, 2 nothing tested / could not start, 3 internal error.
 */
import { commands } from './commands/index.js';

export const EXIT = { conformant: 0, nonConformant: 1, cannotStart: 2, internal: 3 } as const;

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
  try {
    return await command.run(rest);
  } catch (error) {
    console.error(`ftf-conformance ${name}: internal error: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT.internal;
  }
}

function printHelp(): void {
  console.log('usage: ftf-conformance <command> [options]\n');
  for (const [name, c] of Object.entries(commands)) console.log(`  ${name.padEnd(10)} ${c.summary}`);
}

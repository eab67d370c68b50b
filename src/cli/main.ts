/**
 * ftf-conformance command line. One file per command under src/cli/commands/; this file only dispatches
 * and maps errors to exit codes (docs/cli.md):
 *   0 conformant · 1 non-conformant · 2 nothing tested / could not start · 3 internal error.
 */
import { commandLoaders, loadCommands } from './commands/index.js';
import { describeError, EXIT, exitCodeForError } from './errors.js';
import { renderHelp, renderOverview } from './help.js';
import { versionText } from './version.js';
/** For the bin: target text reaches the CLI's console (verdict reasons, errors, doctor lines), never a control character raw. */
export { guardTerminalStreams } from '../harness/report/redaction/terminal-text.js';

export { EXIT };
/** For the bin's signal handlers. */
export { FORWARDED_SIGNALS, onSignal } from './process-group.js';

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-V') {
    console.log(versionText());
    return EXIT.conformant;
  }
  if (name === 'help' && rest[0] !== undefined) return await helpFor(rest[0]);
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    console.log(renderOverview(await loadCommands()));
    return name ? EXIT.conformant : EXIT.cannotStart;
  }
  const load = commandLoaders[name];
  if (!load) return unknownCommand(name);
  const command = await load();
  // Only the command's own flags: after `--` the words belong to Playwright.
  const own = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest;
  if (own.includes('--help') || own.includes('-h')) return await helpFor(name);
  try {
    return await command.run(rest);
  } catch (error) {
    // A package loaded on first use that is not installed: the bin names it and exits 2, as for one missing at start.
    if (isMissingModule(error)) throw error;
    console.error(describeError(name, error));
    return exitCodeForError(error);
  }
}

async function helpFor(name: string): Promise<number> {
  const load = commandLoaders[name];
  if (!load) return unknownCommand(name);
  const command = await load();
  console.log(renderHelp(name, command));
  return EXIT.conformant;
}

function isMissingModule(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
}

function unknownCommand(name: string): number {
  console.error(`ftf-conformance: unknown command '${name}'. Commands: ${Object.keys(commandLoaders).join(', ')} (ftf-conformance help <command>)`);
  return EXIT.cannotStart;
}

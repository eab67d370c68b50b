import type { Command } from './types.js';

/**
 * Registry of CLI commands: add a command by adding its file and one line here. Each command's module is
 * loaded when it is asked for: `run` does not load the reference server, the selftest matrices or `init`'s
 * templates (start-up, docs/performance.md). The order here is the order of the help overview.
 */
export const commandLoaders: Record<string, () => Promise<Command>> = {
  run: async () => (await import('./run.js')).runCommand,
  dev: async () => (await import('./dev.js')).devCommand,
  merge: async () => (await import('./merge.js')).mergeCommand,
  certify: async () => (await import('./certify.js')).certifyCommand,
  init: async () => (await import('./init.js')).initCommand,
  doctor: async () => (await import('./doctor.js')).doctorCommand,
  list: async () => (await import('./list.js')).listCommand,
  coverage: async () => (await import('./coverage.js')).coverageCommand,
  report: async () => (await import('./report.js')).reportCommand,
  verify: async () => (await import('./verify.js')).verifyCommand,
  selftest: async () => (await import('./selftest.js')).selftestCommand,
  reference: async () => (await import('./reference.js')).referenceCommand,
  client: async () => (await import('./client.js')).clientCommand,
};

/** Every command, loaded (the help overview, docs/cli.md, the help tests). */
export async function loadCommands(): Promise<Record<string, Command>> {
  const entries = await Promise.all(Object.entries(commandLoaders).map(async ([name, load]) => [name, await load()] as const));
  return Object.fromEntries(entries);
}

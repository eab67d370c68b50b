/**
 * Flags of `ftf-conformance reference` (src/cli/commands/reference.ts): parsed strictly; a bad flag is a UsageError
 * (the command prints it, exit 2).
 */
import { parseArgs } from 'node:util';
import type { ReferenceOptions } from './context.js';
import { knownFaultNames } from './faults.js';

export const USAGE = `usage: ftf-conformance reference [--port N] [--mode sandbox|production] [--seed N] [--events N]
                                  [--token-lifetime SECONDS] [--fault NAME] [--print-secrets]`;

export class UsageError extends Error {}

function intFlag(name: string, raw: string | undefined, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) throw new UsageError(`--${name} must be an integer from ${min} to ${max} (got "${raw}")`);
  return Number(raw);
}

export function parseCli(argv: string[]): { options: ReferenceOptions; printSecrets: boolean } {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' }, mode: { type: 'string' }, seed: { type: 'string' }, events: { type: 'string' },
        'token-lifetime': { type: 'string' }, fault: { type: 'string' }, 'print-secrets': { type: 'boolean' }, help: { type: 'boolean' },
      },
    }));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (values.help) throw new UsageError('');
  if (values.mode !== undefined && values.mode !== 'sandbox' && values.mode !== 'production') {
    throw new UsageError(`--mode must be sandbox or production (got "${values.mode}")`);
  }
  const known = knownFaultNames();
  if (values.fault !== undefined && !known.includes(values.fault)) {
    throw new UsageError(`unknown --fault "${values.fault}"; known faults: ${known.length ? known.join(', ') : '(none yet)'}`);
  }
  const options: ReferenceOptions = {
    port: intFlag('port', values.port, 0, 65535) ?? 8080,
    mode: values.mode as ReferenceOptions['mode'],
    seed: intFlag('seed', values.seed, 0, 2 ** 31 - 1),
    events: intFlag('events', values.events, 0, 5_000_000),
    tokenLifetimeSeconds: intFlag('token-lifetime', values['token-lifetime'], 1, 31_536_000),
    fault: values.fault,
  };
  return { options, printSecrets: values['print-secrets'] === true };
}

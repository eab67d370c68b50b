/**
 * Flags of `ftf-conformance reference` (src/cli/commands/reference.ts): parsed strictly; a bad flag is a UsageError
 * (the command prints it, exit 2).
 */
import { parseArgs } from 'node:util';
import type { ReferenceOptions } from './context.js';
import { knownFaultNames } from './faults.js';
import { PERSONAS, VARIANTS } from './variant-registry.js';
import { createVariants } from './variants.js';

export const USAGE = `usage: ftf-conformance reference [--port N] [--mode sandbox|production] [--no-control] [--seed N] [--events N]
                                  [--token-lifetime SECONDS] [--fault NAME] [--variant NAME]... [--persona NAME]
                                  [--print-secrets]`;

export class UsageError extends Error {}

function intFlag(name: string, raw: string | undefined, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) throw new UsageError(`--${name} must be an integer from ${min} to ${max} (got "${raw}")`);
  return Number(raw);
}

/** Known names only (--variant: variants, --persona: personas), and no two answers to one point. */
function checkVariants(variants: readonly string[], persona: string | undefined): void {
  const names = VARIANTS.map((v) => v.name);
  for (const v of variants) {
    if (!names.includes(v)) throw new UsageError(`unknown --variant "${v}"; known variants: ${[...names].sort().join(', ')}`);
  }
  if (persona !== undefined && !PERSONAS.some((p) => p.name === persona)) {
    throw new UsageError(`unknown --persona "${persona}"; known personas: ${PERSONAS.map((p) => p.name).join(', ')}`);
  }
  try {
    createVariants([...variants, ...(persona === undefined ? [] : [persona])]);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
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
        'token-lifetime': { type: 'string' }, fault: { type: 'string' }, 'print-secrets': { type: 'boolean' }, 'no-control': { type: 'boolean' }, help: { type: 'boolean' },
        variant: { type: 'string', multiple: true }, persona: { type: 'string' },
      },
    }));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (values.help) throw new UsageError('');
  if (values.mode !== undefined && values.mode !== 'sandbox' && values.mode !== 'production') {
    throw new UsageError(`--mode must be sandbox or production (got "${values.mode}")`);
  }
  if (values['no-control'] && values.mode === 'production') throw new UsageError('--no-control is for sandbox mode (production never has the control API)');
  const known = knownFaultNames();
  if (values.fault !== undefined && !known.includes(values.fault)) {
    throw new UsageError(`unknown --fault "${values.fault}"; known faults: ${known.length ? known.join(', ') : '(none yet)'}`);
  }
  const variants = [...(values.variant ?? []), ...(values.persona === undefined ? [] : [values.persona])];
  checkVariants(values.variant ?? [], values.persona);
  const options: ReferenceOptions = {
    port: intFlag('port', values.port, 0, 65535) ?? 8080,
    mode: values.mode as ReferenceOptions['mode'],
    seed: intFlag('seed', values.seed, 0, 2 ** 31 - 1),
    events: intFlag('events', values.events, 0, 5_000_000),
    tokenLifetimeSeconds: intFlag('token-lifetime', values['token-lifetime'], 1, 31_536_000),
    fault: values.fault,
    // A sandbox without the control API: real-time clock, only the target's own timing (docs/reference-server.md).
    ...(values['no-control'] ? { simulation: false } : {}),
    ...(variants.length > 0 ? { variants } : {}),
  };
  return { options, printSecrets: values['print-secrets'] === true };
}

/**
 * The fault switchboard (issue 5). A fault makes the reference server deviate from the spec in ONE rule, so
 * the harness can prove it notices. Each rule lives in one function (domain/subscribe.ts, events/query.ts,
 * ...) that asks `ctx.faults.on('<name>')` there; never copy a code path to make a fault.
 *
 * The registry starts empty: issue 5 adds names with a one-line description each.
 */
import { FtfError } from '../shared/errors.js';
import type { Faults } from './context.js';

/** name -> what the server then does wrong. */
export const KNOWN_FAULTS: Readonly<Record<string, string>> = Object.freeze({});

export function knownFaultNames(): string[] {
  return Object.keys(KNOWN_FAULTS).sort();
}

/** A switchboard with `name` on (or none when null). Unknown names are refused with the list of known ones. */
export function createFaults(name: string | null): Faults {
  if (name !== null && !Object.hasOwn(KNOWN_FAULTS, name)) {
    const known = knownFaultNames();
    throw new FtfError('FTF_E_UNKNOWN_FAULT', `unknown fault "${name}"`, {
      hint: known.length > 0 ? `known faults: ${known.join(', ')}` : 'no faults are defined yet (the registry in src/reference/faults.ts is empty)',
      location: { field: 'fault' },
    });
  }
  return { active: name, on: (n: string) => name !== null && n === name };
}

/**
 * The fault switchboard (issue 5). A fault makes the reference server deviate from the spec in ONE rule, so
 * the harness can prove it notices. Each rule lives in one function (domain/subscribe.ts, events/query.ts,
 * ...) that asks `ctx.faults.on('<name>')` there; never copy a code path to make a fault. The catalogue of
 * names (with clause ids and family) is fault-registry.ts.
 */
import { FtfError } from '../shared/errors.js';
import type { Faults } from './context.js';
import { FAULTS } from './fault-registry.js';

export { FAULTS, FAULT_FAMILIES, faultInfo, type FaultFamily, type FaultInfo } from './fault-registry.js';

/** name -> what the server then does wrong. */
export const KNOWN_FAULTS: Readonly<Record<string, string>> = Object.freeze(Object.fromEntries(FAULTS.map((f) => [f.name, f.description])));

export function knownFaultNames(): string[] {
  return Object.keys(KNOWN_FAULTS).sort();
}

/** No fault: what every module gets when built without a context (tests, benchmarks). */
export const NO_FAULTS: Faults = Object.freeze({ active: null, on: () => false });

/** A switchboard with `name` on (or none when null). Unknown names are refused with the list of known ones. */
export function createFaults(name: string | null): Faults {
  if (name !== null && !Object.hasOwn(KNOWN_FAULTS, name)) {
    const known = knownFaultNames();
    throw new FtfError('FTF_E_UNKNOWN_FAULT', `unknown fault "${name}"`, {
      hint: `known faults: ${known.join(', ')}`,
      location: { field: 'fault' },
    });
  }
  if (name === null) return NO_FAULTS;
  return Object.freeze({ active: name, on: (n: string) => n === name });
}

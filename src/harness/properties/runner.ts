/**
 * Runs a fast-check async property with CI-sized bounds and turns a failure into the replayable
 * counterexample text (seed, path, shrunk case, the HTTP requests of that run). Settings come from the
 * environment: FTF_FC_RUNS, FTF_FC_SEED, FTF_FC_PATH (replay one counterexample), FTF_FC_END_ON_FAILURE=1
 * (no shrinking); the model property adds FTF_FC_REPLAY_PATH and FTF_FC_COMMANDS (model/property.ts: modelSettings). A per-run request log keeps the exchanges of every failing run; the last failing run is
 * the shrunk counterexample.
 */
import fc from 'fast-check';
import type { Exchange } from '../http/types.js';
import { FtfError } from '../../shared/errors.js';
import { formatFailure, type Bases } from './counterexample.js';
import type { RunLog } from './run-log.js';
import { PROPERTY_ERROR_CODES, propertyFailure } from './types.js';

export interface PropertySettings {
  numRuns: number;
  seed: number | undefined;
  path: string | undefined;
  endOnFailure: boolean;
}

/** Reads FTF_FC_* (pure: pass process.env). Bad values are errors that name the variable. */
export function propertySettings(env: Record<string, string | undefined>, defaultRuns: number): PropertySettings {
  const int = (name: string, min: number): number | undefined => {
    const raw = env[name]?.trim();
    if (!raw) return undefined;
    if (!/^-?\d+$/.test(raw) || Number(raw) < min || !Number.isSafeInteger(Number(raw))) {
      throw new FtfError('FTF_E_PROPERTY_SETTINGS', `${name} must be an integer >= ${min}, got "${raw}"`, { hint: `unset ${name} to use the default` });
    }
    return Number(raw);
  };
  const path = env.FTF_FC_PATH?.trim();
  if (path && !/^\d+(:\d+)*$/.test(path)) {
    throw new FtfError('FTF_E_PROPERTY_SETTINGS', `FTF_FC_PATH must look like 3:0:1 (from a failure message), got "${path}"`);
  }
  return {
    numRuns: int('FTF_FC_RUNS', 1) ?? defaultRuns,
    seed: int('FTF_FC_SEED', Number.MIN_SAFE_INTEGER),
    path: path || undefined,
    endOnFailure: ['1', 'true', 'yes'].includes((env.FTF_FC_END_ON_FAILURE ?? '').trim().toLowerCase()),
  };
}

export interface PropertyRun<T> {
  title: string;
  arbitrary: fc.Arbitrary<T>;
  predicate: (value: T) => Promise<void>;
  settings: PropertySettings;
  log: RunLog;
  bases: Bases;
  describe: (value: T) => string;
  label?: (uid: string) => string;
  /** Replay command printed after the env vars, e.g. `npx playwright test specs/properties -g "…"`. */
  command: string;
  /** More replay variables from the counterexample (the model property's FTF_FC_REPLAY_PATH=…). */
  extraEnv?: (value: T) => string[];
  /** Stop generating (and shrinking) after this long; what was found so far is reported. */
  timeLimitMs: number;
  /** Gets the counterexample text and exchanges (e.g. to attach them to the report). */
  onFailure?: (text: string, exchanges: readonly Exchange[]) => Promise<void>;
}

interface FailedRun {
  exchanges: Exchange[];
  error: unknown;
}

/** fc.assert with our reporter: resolves when the property holds, throws FTF_E_PROPERTY_VIOLATION (a counterexample) or FTF_E_PROPERTY_FAILED otherwise. */
export async function checkProperty<T>(run: PropertyRun<T>): Promise<{ numRuns: number; numSkips: number; interrupted: boolean }> {
  const failed = new Map<T, FailedRun>();
  let last: FailedRun | undefined;
  let stats = { numRuns: 0, numSkips: 0, interrupted: false };
  const property = fc.asyncProperty(run.arbitrary, async (value) => {
    const exchanges = run.log.begin();
    try {
      await run.predicate(value);
    } catch (error) {
      if (!fc.PreconditionFailure.isFailure(error)) {
        last = { exchanges: [...exchanges], error };
        failed.set(value, last);
      }
      throw error;
    }
  });
  const { seed, numRuns, path, endOnFailure } = run.settings;
  await fc.assert(property, {
    numRuns,
    ...(seed !== undefined ? { seed } : {}),
    ...(path !== undefined ? { path } : {}),
    endOnFailure,
    interruptAfterTimeLimit: run.timeLimitMs,
    markInterruptAsFailure: false,
    asyncReporter: async (details) => {
      stats = { numRuns: details.numRuns, numSkips: details.numSkips, interrupted: details.interrupted };
      if (!details.failed) return;
      if (details.counterexample === null) {
        throw new FtfError(PROPERTY_ERROR_CODES.failed, `property "${run.title}" could not run: ${details.numSkips} generated cases were skipped (seed ${details.seed})`, {
          hint: 'the target refused the generated page sizes or offered no endCursor; see the skipped runs',
        });
      }
      const value = details.counterexample[0];
      const rec = failed.get(value) ?? last;
      const text = formatFailure({
        title: run.title,
        failure: errorText(rec?.error ?? details.errorInstance),
        seed: details.seed,
        path: details.counterexamplePath,
        numRuns: details.numRuns,
        numShrinks: details.numShrinks,
        interrupted: details.interrupted,
        counterexample: run.describe(value),
        exchanges: rec?.exchanges ?? [],
        bases: run.bases,
        ...(run.label ? { label: run.label } : {}),
        command: run.command,
        ...(run.extraEnv ? { env: run.extraEnv(value) } : {}),
      });
      await run.onFailure?.(text, rec?.exchanges ?? []);
      throw withoutFrames(propertyFailure(text, rec?.error ?? details.errorInstance));
    },
  });
  return stats;
}

function errorText(e: unknown): string {
  if (e instanceof FtfError && e.code === PROPERTY_ERROR_CODES.violation) return e.message;
  if (e instanceof FtfError) return `${e.code}: ${e.message}`;
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

/** The counterexample is the whole story: runner frames under it would only push it off the screen. */
export function withoutFrames<E extends Error>(e: E): E {
  // Lead with the stable code (not the class name) so reports classify the failure like any other:
  // Playwright prints `name: message`, so the code becomes the name.
  if (e instanceof FtfError) e.name = e.code;
  e.stack = `${e.name}: ${e.message}`;
  return e;
}

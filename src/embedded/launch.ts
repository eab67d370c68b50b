/**
 * THE launcher of the embedded reference server, for every caller: the Playwright worker fixture (one
 * server per worker), `ftf-conformance doctor/run` when a profile says `embedded` (one shared server), and
 * bench/. It starts the server for a read profile (src/harness/target/profile.ts), binds the secrets the
 * server generated to the profile's credentials from data (binding.ts), and resolves the target with the
 * same resolver everything else uses. This folder is glue: it may import both src/reference and
 * src/harness, which never import each other.
 *
 * Start-up is bounded (embeddedStartBoundMs): past the bound it throws FTF_E_TARGET_START_TIMEOUT naming
 * the phase that ran out; a server that finishes starting after that is closed, and so is one whose
 * profile cannot be bound. close() is idempotent.
 */
import type { ReferenceOptions } from '../reference/context.js';
import type { ReferenceApp } from '../reference/app.js';
import type { RunningReference, StartHooks } from '../reference/server.js';
import { FtfError } from '../shared/errors.js';
import { assertReferenceInstalled } from './reference-packages.js';
import { bindEmbedded, type EmbeddedBinding } from '../harness/target/binding.js';
import { PROFILE_ERROR_CODES } from '../harness/target/errors.js';
import { readProfile, type Profile } from '../harness/target/profile.js';
import { resolveTarget } from '../harness/target/resolve.js';
import type { ResolvedTarget } from '../harness/target/types.js';

/** Start-up bound when FTF_EMBEDDED_START_MS is unset: generous, because two cores may carry five test runs. */
export const DEFAULT_START_BOUND_MS = 60_000;

export type LaunchPhase = 'import' | 'build' | 'listen';

const PHASE_WHAT: Record<LaunchPhase, string> = {
  import: 'loading the reference server code',
  build: 'building the app (reference data, synthetic events)',
  listen: 'binding a port on 127.0.0.1',
};

/** FTF_EMBEDDED_START_MS, or the default; anything but a positive integer is a usage error. */
export function embeddedStartBoundMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.FTF_EMBEDDED_START_MS?.trim();
  if (!raw) return DEFAULT_START_BOUND_MS;
  if (!/^[1-9]\d*$/.test(raw)) {
    throw new FtfError('FTF_E_USAGE', `FTF_EMBEDDED_START_MS must be a positive whole number of milliseconds (got ${JSON.stringify(raw)})`);
  }
  return Number(raw);
}

export interface LaunchOptions {
  /** What the caller chooses of the server; mode defaults to the profile's environment. */
  server?: Pick<ReferenceOptions, 'fault' | 'variants' | 'mode' | 'events' | 'seed' | 'simulation'>;
  /** Environment the target is resolved against (non-secret settings, FTF_* overrides); default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Start-up bound; default embeddedStartBoundMs(env). */
  startBoundMs?: number;
  /** Runs after the build, before listening (bench/ preloads events for one user). */
  prepare?(built: ReferenceApp): void;
  /** Test seam: how the server is started (default: the reference's startReferenceServer). */
  start?(options: ReferenceOptions, hooks: StartHooks): Promise<RunningReference>;
}

export interface EmbeddedLaunch {
  target: ResolvedTarget;
  /** For a child process that resolves the same profile (Playwright, bench): URLs + secrets by the profile's names. */
  env: Record<string, string>;
  /** Every secret the server generated (leak scans); never printed. */
  secrets: string[];
  close(): Promise<void>;
}

let launches = 0;
/** How many servers this process has launched (tests prove that validating a profile launches none). */
export function embeddedLaunchCount(): number {
  return launches;
}

/** FTF_E_TARGET_START_TIMEOUT for a server of `profileFile` not started within `boundMs`: `detail` says where it stood. */
export function startTimeoutError(profileFile: string, boundMs: number, detail: string): FtfError {
  return new FtfError(PROFILE_ERROR_CODES.embeddedStartTimeout, `the embedded reference server for ${profileFile} did not start within ${boundMs} ms: ${detail}`, {
    hint: 'the machine is overloaded or the server hangs; raise FTF_EMBEDDED_START_MS or run fewer workers (FTF_WORKERS)',
    location: { file: profileFile },
  });
}

/** The target of a launched server's binding. */
function targetOfBinding(profile: Profile, binding: Pick<EmbeddedBinding, 'env' | 'overrides'>, env: NodeJS.ProcessEnv = process.env): ResolvedTarget {
  return resolveTarget(profile, { env: { ...env, ...binding.env }, overrides: binding.overrides });
}

export async function launchEmbedded(profile: Profile, opts: LaunchOptions = {}): Promise<EmbeddedLaunch> {
  const env = opts.env ?? process.env;
  const bound = opts.startBoundMs ?? embeddedStartBoundMs(env);
  let phase: LaunchPhase = 'import';
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(startTimeoutError(profile.file, bound, `phase "${phase}" (${PHASE_WHAT[phase]}) ran out`)), bound);
  });
  launches++;
  const starting = (async () => {
    if (!opts.start) assertReferenceInstalled('an embedded target profile');
    const start = opts.start ?? (await import('../reference/server.js')).startReferenceServer;
    const mode = opts.server?.mode ?? (profile.raw.environment === 'production' ? 'production' : 'sandbox');
    // A profile without control_url describes a target without the sandbox control API (e.g.
    // reference-no-control.yaml): the server then starts without it, its clock running in real time.
    const simulation = opts.server?.simulation ?? profile.raw.control_url !== undefined;
    return start({ port: 0, host: '127.0.0.1', ...opts.server, mode, simulation }, {
      onPhase: (p) => {
        phase = p;
      },
      ...(opts.prepare ? { prepare: opts.prepare } : {}),
    });
  })();
  let server: RunningReference;
  try {
    server = await Promise.race([starting, deadline]);
  } catch (e) {
    // Whatever happened, a server that still comes up is closed: nothing outlives its launch.
    void starting.then((late) => late.close(), () => undefined);
    throw e;
  } finally {
    clearTimeout(timer);
  }
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => (closed ??= server.close());
  try {
    const binding = bindEmbedded(profile, server);
    const target = targetOfBinding(profile, binding, env);
    return { target, env: binding.env, secrets: binding.secrets, close };
  } catch (e) {
    await close();
    throw e;
  }
}

/** What a worker launches: the options of its project (playwright.config.ts metadata) and of its run settings. */
export interface LaunchRequest {
  /** Absolute path of the profile. */
  profile: string;
  mode?: 'sandbox' | 'production';
  fault?: string;
  variants?: string[];
  events: number;
}

/** A worker's own server: isolated clock and store, gone with the worker. */
export function launchRequested(request: LaunchRequest): Promise<EmbeddedLaunch> {
  const { profile, ...server } = request;
  return launchEmbedded(readProfile(profile), { server });
}

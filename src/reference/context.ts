/**
 * Shared types of the reference server. Every module receives a ReferenceContext; nothing reads globals.
 */
import type { ReferenceData } from './data/types.js';
import type { GradingOptions } from './grading/types.js';

export type Mode = 'sandbox' | 'production';

export interface ReferenceOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default sandbox. Production refuses API keys and has no sandbox control API. */
  mode?: Mode;
  /** Seed of the deterministic reference data and synthetic events. Default 1. */
  seed?: number;
  /** Synthetic events preloaded into the stream at start. Default 0 (plus the seeded history). */
  events?: number;
  /** Access-token lifetime in seconds (default 28800 = 8 h, "several hours"). */
  tokenLifetimeSeconds?: number;
  /** Simulation (sandbox control API + simulated clock control). Default: true in sandbox mode. */
  simulation?: boolean;
  /** Name of one injected fault (issue 5). */
  fault?: string;
  /**
   * Conformant variants (issue 12): other readings of points the spec leaves open, several at once, and
   * persona names (`all-alternate`). Default none: today's behaviour. Names: variant-registry.ts.
   */
  variants?: string[];
  /** Directory of reference data files; default fixtures/reference-data. */
  dataDir?: string;
  /** Fastify logger on/off (default off). */
  logger?: boolean;
  /** Client grading mode (issue 27): scripted challenges, every exchange handed to `onExchange`. */
  grading?: GradingOptions;
}

/** Secrets generated at start (CSPRNG); never stored in fixtures. */
export interface GeneratedSecrets {
  /** client_id -> client_secret */
  clients: Record<string, string>;
  /** user email -> sandbox API key */
  apiKeys: Record<string, string>;
  /** user email -> password for the consent form */
  passwords: Record<string, string>;
}

/** Who is calling, after authentication. */
export interface Principal {
  userEmail: string;
  clientId: string | null;
  /** How the caller authenticated. */
  via: 'client_credentials' | 'authorization_code' | 'api_key';
  allowedEntities: readonly string[];
  readOnly: boolean;
}

/** Fault switchboard (issue 5): each rule asks `faults.on(name)` at the one place it lives. */
export interface Faults {
  readonly active: string | null;
  on(name: string): boolean;
}

/** Variant switchboard (issue 12): each open choice asks `variants.is(name)` at the one place it lives. */
export interface Variants {
  /** Active variant names (personas expanded), in registry order. */
  readonly active: readonly string[];
  is(name: string): boolean;
  /** The active variant of a point, or 'default'. */
  choice(point: string): string;
}

/** An error answered as `{detail}` (or 422 `{detail:[...]}`) with a status; thrown by routes and hooks. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string | Array<{ loc: Array<string | number>; msg: string; type: string }>,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(typeof detail === 'string' ? detail : 'validation error');
    this.name = 'ApiError';
  }
}

export interface ReferenceContext {
  options: Required<Omit<ReferenceOptions, 'fault' | 'dataDir' | 'grading'>> & { fault: string | null; dataDir: string };
  /** Client grading mode, or null (the default: no challenges, nothing recorded). */
  grading?: GradingOptions | null;
  data: ReferenceData;
  secrets: GeneratedSecrets;
  faults: Faults;
  variants: Variants;
}

/**
 * What every command of the model property shares (commands.ts, commands-checkpoint.ts, commands-access.ts): the
 * model's state, the system under test, and the helpers that judge answers, pick parameters by selector and
 * learn the head of the stream after a write.
 */
import type fc from 'fast-check';
import type { EventsApi } from '../events-api.js';
import { snapshotLabeller, TraversalOracle, type OracleContext } from '../oracle.js';
import { collect, walk } from '../paging-case.js';
import { PropertyViolation, type Violation } from '../types.js';
import type { ModelApi, Product } from './api.js';
import type { FilterModel, OwnSubscription, WebhookModel } from './access.js';
import type { TokenModel } from './tokens.js';
import type { Answer, BodyKind, CheckpointModel, IdempotencyModel, StreamModel } from './state.js';
import type { ResolvedTarget } from '../../target/types.js';

/** What the target offers the model (from the profile): each credential kind, entities, the control API. */
export interface Can {
  append: boolean;
  second: boolean;
  readonly: boolean;
  /** The clock can be moved (control API, `clock` capability). */
  clock: boolean;
  /** The profile's allowed entities (primary credential) and its forbidden one. */
  entities: readonly string[];
  forbidden: string | undefined;
  /** The profile's credentials by kind: client_credentials ones, authorization_code ones the harness can consent for, API keys (sandbox). */
  clients: readonly string[];
  codes: readonly string[];
  apiKeys: readonly string[];
}

/** The model: the parts of state.ts and access.ts plus what the target offers. */
export interface Model {
  idem: IdempotencyModel;
  /** Body kind and entity of each used key (a retry sends the same or the changed body). */
  kinds: Map<string, BodyKind>;
  entityOf: Map<string, string>;
  cp: CheckpointModel;
  stream: StreamModel;
  secondPut: boolean;
  /** The uid of the second user's own checkpoint of the run's name, while it exists. */
  secondCp: string | undefined;
  /** Subscriptions the primary user made (200 to a new key), with their entity. */
  subs: OwnSubscription[];
  hooks: WebhookModel;
  filters: FilterModel;
  /** Seconds the clock moved in this run (control API; commands-access.ts bounds them: CLOCK_BUDGET_S). */
  clockSeconds: number;
  /** Tokens the token commands were issued, and each code credential's current refresh token (tokens.ts). */
  tokens: TokenModel;
  can: Can;
}

/** The system under test: the APIs and the per-run names. */
export interface Real {
  api: ModelApi;
  events: EventsApi;
  target: ResolvedTarget;
  /** Read once per property; read again after the clock moved (a Fixed uid rotates daily): refreshProduct. */
  readonly product: Product;
  refreshProduct(): Promise<void>;
  /** This run's checkpoint name (fresh per run: runs must not see each other's state). */
  name: string;
  /** An indication uid that does not exist (the rejected body). */
  unknownUid: string;
  maxPages: number;
  /** This run's prefix for webhook URLs and unknown codes. */
  tag: string;
}

export type Cmd = fc.AsyncCommand<Model, Real, false>;

export function fail(v: Violation | undefined, role: string): void {
  if (v) throw new PropertyViolation({ ...v, role: v.role ?? role });
}

/** The model's judgement first (the more specific diagnosis), then the answers' schema mismatches. */
export function judge(v: Violation | undefined, answers: readonly Answer[], role: string): void {
  fail(v, role);
  fail(answers.find((a) => a.schema)?.schema, role);
}

export const pick = <T>(xs: readonly T[], sel: number): T => xs[sel % xs.length] as T;
/** Positions -1 (the anchor) .. known-1. */
export const position = (m: Model, sel: number): number => (sel % (m.stream.known.length + 1)) - 1;
export const keyName = (m: Model, key: string): string => `k${m.idem.keys.indexOf(key) + 1}`;

export function oracleContext(s: StreamModel, start: number, fence?: number): OracleContext {
  const index = new Map(s.known.map((e, i) => [e.uid, i]));
  return {
    label: snapshotLabeller(s.known),
    snapshotIndex: (uid) => index.get(uid),
    ...(start >= 0 ? { startIndex: start } : {}),
    ...(fence !== undefined && fence >= 0 ? { fenceIndex: fence } : {}),
  };
}

/** Reads on from the last known event (default page size) when a write may have added events. */
export async function learnHead(m: Model, r: Real, role: string): Promise<void> {
  if (m.stream.headKnown) return;
  const last = m.stream.known.length - 1;
  const what = `${role} (reading on from the last known event)`;
  const pages = await collect(r.events, { startCursor: m.stream.cursorAt(last) }, snapshotLabeller(m.stream.known));
  const fresh = pages.flatMap((p) => p.events);
  fail(m.stream.extend(fresh), what);
  const fenceProblem = pages.map((p) => m.stream.recordFence(p.pageInfo.endCursor)).find((x) => x !== undefined);
  if (fenceProblem) {
    // An endCursor naming an earlier event may as well be events out of order on the page: ONE probe, reading
    // the new events again one per page, tells them apart (an order that differs is the better diagnosis).
    const oracle = new TraversalOracle(fresh, oracleContext(m.stream, last));
    await walk(r.events, { startCursor: m.stream.cursorAt(last), limit: 1 }, oracle, `${what}, probe: one event per page`, { maxPages: r.maxPages });
    fail(fenceProblem, what);
  }
}


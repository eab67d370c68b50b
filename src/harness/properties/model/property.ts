/**
 * The stateful model property as one reusable unit (the Playwright spec and the self-tests both run it):
 * decide whether it applies to the target (it writes: subscriptions, checkpoints, appended events), read the
 * product once, then run random command sequences (commands.ts) against the model (state.ts) through the
 * fast-check runner: bounded by numRuns, maxCommands and the time limit; a failure shrinks to the shortest
 * sequence and is printed with seed, path and replayPath and the requests of that run.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { FtfError } from '../../../shared/errors.js';
import type { Exchange } from '../../http/types.js';
import { propertyTest } from '../catalogue.js';
import { missingCapabilities } from '../../target/capabilities.js';
import { missingRoles, missingRolesReason } from '../../scenario/roles.js';
import { targetView } from '../../engine/target-view.js';
import type { ResolvedTarget } from '../../target/types.js';
import type { EventsApi } from '../events-api.js';
import type { RunLog } from '../run-log.js';
import { formatRequestLines } from '../counterexample.js';
import { MODEL_CLAUSES as CATALOGUE_MODEL_CLAUSES } from '../catalogue.js';
import { checkProperty, withoutFrames, type PropertySettings } from '../runner.js';
import { PropertyViolation, propertyFailure, type ModelClause, type PagingClause } from '../types.js';
import type { ModelApi, Product } from './api.js';
import { commandsArbitrary, setupRun, type Real } from './commands.js';
import type { Can } from './command-kit.js';
import { judgeIssued } from './tokens.js';

/** Clauses the model property checks (annotated on the test, named in every violation). */
export const MODEL_CLAUSES: ReadonlyArray<ModelClause | PagingClause> = CATALOGUE_MODEL_CLAUSES;

/** Defaults: commands per run and requests released together (FTF_FC_COMMANDS overrides the first). */
export const DEFAULT_MAX_COMMANDS = 25;
export const MAX_TOGETHER = 6;

export interface ModelPropertyOptions {
  title: string;
  settings: PropertySettings;
  maxCommands: number;
  /** FTF_FC_REPLAY_PATH: fast-check's replayPath of a printed counterexample. */
  replayPath: string | undefined;
  timeLimitMs: number;
  command: string;
  onFailure?: (text: string, exchanges: readonly Exchange[]) => Promise<void>;
}

export interface PreparedModelProperty {
  skip: string | undefined;
  run(): Promise<{ numRuns: number; numSkips: number; interrupted: boolean }>;
}

/** Why the property does not apply: it needs mutations allowed (profile + guard) and a primary indication. */
/** The runner's own skip words for what the model property needs (its catalogue entry: needs and roles), as doctor announces them. */
export function modelSkipReason(target: ResolvedTarget): string | undefined {
  return modelSkipReasonFor('properties.model-stateful', target);
}

/** The same for any catalogue entry (needs and roles). */
export function modelSkipReasonFor(id: string, target: ResolvedTarget): string | undefined {
  const entry = propertyTest(id);
  const caps = missingCapabilities(target, entry.needs ?? []);
  if (caps.length) return `needs ${caps.join(', ')}: the target profile does not declare ${caps.length > 1 ? 'them' : 'it'}`;
  const roles = missingRoles(targetView(target), entry.roles ?? []);
  return roles.length ? missingRolesReason(roles) : undefined;
}

export async function prepareModelProperty(api: ModelApi, events: EventsApi, log: RunLog, target: ResolvedTarget, opts: ModelPropertyOptions): Promise<PreparedModelProperty> {
  const skip = modelSkipReason(target);
  const bases = { baseUrl: target.baseUrl, authUrl: target.authUrl, controlUrl: target.controlUrl };
  const can: Can = {
    append: events.canAppend,
    second: Boolean(target.credentials.second),
    readonly: Boolean(target.credentials.readonly),
    clock: events.canAppend,
    entities: target.entities.allowed,
    forbidden: target.entities.forbidden,
    ...credentialKinds(target),
  };
  return {
    skip,
    run: async () => {
      const exchanges = log.begin();
      let product: Product;
      try {
        await checkFirstToken(api, target, can);
        product = await api.product(target.indications.primary as string, target.entities.allowed[0] as string);
      } catch (e) {
        if (!(e instanceof PropertyViolation)) throw e;
        // Before any sequence is generated: no seed to replay, but the requests that showed it.
        throw withoutFrames(propertyFailure([`property "${opts.title}" failed in its set-up (the primary credential's token, the indication): ${e.message}`,
          '  requests (URLs relative to base_url):', ...formatRequestLines(exchanges, bases).map((l) => `  ${l}`)].join('\n'), e));
      }
      const prefix = `mb-${randomBytes(4).toString('hex')}`;
      let n = 0;
      return checkProperty({
        title: opts.title,
        arbitrary: commandsArbitrary({ maxCommands: opts.maxCommands, maxTogether: MAX_TOGETHER, replayPath: opts.replayPath }),
        predicate: async (cmds) => {
          const real: Real = {
            api, events, target, name: `${prefix}-${++n}`, unknownUid: randomUUID(), maxPages: target.timeouts.maxPages, tag: `${prefix}-${n}`,
            // One product for every run: a run that moved the clock leaves the current uid for the next.
            get product() { return product; },
            refreshProduct: async () => { product = await api.product(target.indications.primary as string, target.entities.allowed[0] as string); },
          };
          await fc.asyncModelRun(async () => ({ model: await setupRun(real, can), real }), cmds);
        },
        settings: opts.settings,
        log,
        bases,
        describe: (cmds) => String(cmds),
        command: opts.command,
        extraEnv: (cmds) => {
          const m = /replayPath="([^"]+)"/.exec(String(cmds));
          return m ? [`FTF_FC_REPLAY_PATH=${m[1] as string}`] : [];
        },
        timeLimitMs: opts.timeLimitMs,
        ...(opts.onFailure ? { onFailure: opts.onFailure } : {}),
      });
    },
  };
}

/**
 * The set-up's first request, when the primary credential is a client_credentials one: its token exchange, judged
 * by the model (tokens.ts). A token answer off the spec (no expires_in, …) then fails by its clause here, instead of
 * erroring in the auth client the other requests go through.
 */
async function checkFirstToken(api: ModelApi, target: ResolvedTarget, can: Can): Promise<void> {
  const cred = target.credentials.primary;
  if (!cred || !can.clients.includes('primary')) return;
  const role = 'setup: token for the primary credential';
  const a = await api.token({ grant_type: 'client_credentials', client_id: cred.clientId ?? '', client_secret: cred.secret ?? '' }, api.basic('primary'), role);
  const violation = judgeIssued('client_credentials for primary', 'client_credentials', a);
  if (violation) throw new PropertyViolation({ ...violation, role });
}

/** The profile's credentials by kind, as the token commands use them (commands-token.ts). */
export function credentialKinds(target: ResolvedTarget): Pick<Can, 'clients' | 'codes' | 'apiKeys'> {
  const creds = Object.values(target.credentials);
  return {
    clients: creds.filter((c) => c.kind === 'client_credentials' && c.clientId && c.secret !== undefined).map((c) => c.name),
    codes: target.capabilities.has('consent') ? creds.filter((c) => c.kind === 'authorization_code' && c.consent && c.clientId && c.redirectUri && c.secret !== undefined).map((c) => c.name) : [],
    apiKeys: target.environment === 'sandbox' ? creds.filter((c) => c.kind === 'api_key' && !c.refusalProbe && c.secret).map((c) => c.name) : [],
  };
}

export interface ModelSettings {
  maxCommands: number;
  replayPath: string | undefined;
}

/** FTF_FC_COMMANDS (commands per run) and FTF_FC_REPLAY_PATH (from a printed counterexample); pure: pass process.env. */
export function modelSettings(env: Record<string, string | undefined>): ModelSettings {
  const raw = env.FTF_FC_COMMANDS?.trim();
  if (raw && (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 1000)) {
    throw new FtfError('FTF_E_PROPERTY_SETTINGS', `FTF_FC_COMMANDS must be an integer from 1 to 1000, got "${raw}"`, { hint: 'unset FTF_FC_COMMANDS to use the default' });
  }
  const replayPath = env.FTF_FC_REPLAY_PATH?.trim();
  if (replayPath && !/^[A-Za-z0-9+/=:_-]+$/.test(replayPath)) {
    throw new FtfError('FTF_E_PROPERTY_SETTINGS', `FTF_FC_REPLAY_PATH must be the replayPath printed with a counterexample, got "${replayPath}"`);
  }
  return { maxCommands: raw ? Number(raw) : DEFAULT_MAX_COMMANDS, replayPath: replayPath || undefined };
}

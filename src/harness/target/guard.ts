/**
 * The production guard at run time. Two layers, both needed:
 * - scenarios that need `mutation` are SKIPPED on a production target unless the run opted in twice (the
 *   profile's allow_mutations AND the CLI's --allow-mutations, which sets FTF_ALLOW_MUTATIONS=1);
 * - a transport wrapper refuses every POST/PUT/PATCH/DELETE under base_url on such a target, so a scenario
 *   that forgot to declare `needs: [mutation]` fails readably instead of writing to production.
 * The token endpoint and consent (under auth_url, outside base_url) stay allowed: reading needs a token.
 * So does the same token request sent to {base_url}/oauth/token (AUTH-TOKEN-ROOT checks that it is 404):
 * a token request changes no investment state, wherever it is sent.
 */
import { FtfError } from '../../shared/errors.js';
import type { HttpRequest, HttpResponse, RaceLane, Transport } from '../http/types.js';
import { PROFILE_ERROR_CODES } from './errors.js';
import { isUnder, normaliseUrl } from './url-normalise.js';
import type { Capability, ResolvedTarget } from './types.js';

export const PRODUCTION_MUTATION_SKIP_REASON = 'production target: mutations need --allow-mutations and allow_mutations: true in the profile';

/** The CLI's --allow-mutations arrives as FTF_ALLOW_MUTATIONS=1 (src/cli/commands/run.ts). */
export function cliAllowsMutations(env: NodeJS.ProcessEnv = process.env): boolean {
  return /^(1|true|yes)$/i.test(env.FTF_ALLOW_MUTATIONS?.trim() ?? '');
}

export type GuardTarget = Pick<ResolvedTarget, 'environment' | 'allowMutations'>;

/** True when writes to this target are refused: production without both opt-ins. */
export function productionWritesRefused(target: GuardTarget, cliAllow: boolean): boolean {
  return target.environment === 'production' && !(target.allowMutations && cliAllow);
}

/** The skip reason for a scenario with these needs, or undefined when the guard does not apply. */
export function mutationSkipReason(target: GuardTarget, needs: readonly Capability[], cliAllow: boolean): string | undefined {
  return needs.includes('mutation') && productionWritesRefused(target, cliAllow) ? PRODUCTION_MUTATION_SKIP_REASON : undefined;
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * True for a write under base_url (the API), whatever the spelling of the method or of the URL (see
 * url-normalise.ts); a token request is none. A URL that does not parse is treated as a write: the guard
 * cannot tell where it goes.
 */
export function isApiWrite(req: Pick<HttpRequest, 'method' | 'url'>, baseUrl: string): boolean {
  const method = req.method.trim().toUpperCase();
  if (!WRITES.has(method)) return false;
  const url = normaliseUrl(req.url);
  const base = normaliseUrl(baseUrl);
  if (!url || !base) return true;
  if (method === 'POST' && url.origin === base.origin && url.path === `${base.path}/oauth/token`) return false;
  return isUnder(url, base);
}

/** Wraps a transport so that API writes to a guarded production target throw FTF_E_PRODUCTION_MUTATIONS_REFUSED. */
export function guardProductionWrites<T extends Transport>(inner: T, target: GuardTarget & Pick<ResolvedTarget, 'baseUrl' | 'name'>, cliAllow: boolean): Transport {
  if (!productionWritesRefused(target, cliAllow)) return inner;
  const refusal = (req: HttpRequest): FtfError => new FtfError(PROFILE_ERROR_CODES.mutationsRefused,
    `${req.method} ${req.url} refused before sending: ${PRODUCTION_MUTATION_SKIP_REASON} (target "${target.name}")`,
    { hint: 'declare needs: [mutation] on the scenario so it is skipped, or opt in with both allow_mutations: true and --allow-mutations' });
  return {
    send(req: HttpRequest): Promise<HttpResponse> {
      if (isApiWrite(req, target.baseUrl)) return Promise.reject(refusal(req));
      return inner.send(req);
    },
    ...(inner.race ? {
      race(lanes: RaceLane[]) {
        const write = lanes.flatMap((l) => [l.warm, l.request]).find((r) => isApiWrite(r, target.baseUrl));
        return write ? Promise.reject(refusal(write)) : (inner.race as NonNullable<Transport['race']>)(lanes);
      },
    } : {}),
    ...(inner.dispose ? { dispose: () => inner.dispose?.() ?? Promise.resolve() } : {}),
  };
}

/**
 * The production guard at run time. Two layers, both needed:
 * - scenarios that need `mutation` are SKIPPED on a production target unless the run opted in twice (the
 *   profile's allow_mutations AND the CLI's --allow-mutations, which reaches the workers as a grant only the CLI
 *   can issue (mutation-grant.ts; no inherited variable enables writes);
 * - a transport wrapper refuses every POST/PUT/PATCH/DELETE under base_url on such a target, so a scenario
 *   that forgot to declare `needs: [mutation]` fails readably instead of writing to production.
 * The token endpoint and consent (under auth_url, outside base_url) stay allowed: reading needs a token.
 * So does the same token request sent to {base_url}/oauth/token (AUTH-TOKEN-ROOT checks that it is 404):
 * a token request changes no investment state, wherever it is sent.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { FtfError } from '../../shared/errors.js';
import type { HttpRequest, HttpResponse, RaceLane, Transport } from '../http/types.js';
import { PROFILE_ERROR_CODES } from './errors.js';
import { grantProblem } from './mutation-grant.js';
import { isUnder, normaliseUrl } from './url-normalise.js';
import type { Capability, ResolvedTarget } from './types.js';

export const PRODUCTION_MUTATION_SKIP_REASON = 'production target: mutations need --allow-mutations and allow_mutations: true in the profile';

/** The CLI's --allow-mutations, as a grant the CLI of this run issued (mutation-grant.ts); nothing else counts. */
export function cliAllowsMutations(env: NodeJS.ProcessEnv = process.env): boolean {
  return grantProblem(env) === undefined;
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

/** Host name -> addresses it resolves to (an injectable lookup for tests). */
export type HostResolver = (host: string) => Promise<string[]>;

const systemResolver: HostResolver = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** One lookup per host name per guarded transport (a test's worth of requests). */
function cachedResolver(): HostResolver {
  const seen = new Map<string, Promise<string[]>>();
  return (host) => {
    let hit = seen.get(host);
    if (!hit) {
      hit = systemResolver(host);
      seen.set(host, hit);
    }
    return hit;
  };
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|0:0:0:0:0:0:0:1|::ffff:127\.\d+\.\d+\.\d+|localhost|localhost\.)$/i;
const bare = (host: string): string => host.replace(/^\[|\]$/g, '').toLowerCase();

/**
 * isApiWrite on RESOLVED origins: a write whose URL names base_url's host by another spelling (localhost for
 * 127.0.0.1, a second DNS name of the same address, ::1) with the same scheme and port and a path under
 * base_url's is a write to the API. Loopback names and addresses are one host. A name that does not resolve
 * counts as the same host: the guard errs towards refusing.
 */
export async function isApiWriteResolved(req: Pick<HttpRequest, 'method' | 'url'>, baseUrl: string, resolver: HostResolver = systemResolver): Promise<boolean> {
  if (isApiWrite(req, baseUrl)) return true;
  const method = req.method.trim().toUpperCase();
  if (!WRITES.has(method)) return false;
  const url = normaliseUrl(req.url);
  const base = normaliseUrl(baseUrl);
  if (!url || !base) return true;
  const u = new URL(url.origin);
  const b = new URL(base.origin);
  if (u.protocol !== b.protocol || u.port !== b.port) return false;
  if (!(url.path === base.path || url.path.startsWith(`${base.path}/`))) return false;
  if (method === 'POST' && url.path === `${base.path}/oauth/token`) return false;
  return sameHost(bare(u.hostname), bare(b.hostname), resolver);
}

async function sameHost(a: string, b: string, resolver: HostResolver): Promise<boolean> {
  if (a === b) return true;
  const addresses = async (host: string): Promise<string[] | undefined> => {
    if (isIP(host)) return [host];
    try {
      return (await resolver(host)).map(bare);
    } catch {
      return undefined;
    }
  };
  const [ra, rb] = await Promise.all([addresses(a), addresses(b)]);
  if (!ra || !rb || ra.length === 0 || rb.length === 0) return true;
  const loop = (list: string[]): boolean => list.some((x) => LOOPBACK.test(x));
  if (loop(ra) && loop(rb)) return true;
  return ra.some((x) => rb.includes(x));
}

/** Wraps a transport so that API writes to a guarded production target throw FTF_E_PRODUCTION_MUTATIONS_REFUSED. */
export function guardProductionWrites<T extends Transport>(inner: T, target: GuardTarget & Pick<ResolvedTarget, 'baseUrl' | 'name'>, cliAllow: boolean, resolver: HostResolver = cachedResolver()): Transport {
  if (!productionWritesRefused(target, cliAllow)) return inner;
  const refusal = (req: HttpRequest): FtfError => new FtfError(PROFILE_ERROR_CODES.mutationsRefused,
    `${req.method} ${req.url} refused before sending: ${PRODUCTION_MUTATION_SKIP_REASON} (target "${target.name}")`,
    { hint: 'declare needs: [mutation] on the scenario so it is skipped, or opt in with both allow_mutations: true and --allow-mutations' });
  return {
    async send(req: HttpRequest): Promise<HttpResponse> {
      if (await isApiWriteResolved(req, target.baseUrl, resolver)) throw refusal(req);
      return inner.send(req);
    },
    ...(inner.race ? {
      async race(lanes: RaceLane[]) {
        const all = lanes.flatMap((l) => [l.warm, l.request]);
        const writes = await Promise.all(all.map((r) => isApiWriteResolved(r, target.baseUrl, resolver)));
        const write = all.find((_, i) => writes[i]);
        if (write) throw refusal(write);
        return (inner.race as NonNullable<Transport['race']>)(lanes);
      },
    } : {}),
    ...(inner.dispose ? { dispose: () => inner.dispose?.() ?? Promise.resolve() } : {}),
  };
}

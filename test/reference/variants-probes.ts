/**
 * One probe per variant (issue 12): it tells which behaviour a server shows at the variant's point,
 * 'default' (today's), 'alternate' (the variant's) or 'neither'. The probes find things the way a harness
 * would, through the target-profile settings the server's variants call for (profileFor), so they also work
 * when several variants are on at once (persona all-alternate).
 */
import type { ProfileValue } from '../../src/reference/variant-registry.js';
import { OTHER_DETAIL_TEXTS } from '../../src/reference/http/errors.js';
import { apiPaths, profileFor, type ApiPaths } from '../../src/reference/variants.js';
import { newKey, type H, type Res } from './faults-harness.js';

export type Seen = 'default' | 'alternate' | 'neither';

export interface VariantProbe {
  variant: string;
  checks: string;
  /** Extra server options the probe needs (e.g. more events). */
  options?: { events?: number };
  observe(h: H): Promise<Seen>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const OPAQUE = /^id_[0-9a-f]{32}$/;
const WEBHOOK = 'https://hooks.example.test/ftf';
const FORM = 'application/x-www-form-urlencoded';

const seen = (isDefault: boolean, isAlternate: boolean): Seen => (isAlternate && !isDefault ? 'alternate' : isDefault && !isAlternate ? 'default' : 'neither');

function profile(h: H): Record<string, ProfileValue> {
  return profileFor(h.ref.ctx.variants);
}

function paths(h: H): ApiPaths {
  return apiPaths(h.ref.ctx.variants);
}

/** `/holding/{entity_code}` + values -> `/holding/ENT-ALPHA`. */
function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{([A-Za-z_]+)\}/g, (_m, k: string) => encodeURIComponent(String(values[k] ?? '')));
}

/** RFC 6901 pointer lookup ('' = the whole value). */
export function at(value: unknown, pointer: string): unknown {
  if (pointer === '') return value;
  let cur: unknown = value;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

const setting = (h: H, key: string, fallback: string): string => {
  const v = profile(h)[key];
  return typeof v === 'string' ? v : fallback;
};

/** DELETE /webhook under a request-shape variant: 422 without the URL, 200 with it placed as `send` places it. */
function webhookDeleteProbe(variant: string, checks: string, send: (h: H, field: string) => Promise<Res>, answered: (r: Res) => boolean): VariantProbe {
  return {
    variant, checks,
    async observe(h) {
      const field = setting(h, 'fields.webhook_url', 'url');
      await h.api('POST', '/webhook', { json: { [field]: WEBHOOK } });
      const bare = await h.api('DELETE', '/webhook');
      await h.api('POST', '/webhook', { json: { [field]: WEBHOOK } });
      const placed = await send(h, field);
      return seen(bare.status === 200 && typeof bare.body.email === 'string', bare.status === 422 && placed.status === 200 && answered(placed));
    },
  };
}

/** The reference's maximum page size is its default one: what a GET /event without a size reports (as the harness finds it). */
async function maxPageSize(h: H): Promise<number> {
  return Number((await h.api('GET', '/event')).body.pageInfo.limit);
}

const VALUES = { code: 'ENT-ALPHA', entity_code: 'ENT-ALPHA', year: 2026 };

/** The array of a list response, found through `fields.<key>_list` (defaults: '' or '/checkpoints'). */
function listOf(h: H, key: string, res: Res): unknown[] | undefined {
  const v = at(res.body, setting(h, `fields.${key}_list`, key === 'checkpoints' ? '/checkpoints' : ''));
  return Array.isArray(v) ? v : undefined;
}

async function indication(h: H, code = 'FTF-FIX-1M'): Promise<Record<string, unknown>> {
  const res = await h.api('GET', `/indication/${code}`);
  return at(res.body, setting(h, 'records.indication', '')) as Record<string, unknown>;
}

async function subscribe(h: H, body: Record<string, unknown> = {}, key = newKey()): Promise<Res> {
  const ind = await indication(h);
  return h.api('POST', '/subscribe', { headers: { 'idempotency-key': key }, json: { indicationUid: ind.uid, entityCode: 'ENT-ALPHA', amount: 1_000_000, ...body } });
}

function eventUrl(h: H, query: Record<string, string | number>): string {
  const limit = setting(h, 'fields.event_limit_param', 'limit');
  const q = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k === 'limit' ? limit : k, String(v)]));
  return `/event?${q.toString()}`;
}

/** PUT a checkpoint with the request shape the profile says (checkpoint.put). */
async function put(h: H, name: string): Promise<Res> {
  return h.api('PUT', `/event/checkpoint/${name}`, profile(h)['checkpoint.put.in'] === 'json-body' ? { json: { name } } : {});
}

/** Every list the reference serves, fetched through the paths the server's variants call for. */
async function everyList(h: H): Promise<Record<string, Res>> {
  const p = paths(h);
  const holdings = await h.api('GET', fill(p.holdings, VALUES));
  const first = listOf(h, 'holdings', holdings)?.[0] as { uid?: string } | undefined;
  await put(h, `list-probe-${newKey()}`);
  return {
    cells: await h.api('GET', p.cells),
    entities: await h.api('GET', p.entities),
    entity_users: await h.api('GET', fill(p.entity_users, VALUES)),
    holdings,
    holding_extensions: await h.api('GET', fill(p.holding_extensions, { ...VALUES, holding_uid: first?.uid ?? 'none' })),
    holidays: await h.api('GET', fill(p.holidays, VALUES)),
    indications: await h.api('GET', p.indications),
    subscriptions: await h.api('GET', '/subscription?entity_code=ENT-ALPHA'),
    checkpoints: await h.api('GET', p.checkpoints),
  };
}

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

type PagingKindName = 'page-number' | 'cursor' | 'link-header' | 'offset-limit';
/** subscriptions and holdings have paging points of their own; the all-lists point is seen on indications. */
type PagedList = 'subscriptions' | 'holdings' | 'indications';

/** The path of a list the paging probes look at, with at least 3 entries (subscriptions: 3 made here). */
async function pagedListPath(h: H, list: PagedList): Promise<string> {
  if (list === 'holdings') return fill(paths(h).holdings, VALUES);
  if (list === 'indications') return paths(h).indications;
  for (let i = 0; i < 3; i++) await subscribe(h);
  return '/subscription?entity_code=ENT-ALPHA';
}

const withQuery = (path: string, q: string): string => `${path}${path.includes('?') ? '&' : '?'}${q}`;

/**
 * Paging of one list (issue 25): evidence of the kind, asked the way a client of that kind would. Default:
 * the usual layout, whole (page parameters ignored, no Link header).
 */
function pagingProbe(variant: string, list: PagedList, kind: PagingKindName): VariantProbe {
  return {
    variant, checks: `${list === 'subscriptions' ? 'GET /subscription' : `the ${list} list`} is paged by ${kind}`,
    async observe(h) {
      const path = await pagedListPath(h, list);
      const whole = await h.api('GET', path);
      const usual = (r: Res): unknown[] | undefined => (Array.isArray(r.body) ? r.body : isObj(r.body) && Array.isArray(r.body.items) ? r.body.items : undefined);
      const all = usual(whole);
      const isDefault = whole.status === 200 && all !== undefined && all.length >= 3 && whole.headers.link === undefined;
      switch (kind) {
        case 'page-number': {
          const b = (await h.api('GET', withQuery(path, 'page=2'))).body;
          return seen(isDefault, isObj(b) && Array.isArray(b.results) && b.results.length >= 1 && b.results.length <= 2 && isObj(b.pageInfo) && b.pageInfo.page === 2 && typeof b.pageInfo.hasNextPage === 'boolean');
        }
        case 'cursor': {
          const b = whole.body;
          if (!(isObj(b) && Array.isArray(b.data) && typeof b.next === 'string')) return seen(isDefault, false);
          const second = (await h.api('GET', withQuery(path, `cursor=${encodeURIComponent(b.next)}`))).body;
          return seen(isDefault, isObj(second) && Array.isArray(second.data) && second.data.length > 0);
        }
        case 'link-header': {
          const r = await h.api('GET', withQuery(path, 'per_page=1'));
          const link = String(r.headers.link ?? '');
          return seen(isDefault && r.headers.link === undefined, /^<http:\/\/[^>]+[?&]after=1[^>]*>; rel="next"$/.test(link) && usual(r)?.length === 1);
        }
        case 'offset-limit': {
          const r = usual(await h.api('GET', withQuery(path, 'offset=1&limit=1')));
          return seen(isDefault && (r?.length ?? 0) >= 3, all !== undefined && r?.length === 1 && JSON.stringify(r[0]) === JSON.stringify(all[1]));
        }
      }
    },
  };
}

/** One probe per paging variant: lists-* (every list; seen on the indications list), subscriptions-*, holdings-*. */
const PAGING_PROBES: VariantProbe[] = (['page-number', 'cursor', 'link-header', 'offset-limit'] as const).flatMap((kind) => [
  pagingProbe(`lists-${kind}`, 'indications', kind),
  pagingProbe(`subscriptions-${kind}`, 'subscriptions', kind),
  pagingProbe(`holdings-${kind}`, 'holdings', kind),
]);

export const VARIANT_PROBES: VariantProbe[] = [
  ...PAGING_PROBES,
  {
    variant: 'indication-as-list', checks: 'GET /indication/{code} is a list holding the record',
    async observe(h) {
      const b = (await h.api('GET', '/indication/FTF-FIX-1M')).body;
      return seen(isObj(b) && b.code === 'FTF-FIX-1M', Array.isArray(b) && b.length === 1 && b[0].code === 'FTF-FIX-1M');
    },
  },
  {
    variant: 'indication-wrapped', checks: 'GET /indication/{code} is {indication: record}',
    async observe(h) {
      const b = (await h.api('GET', '/indication/FTF-FIX-1M')).body;
      return seen(isObj(b) && b.code === 'FTF-FIX-1M', isObj(b) && isObj(b.indication) && b.indication.code === 'FTF-FIX-1M' && b.code === undefined);
    },
  },
  {
    variant: 'subscribe-response-wrapped', checks: 'POST /subscribe answers {subscription: record}',
    async observe(h) {
      const r = await subscribe(h);
      const b = r.body;
      return seen(r.status === 200 && typeof b.uid === 'string' && b.holdingUid === null,
        r.status === 200 && isObj(b.subscription) && typeof b.subscription.uid === 'string' && b.uid === undefined);
    },
  },
  {
    variant: 'subscribe-response-minimal', checks: 'POST /subscribe answers {subscriptionUid, status}; the record is in GET /subscription',
    async observe(h) {
      const r = await subscribe(h);
      const b = r.body;
      const list = listOf(h, 'subscriptions', await h.api('GET', '/subscription?entity_code=ENT-ALPHA')) ?? [];
      const listed = list.some((s) => isObj(s) && s.uid === b.subscriptionUid && s.holdingUid === null);
      return seen(r.status === 200 && typeof b.uid === 'string' && 'holdingUid' in b,
        r.status === 200 && typeof b.subscriptionUid === 'string' && b.uid === undefined && listed);
    },
  },
  {
    variant: 'lists-wrapped', checks: 'every list is {items, page}',
    async observe(h) {
      const lists = Object.entries(await everyList(h));
      const bare = lists.every(([k, r]) => r.status === 200 && (k === 'checkpoints' ? Array.isArray(r.body.checkpoints) : Array.isArray(r.body)));
      const wrapped = lists.every(([, r]) => r.status === 200 && Array.isArray(r.body.items) && isObj(r.body.page) && r.body.page.size === r.body.items.length);
      return seen(bare, wrapped);
    },
  },
  {
    variant: 'checkpoint-list-bare', checks: 'the checkpoint list is a bare array',
    async observe(h) {
      await put(h, 'bare-list-probe');
      const r = await h.api('GET', paths(h).checkpoints);
      return seen(isObj(r.body) && Array.isArray(r.body.checkpoints), Array.isArray(r.body) && r.body.some((c: { name?: string }) => c.name === 'bare-list-probe'));
    },
  },
  {
    variant: 'plural-paths', checks: 'the not-shown operations live at plural paths; the singular ones are 404',
    async observe(h) {
      const singular = ['/health', '/cell', '/entity', '/entity/ENT-ALPHA/user', '/indication', '/event/checkpoint'];
      const plural = ['/status', '/cells', '/entities', '/entities/ENT-ALPHA/users', '/indications', '/event/checkpoints'];
      const statuses = async (list: string[]): Promise<number[]> => Promise.all(list.map(async (p) => (await h.api('GET', p)).status));
      const s = await statuses(singular);
      const pl = await statuses(plural);
      // Under entity-in-query the users list has no path segment form at all.
      const users = h.ref.ctx.variants.is('entity-in-query') ? 3 : -1;
      const ok = (xs: number[], want: number) => xs.every((x, i) => i === users || x === want);
      return seen(ok(s, 200) && ok(pl, 404), ok(s, 404) && ok(pl, 200));
    },
  },
  {
    variant: 'entity-in-query', checks: 'holdings and entity users take entity_code as a query parameter (forbidden entity still 403)',
    async observe(h) {
      const plural = h.ref.ctx.variants.is('plural-paths');
      const holding = plural ? '/holdings' : '/holding';
      const inQuery = await h.api('GET', `${holding}?entity_code=ENT-ALPHA`);
      const inPath = await h.api('GET', `${holding}/ENT-ALPHA`);
      const users = await h.api('GET', `${plural ? '/users' : '/user'}?entity_code=ENT-ALPHA`);
      const forbidden = await h.api('GET', `${holding}?entity_code=ENT-GAMMA`);
      return seen(inPath.status === 200 && inQuery.status === 404,
        inQuery.status === 200 && (listOf(h, 'holdings', inQuery)?.length ?? 0) > 0 && inPath.status === 404
        && users.status === 200 && (listOf(h, 'entity_users', users)?.length ?? 0) > 0 && forbidden.status === 403);
    },
  },
  {
    variant: 'holidays-by-year', checks: 'GET /holiday/{year} answers that year only',
    async observe(h) {
      const base = h.ref.ctx.variants.is('plural-paths') ? '/holidays' : '/holiday';
      const y2026 = await h.api('GET', `${base}/2026`);
      const y2025 = await h.api('GET', `${base}/2025`);
      const all = await h.api('GET', base);
      const dates = (listOf(h, 'holidays', y2026) ?? []) as Array<{ date: string }>;
      return seen(all.status === 200 && y2026.status === 404,
        y2026.status === 200 && dates.length > 0 && dates.every((d) => d.date.startsWith('2026-'))
        && (listOf(h, 'holidays', y2025) ?? [1]).length === 0 && all.status === 404);
    },
  },
  {
    variant: 'health-public', checks: 'the health check answers 200 {status} without a token',
    async observe(h) {
      const r = await h.raw('GET', `/api/v1${paths(h).health}`);
      return seen(r.status === 401, r.status === 200 && r.body.status === 'OK');
    },
  },
  {
    variant: 'unknown-route-401-first', checks: 'an unknown route is 401 without a token, 404 with one; {base_url}/oauth/token stays 404',
    async observe(h) {
      const anon = await h.raw('GET', '/api/v1/no-such-route');
      const authed = await h.api('GET', '/no-such-route');
      const tokenUnderBase = await h.tokenRequest({ grant_type: 'client_credentials' }, 'cc-alice', { url: '/api/v1/oauth/token' });
      if (authed.status !== 404 || tokenUnderBase.status !== 404) return 'neither';
      return seen(anon.status === 404, anon.status === 401 && typeof anon.body.detail === 'string');
    },
  },
  {
    variant: 'checkpoint-put-existing-201', checks: 'PUT on an existing name answers 201 with the checkpoint unchanged',
    async observe(h) {
      const a = await put(h, 'again-201');
      const b = await put(h, 'again-201');
      if (a.status !== 201 || b.body.checkpointVersion !== a.body.checkpointVersion || b.body.cursor !== a.body.cursor) return 'neither';
      return seen(b.status === 200, b.status === 201);
    },
  },
  {
    variant: 'checkpoint-put-existing-reset', checks: 'PUT on an existing name moves it to the current end (new version)',
    async observe(h) {
      const a = await put(h, 'again-reset');
      await h.sandbox('/events', { count: 3, entityCode: 'ENT-ALPHA' });
      const b = await put(h, 'again-reset');
      const head = (await h.api('GET', eventUrl(h, { limit: 1 }))).body.pageInfo.endCursor;
      if (a.status !== 201 || b.status !== 200 || b.body.uid !== a.body.uid) return 'neither';
      return seen(b.body.cursor === a.body.cursor && b.body.checkpointVersion === a.body.checkpointVersion,
        b.body.cursor === head && b.body.cursor !== a.body.cursor && b.body.checkpointVersion !== a.body.checkpointVersion);
    },
  },
  {
    variant: 'checkpoint-name-64', checks: 'checkpoint names of 65 characters are 422, of 64 accepted',
    async observe(h) {
      const long = await put(h, 'n'.repeat(65));
      const fits = await put(h, 'm'.repeat(64));
      if (fits.status !== 201) return 'neither';
      // 422, or 400 under query-errors-400: the harness tolerates both (a path value is not a body).
      return seen(long.status === 201, [400, 422].includes(long.status) && long.body.detail !== undefined);
    },
  },
  {
    variant: 'checkpoint-patch-bare', checks: 'a successful PATCH answers the CheckpointData at the root',
    async observe(h) {
      const a = await put(h, 'patch-bare');
      const r = await h.api('PATCH', '/event/checkpoint/patch-bare', { json: { expectedCheckpointVersion: a.body.checkpointVersion, newCursor: a.body.cursor } });
      if (r.status !== 200) return 'neither';
      return seen(isObj(r.body.checkpoint) && r.body.checkpoint.name === 'patch-bare' && r.body.uid === undefined,
        r.body.name === 'patch-bare' && typeof r.body.checkpointVersion === 'string' && r.body.checkpoint === undefined);
    },
  },
  {
    variant: 'checkpoint-noop-keeps-version', checks: 'a PATCH with the current version to the cursor held keeps the checkpointVersion (a stale one is still 409)',
    async observe(h) {
      const a = await put(h, 'noop-keeps');
      const r = await h.api('PATCH', '/event/checkpoint/noop-keeps', { json: { expectedCheckpointVersion: a.body.checkpointVersion, newCursor: a.body.cursor } });
      if (r.status !== 200) return 'neither';
      // Under checkpoint-patch-bare (the all-alternate persona) the CheckpointData sits at the root.
      const cp = (isObj(r.body.checkpoint) ? r.body.checkpoint : r.body) as Record<string, unknown>;
      const stale = await h.api('PATCH', '/event/checkpoint/noop-keeps', { json: { expectedCheckpointVersion: 'ec1.stale', newCursor: a.body.cursor } });
      if (stale.status !== 409 || typeof cp.checkpointVersion !== 'string') return 'neither';
      return seen(cp.checkpointVersion !== a.body.checkpointVersion, cp.checkpointVersion === a.body.checkpointVersion);
    },
  },
  {
    variant: 'checkpoint-conflict-bare', checks: 'a PATCH 409 carries the CheckpointData fields at the root, plus detail',
    async observe(h) {
      const a = await put(h, 'conflict-bare');
      const r = await h.api('PATCH', '/event/checkpoint/conflict-bare', { json: { expectedCheckpointVersion: 'ec1.stale', newCursor: a.body.cursor } });
      if (r.status !== 409 || typeof r.body.detail !== 'string') return 'neither';
      return seen(isObj(r.body.checkpoint) && r.body.checkpoint.checkpointVersion === a.body.checkpointVersion,
        r.body.checkpointVersion === a.body.checkpointVersion && r.body.name === 'conflict-bare' && r.body.checkpoint === undefined);
    },
  },
  {
    variant: 'page-size-250', checks: 'the default and maximum page size is 250',
    options: { events: 600 },
    async observe(h) {
      const plain = await h.api('GET', '/event');
      const over = await h.api('GET', eventUrl(h, { limit: 251 }));
      const clamped = h.ref.ctx.variants.is('page-limit-clamped');
      const overOk = clamped ? over.status === 200 && over.body.pageInfo.limit === 250 : over.status === 422;
      return seen(plain.body.pageInfo.limit === 1000 && plain.body.events.length > 250,
        plain.body.pageInfo.limit === 250 && plain.body.events.length === 250 && overOk);
    },
  },
  {
    variant: 'page-limit-clamped', checks: 'a limit above the maximum is served with the maximum',
    async observe(h) {
      const max = await maxPageSize(h);
      const r = await h.api('GET', eventUrl(h, { limit: max + 1 }));
      return seen(r.status === 422, r.status === 200 && r.body.pageInfo.limit === max);
    },
  },
  {
    variant: 'limit-param-page-size', checks: 'the page size parameter is page_size; limit is ignored',
    async observe(h) {
      const max = await maxPageSize(h);
      const byLimit = (await h.api('GET', '/event?limit=3')).body.pageInfo.limit;
      const byPageSize = (await h.api('GET', '/event?page_size=3')).body.pageInfo.limit;
      return seen(byLimit === 3 && byPageSize === max, byPageSize === 3 && byLimit === max);
    },
  },
  {
    variant: 'total-count-null', checks: 'pageInfo.totalCount is null',
    async observe(h) {
      const info = (await h.api('GET', eventUrl(h, { limit: 1 }))).body.pageInfo;
      return seen(typeof info.totalCount === 'number' && info.totalCount > 1, 'totalCount' in info && info.totalCount === null);
    },
  },
  {
    variant: 'total-count-absent', checks: 'pageInfo.totalCount is absent',
    async observe(h) {
      const info = (await h.api('GET', eventUrl(h, { limit: 1 }))).body.pageInfo;
      return seen(typeof info.totalCount === 'number' && info.totalCount > 1, !('totalCount' in info));
    },
  },
  {
    variant: 'page-cursors-absent', checks: 'on an empty page pageEndCursor and startCursor are absent, not null',
    async observe(h) {
      const head = (await h.api('GET', eventUrl(h, { limit: 1 }))).body.pageInfo.endCursor as string;
      const r = await h.api('GET', eventUrl(h, { start_cursor: head }));
      const info = r.body.pageInfo;
      if (r.status !== 200 || r.body.events.length !== 0 || info.endCursor !== head) return 'neither';
      return seen(info.pageEndCursor === null && info.startCursor === null, !('pageEndCursor' in info) && !('startCursor' in info));
    },
  },
  {
    variant: 'foreign-cursor-refused', checks: "a start_cursor of another entity's event is 400 Invalid cursor.",
    async observe(h) {
      const { store, codec } = h.ref.domain;
      let seq = 1;
      while (seq <= store.head && store.entityCodeAt(seq) !== 'ENT-GAMMA') seq++;
      const r = await h.api('GET', eventUrl(h, { start_cursor: codec.encode(seq) }));
      const own = (await h.api('GET', eventUrl(h, { limit: 1 }))).body.pageInfo.pageEndCursor as string;
      const ownOk = (await h.api('GET', eventUrl(h, { start_cursor: own }))).status === 200;
      if (!ownOk) return 'neither';
      return seen(r.status === 200, r.status === 400 && r.body.detail === 'Invalid cursor.');
    },
  },
  {
    variant: 'query-errors-400', checks: 'a bad query value is 400 {detail: string}; a bad body stays 422',
    async observe(h) {
      const q = await h.api('GET', eventUrl(h, { limit: 0 }));
      const body = await h.api('PATCH', '/event/checkpoint/any', { json: { newCursor: 1 } });
      if (body.status !== 422 || !Array.isArray(body.body.detail)) return 'neither';
      return seen(q.status === 422 && Array.isArray(q.body.detail), q.status === 400 && typeof q.body.detail === 'string');
    },
  },
  {
    variant: 'token-response-extras', checks: 'the token response carries scope, issued_at, token_type "bearer"',
    async observe(h) {
      const b = (await h.tokenRequest({ grant_type: 'client_credentials' })).body;
      if (typeof b.access_token !== 'string' || typeof b.expires_in !== 'number') return 'neither';
      return seen(b.token_type === 'Bearer' && b.scope === undefined, b.token_type === 'bearer' && typeof b.scope === 'string' && typeof b.issued_at === 'number');
    },
  },
  {
    variant: 'token-refresh-null', checks: 'a client_credentials token response carries refresh_token: null',
    async observe(h) {
      const b = (await h.tokenRequest({ grant_type: 'client_credentials' })).body;
      return seen(!('refresh_token' in b), 'refresh_token' in b && b.refresh_token === null);
    },
  },
  {
    variant: 'extra-fields', checks: 'every object of every body carries x-reference-extra',
    async observe(h) {
      const token = (await h.tokenRequest({ grant_type: 'client_credentials' })).body;
      const health = (await h.api('GET', paths(h).health)).body;
      const events = (await h.api('GET', eventUrl(h, { limit: 2 }))).body;
      const missing = (await h.api('GET', '/no-such-route')).body;
      const objects = [token, health, events, events.pageInfo, ...events.events, missing];
      const has = objects.map((o) => isObj(o) && o['x-reference-extra'] !== undefined);
      return seen(has.every((x) => !x), has.every((x) => x));
    },
  },
  {
    variant: 'webhook-url-field', checks: 'POST /webhook takes {callbackUrl}; {url} is 422',
    async observe(h) {
      const byUrl = await h.api('POST', '/webhook', { json: { url: WEBHOOK } });
      const byCallback = await h.api('POST', '/webhook', { json: { callbackUrl: WEBHOOK } });
      return seen(byUrl.status < 300 && byCallback.status === 422, byCallback.status < 300 && byCallback.body.url === WEBHOOK && byUrl.status === 422);
    },
  },
  {
    variant: 'webhook-post-201', checks: 'POST /webhook answers 201',
    async observe(h) {
      const r = await h.api('POST', '/webhook', { json: { [setting(h, 'fields.webhook_url', 'url')]: WEBHOOK } });
      return seen(r.status === 200, r.status === 201 && r.body.url === WEBHOOK);
    },
  },
  {
    variant: 'webhook-post-202', checks: 'POST /webhook answers 202',
    async observe(h) {
      const r = await h.api('POST', '/webhook', { json: { [setting(h, 'fields.webhook_url', 'url')]: WEBHOOK } });
      return seen(r.status === 200, r.status === 202 && r.body.url === WEBHOOK);
    },
  },
  webhookDeleteProbe('webhook-delete-body', 'DELETE /webhook needs a body naming the URL (422 without)', (h, field) => h.api('DELETE', '/webhook', { json: { [field]: WEBHOOK } }), (r) => typeof r.body.email === 'string'),
  webhookDeleteProbe('webhook-delete-query', 'DELETE /webhook needs the URL as ?url= (422 without)', (h) => h.api('DELETE', `/webhook?url=${encodeURIComponent(WEBHOOK)}`), (r) => r.body.url === WEBHOOK),
  {
    variant: 'checkpoint-put-json-body', checks: 'PUT /event/checkpoint/{name} needs {"name"} (422 without)',
    async observe(h) {
      const bare = await h.api('PUT', `/event/checkpoint/put-shape-${newKey()}`);
      const name = `put-shape-${newKey()}`;
      const withBody = await h.api('PUT', `/event/checkpoint/${name}`, { json: { name } });
      return seen(bare.status === 201, bare.status === 422 && withBody.status === 201 && withBody.body.name === name);
    },
  },
  webhookDeleteProbe('webhook-delete-form', 'DELETE /webhook needs the URL in a form body (422 without)', (h) => h.api('DELETE', '/webhook', { payload: new URLSearchParams({ url: WEBHOOK }).toString(), headers: { 'content-type': FORM } }), (r) => r.body.url === WEBHOOK),
  {
    variant: 'checkpoint-put-form', checks: 'PUT /event/checkpoint/{name} needs a form body name=<name> (422 without)',
    async observe(h) {
      const bare = await h.api('PUT', `/event/checkpoint/put-shape-${newKey()}`);
      const name = `put-shape-${newKey()}`;
      const withForm = await h.api('PUT', `/event/checkpoint/${name}`, { payload: new URLSearchParams({ name }).toString(), headers: { 'content-type': FORM } });
      return seen(bare.status === 201, bare.status === 422 && withForm.status === 201 && withForm.body.name === name);
    },
  },
  {
    variant: 'detail-texts-other', checks: 'every 401 and 404 answers other detail texts; POST /subscribe keeps "Indication not found"',
    async observe(h) {
      const noToken = await h.raw('GET', '/api/v1/event');
      const missing = await h.api('GET', `/event/checkpoint/none-${newKey()}`);
      const unknownUid = await h.subscribe({ indicationUid: `no-such-${newKey()}` });
      const kept = unknownUid.status === 404 && unknownUid.body.detail === 'Indication not found';
      return seen(kept && noToken.body.detail === 'Not authenticated' && missing.body.detail === 'Checkpoint not found',
        kept && noToken.status === 401 && noToken.body.detail === OTHER_DETAIL_TEXTS[401] && missing.status === 404 && missing.body.detail === OTHER_DETAIL_TEXTS[404]);
    },
  },
  {
    variant: 'webhook-delete-url-null', checks: 'DELETE /webhook answers url: null after removing a URL',
    async observe(h) {
      const field = setting(h, 'fields.webhook_url', 'url');
      await h.api('POST', '/webhook', { json: { [field]: WEBHOOK } });
      const body = profile(h)['webhook.delete_body'] === true ? { json: { [field]: WEBHOOK } } : {};
      const r = await h.api('DELETE', '/webhook', body);
      if (r.status !== 200 || typeof r.body.email !== 'string') return 'neither';
      return seen(r.body.url === WEBHOOK, r.body.url === null);
    },
  },
  {
    variant: 'expired-uid-404', checks: "yesterday's Fixed uid is 404 Indication not found",
    async observe(h) {
      const old = (await indication(h)).uid as string;
      await h.sandbox('/clock/advance', { days: 1 });
      const r = await h.api('POST', '/subscribe', { headers: { 'idempotency-key': newKey() }, json: { indicationUid: old, entityCode: 'ENT-ALPHA', amount: 1_000_000 } });
      return seen(r.status === 400 && r.body.detail === 'Indication is no longer available for subscription.', r.status === 404 && r.body.detail === 'Indication not found');
    },
  },
  {
    variant: 'maximum-detail-other', checks: 'an enforced maximum answers 400 with another detail text',
    async observe(h) {
      const r = await subscribe(h, { amount: 51_000_000 });
      if (r.status !== 400 || typeof r.body.detail !== 'string') return 'neither';
      return seen(r.body.detail === 'Amount is above the indication maximum.', r.body.detail === 'Requested amount exceeds the maximum for this product.');
    },
  },
  {
    variant: 'enforce-maximum-renamed', checks: 'the indication field is maximumEnforced',
    async observe(h) {
      const i = await indication(h);
      return seen(i.enforceMaximum === true && !('maximumEnforced' in i), i.maximumEnforced === true && !('enforceMaximum' in i));
    },
  },
  {
    variant: 'indication-decimal-strings', checks: 'minimum and maximum are decimal strings',
    async observe(h) {
      const i = await indication(h, 'FTF-FIX-FRAC');
      return seen(i.minimum === 0.25 && i.maximum === 5.5, i.minimum === '0.25' && i.maximum === '5.5');
    },
  },
  {
    variant: 'replay-no-header', checks: 'a replay carries no idempotent-replayed header',
    async observe(h) {
      const key = newKey();
      const first = await subscribe(h, {}, key);
      const again = await subscribe(h, {}, key);
      if (again.status !== first.status || JSON.stringify(again.body) !== JSON.stringify(first.body)) return 'neither';
      return seen(again.headers['idempotent-replayed'] === 'true', again.headers['idempotent-replayed'] === undefined);
    },
  },
  {
    variant: 'opaque-ids', checks: 'indication, subscription and checkpoint uids are id_ + 32 hex digits',
    async observe(h) {
      const ind = (await indication(h)).uid as string;
      const r = await subscribe(h);
      const sub = at(r.body, setting(h, 'fields.subscription_uid', '/uid')) as string;
      const cp = (await put(h, 'ids-probe')).body.uid as string;
      const ids = [ind, sub, cp];
      return seen(ids.every((x) => UUID.test(x)), ids.every((x) => OPAQUE.test(x)));
    },
  },
];

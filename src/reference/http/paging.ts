/**
 * Lists in pages (variants of issue 25): Endpoint rule 8 leaves the paths, parameters and layout of every
 * list but GET /event "not shown", so a correct server may page any of them. Each paging variant is one
 * real-world scheme, oldest entries first and PAGE_SIZE entries a page, so a new entry is on the last page:
 *
 *   page-number   ?page=N (from 1)        {"results": [...], "pageInfo": {"page", "pageSize", "hasNextPage"}}
 *   cursor        ?cursor=<opaque>        {"data": [...], "next": "<opaque>" | null}
 *   link-header   ?per_page=S             the list's usual layout, `Link: <absolute URL>; rel="next"`
 *   offset-limit  ?offset=O&limit=L       the list's usual layout
 *
 * link-header and offset-limit take the page size from the client (default and maximum MAX_LIMIT): a profile
 * asks for PAGE_SIZE, so the harness walks pages, while a client that sends no size sees short lists whole.
 * A bad page parameter is 400 {detail}. The per-list variant (subscriptions-*, holdings-*) wins over the
 * all-lists one (lists-*).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, type Variants } from '../context.js';
import type { ListKey, ProfileValue } from '../variant-registry.js';

export const PAGE_SIZE = 2;
export const MAX_LIMIT = 50;

export type PagingKind = 'page-number' | 'cursor' | 'link-header' | 'offset-limit';
const KINDS: readonly PagingKind[] = ['page-number', 'cursor', 'link-header', 'offset-limit'];

/** The lists with a paging point of their own (the others follow the all-lists point only). */
export const PER_LIST_PAGING: readonly ListKey[] = ['subscriptions', 'holdings'];

/** How `key` is paged under the active variants, or null (one answer). */
export function pagingKind(variants: Variants, key: ListKey): PagingKind | null {
  const own = PER_LIST_PAGING.includes(key) ? variants.choice(`${key}-paging`) : 'default';
  const all = variants.choice('lists-paging');
  const name = own !== 'default' ? own : all;
  return KINDS.find((k) => name.endsWith(`-${k}`)) ?? null;
}

type Query = Record<string, unknown>;

function integer(q: Query, name: string, dflt: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = q[name];
  if (raw === undefined) return dflt;
  const n = Number(raw);
  if (typeof raw !== 'string' || !/^\d+$/.test(raw) || n < min || n > max) throw new ApiError(400, `Invalid ${name} parameter.`);
  return n;
}

const encodeCursor = (offset: number): string => `pg1.${Buffer.from(JSON.stringify({ o: offset })).toString('base64url')}`;
function decodeCursor(raw: unknown): number {
  if (raw === undefined) return 0;
  try {
    if (typeof raw !== 'string' || !raw.startsWith('pg1.')) throw new Error('prefix');
    const o = (JSON.parse(Buffer.from(raw.slice(4), 'base64url').toString('utf8')) as { o?: unknown }).o;
    if (typeof o !== 'number' || !Number.isInteger(o) || o < 0) throw new Error('offset');
    return o;
  } catch {
    throw new ApiError(400, 'Invalid cursor.');
  }
}

/** The absolute URL of this request with `after` set to `offset` (the link-header variant's next page). */
function nextUrl(request: FastifyRequest, offset: number): string {
  const url = new URL(request.url, `${request.protocol}://${request.headers.host ?? '127.0.0.1'}`);
  url.searchParams.set('after', String(offset));
  return url.toString();
}

/**
 * One page of `items` under `kind`; `layout` gives the list's usual layout for a slice (link-header and
 * offset-limit keep it, so they combine with the list-layout variants).
 */
export function pagedList(kind: PagingKind, items: readonly unknown[], request: FastifyRequest, reply: FastifyReply, layout: (slice: readonly unknown[]) => unknown): unknown {
  const q = (request.query ?? {}) as Query;
  switch (kind) {
    case 'page-number': {
      const page = integer(q, 'page', 1, 1);
      const from = (page - 1) * PAGE_SIZE;
      return { results: items.slice(from, from + PAGE_SIZE), pageInfo: { page, pageSize: PAGE_SIZE, hasNextPage: from + PAGE_SIZE < items.length } };
    }
    case 'cursor': {
      const from = decodeCursor(q.cursor);
      return { data: items.slice(from, from + PAGE_SIZE), next: from + PAGE_SIZE < items.length ? encodeCursor(from + PAGE_SIZE) : null };
    }
    case 'link-header': {
      const from = integer(q, 'after', 0, 0);
      const size = integer(q, 'per_page', MAX_LIMIT, 1, MAX_LIMIT);
      if (from + size < items.length) reply.header('link', `<${nextUrl(request, from + size)}>; rel="next"`);
      return layout(items.slice(from, from + size));
    }
    case 'offset-limit': {
      const from = integer(q, 'offset', 0, 0);
      const limit = integer(q, 'limit', MAX_LIMIT, 1, MAX_LIMIT);
      return layout(items.slice(from, from + limit));
    }
  }
}

/** Where the entries sit in one page of `key` under `kind` (null: the list's usual layout). */
export function pagedPointer(kind: PagingKind | null): string | null {
  return kind === 'page-number' ? '/results' : kind === 'cursor' ? '/data' : null;
}

/** The target-profile words for `key` paged by `kind` (profile `paging.<key>.*`, docs/target-profiles.md). */
export function pagingSettings(key: ListKey, kind: PagingKind): Record<string, ProfileValue> {
  const at = (name: string): string => `paging.${key}.${name}`;
  switch (kind) {
    case 'page-number': return { [at('kind')]: kind, [at('param')]: 'page', [at('first')]: 1, [at('has_next')]: '/pageInfo/hasNextPage' };
    case 'cursor': return { [at('kind')]: kind, [at('param')]: 'cursor', [at('next')]: '/next' };
    case 'link-header': return { [at('kind')]: kind, [at('size_param')]: 'per_page', [at('size')]: PAGE_SIZE };
    case 'offset-limit': return { [at('kind')]: kind, [at('offset_param')]: 'offset', [at('limit_param')]: 'limit', [at('limit')]: PAGE_SIZE };
  }
}

/**
 * How each list the spec does not lay out is paged (profile `paging.<list>`, issue 25), and the request
 * shapes it leaves open (profile `webhook.delete`, `checkpoint.put`): the profile's words normalised with
 * their defaults, once, for the resolver. The walk itself is engine/paging.ts.
 *
 * Endpoint rule 8 leaves the paths, parameters and layout of every list but GET /event "not shown", and GET
 * /subscription names no layout: a correct server may answer any of them in pages. `none` (the default)
 * reads one answer as the whole list.
 */
import type { ProfileIssue } from './validate.js';

/** Every list a profile can page, as the key of its `fields.<key>_list` pointer and of `paging.<key>`. */
export const LIST_KEYS = [
  'cells', 'entities', 'entity_users', 'holdings', 'holding_extensions', 'holidays', 'indications', 'subscriptions', 'checkpoints',
] as const;
export type ListKey = typeof LIST_KEYS[number];

export const PAGING_KINDS = ['none', 'page-number', 'cursor', 'link-header', 'offset-limit'] as const;
export type PagingKind = typeof PAGING_KINDS[number];

/** Page size parameter a walk may send (absent: the target's own page size). */
interface SizeParam { sizeParam?: string; size?: number }

export type ListPaging =
  | { kind: 'none' }
  /** `param` = page number, starting at `first`; stop when `nextPage` (pointer) is null/absent, or `hasNext` (pointer) is false, or (neither given) a page is empty. */
  | ({ kind: 'page-number'; param: string; first: number; hasNext?: string; nextPage?: string } & SizeParam)
  /** The first page without `param`; the next token at `next` (pointer); stop when it is null, absent or "". */
  | ({ kind: 'cursor'; param: string; next: string } & SizeParam)
  /** RFC 8288: follow `Link: <url>; rel="next"` (same origin and base path only) until there is none. */
  | ({ kind: 'link-header' } & SizeParam)
  /** `offset_param` from 0 in steps of the items seen, `limit_param` = `limit`; stop at a short page or at `total` (pointer). */
  | { kind: 'offset-limit'; offsetParam: string; limitParam: string; limit: number; total?: string };

/** The profile's `paging` section as written (snake_case), after schema validation. */
export type RawListPaging = PagingKind | {
  kind: PagingKind; param?: string; first?: number; has_next?: string; next_page?: string; next?: string;
  size_param?: string; size?: number; offset_param?: string; limit_param?: string; limit?: number; total?: string;
};
export type RawPaging = Partial<Record<ListKey, RawListPaging>>;

export const PAGING_DEFAULTS = {
  pageParam: 'page',
  firstPage: 1,
  cursorParam: 'cursor',
  offsetParam: 'offset',
  limitParam: 'limit',
  limit: 100,
} as const;

const opt = <K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> => (value === undefined ? {} : { [key]: value } as Record<K, V>);

export function listPagingOf(raw: RawListPaging | undefined): ListPaging {
  const r = typeof raw === 'string' ? { kind: raw } : raw ?? { kind: 'none' as const };
  const size = { ...opt('sizeParam', r.size_param), ...opt('size', r.size) };
  switch (r.kind) {
    case 'page-number':
      return { kind: 'page-number', param: r.param ?? PAGING_DEFAULTS.pageParam, first: r.first ?? PAGING_DEFAULTS.firstPage, ...opt('hasNext', r.has_next), ...opt('nextPage', r.next_page), ...size };
    case 'cursor':
      // The schema requires `next` for an object; the bare word `cursor` reads a top-level `next`.
      return { kind: 'cursor', param: r.param ?? PAGING_DEFAULTS.cursorParam, next: r.next ?? '/next', ...size };
    case 'link-header':
      return { kind: 'link-header', ...size };
    case 'offset-limit':
      return { kind: 'offset-limit', offsetParam: r.offset_param ?? PAGING_DEFAULTS.offsetParam, limitParam: r.limit_param ?? PAGING_DEFAULTS.limitParam, limit: r.limit ?? PAGING_DEFAULTS.limit, ...opt('total', r.total) };
    default:
      return { kind: 'none' };
  }
}

/** Every list's paging, `none` where the profile says nothing. */
export function pagingOf(raw: RawPaging = {}): Record<ListKey, ListPaging> {
  return Object.fromEntries(LIST_KEYS.map((k) => [k, listPagingOf(raw[k])])) as Record<ListKey, ListPaging>;
}

/** One line per paged list, for `doctor` and `init`: `subscriptions: page-number (page from 1, next at /pageInfo/hasNext)`. */
export function describePaging(p: ListPaging): string {
  const size = 'sizeParam' in p && p.sizeParam ? `, ${p.sizeParam}=${p.size ?? '?'}` : '';
  switch (p.kind) {
    case 'none': return 'none (one answer is the whole list)';
    case 'page-number': return `page-number (${p.param} from ${p.first}${p.nextPage ? `, next page at ${p.nextPage}` : p.hasNext ? `, more while ${p.hasNext} is true` : ', until an empty page'}${size})`;
    case 'cursor': return `cursor (${p.param} = the token at ${p.next}${size})`;
    case 'link-header': return `link-header (Link rel="next"${size})`;
    case 'offset-limit': return `offset-limit (${p.offsetParam}, ${p.limitParam}=${p.limit}${p.total ? `, total at ${p.total}` : ''})`;
  }
}

/**
 * A request shape the spec leaves open (Endpoint rules 9 and 11): where a value goes. `json-body`: a JSON
 * object `{<name>: value}` (no name: `{}`); `query`: `?<name>=value`; `form`: a form body; `none`: nothing.
 */
export interface RequestShape { in: 'json-body' | 'query' | 'form' | 'none'; name?: string }

export type RawRequestShape = RequestShape['in'] | { in: RequestShape['in']; name?: string };

/** The request shapes a profile can declare, and what each one carries. */
export const REQUEST_SHAPES = {
  /** DELETE /webhook: the URL to deregister (Endpoint rule 9: "request shape of DELETE /webhook: not shown"). */
  webhook_delete: { default: { in: 'none' }, carries: 'the webhook URL', defaultName: 'url' },
  /** POST /webhook: the URL to register (Endpoint rule 9: "Request body of POST /webhook ... not shown"). */
  webhook_register: { default: { in: 'json-body' }, carries: 'the webhook URL', defaultName: 'url' },
  /** PUT /event/checkpoint/{name}: the checkpoint name (Endpoint rule 11: "Request body of PUT ...: not shown"). */
  checkpoint_put: { default: { in: 'none' }, carries: 'the checkpoint name', defaultName: 'name' },
} as const satisfies Record<string, { default: RequestShape; carries: string; defaultName: string }>;
export type RequestShapeKey = keyof typeof REQUEST_SHAPES;

export function requestShapeOf(raw: RawRequestShape | undefined, fallback: RequestShape, defaultName: string): RequestShape {
  if (raw === undefined) return fallback;
  const r = typeof raw === 'string' ? { in: raw } : raw;
  if (r.in === 'none') return { in: 'none' };
  return { in: r.in, name: r.name ?? defaultName };
}

/** The profile's request-shape words as written: `webhook: {delete, register, delete_body (old)}`, `checkpoint: {put}`. */
export interface RawShapes {
  webhook?: { delete?: RawRequestShape; register?: RawRequestShape; delete_body?: boolean };
  checkpoint?: { put?: RawRequestShape };
}

/**
 * Every request shape, resolved. The old `webhook.delete_body: true` still means a JSON body named by
 * fields.webhook_url; written together with `webhook.delete` it is refused (shapeIssues), never guessed.
 */
export function requestShapesOf(raw: RawShapes, webhookUrlField: string): Record<RequestShapeKey, RequestShape> {
  const oldDelete: RawRequestShape | undefined = raw.webhook?.delete_body === true ? { in: 'json-body', name: webhookUrlField } : undefined;
  return {
    webhook_delete: requestShapeOf(raw.webhook?.delete ?? oldDelete, REQUEST_SHAPES.webhook_delete.default, webhookUrlField),
    webhook_register: requestShapeOf(raw.webhook?.register, { in: 'json-body', name: webhookUrlField }, webhookUrlField),
    checkpoint_put: requestShapeOf(raw.checkpoint?.put, REQUEST_SHAPES.checkpoint_put.default, REQUEST_SHAPES.checkpoint_put.defaultName),
  };
}

/** `webhook.delete_body` and `webhook.delete` together: two answers to one question, refused at the old field. */
export function shapeIssues(raw: RawShapes, locate: (path: string[]) => { line: number; column: number }): ProfileIssue[] {
  if (raw.webhook?.delete_body === undefined || raw.webhook.delete === undefined) return [];
  return [{
    field: 'webhook.delete_body',
    message: 'webhook.delete_body and webhook.delete both say how DELETE /webhook is shaped',
    hint: 'keep webhook.delete (json-body | query | form | none, with name) and drop webhook.delete_body: `delete_body: true` is `delete: { in: json-body, name: <fields.webhook_url> }`',
    ...locate(['webhook', 'delete_body']),
  }];
}

/**
 * Walking a list the spec does not lay out (issue 25): every page, the way the profile says the target
 * pages it (target/paging.ts), up to timeouts.max_list_pages pages, each exchange cut to what is left of the
 * scenario (StepContext.send). A look-up for one record (`find`) stops at the first page that holds it.
 * The walk judges nothing itself beyond what a list is: a non-2xx page ends the walk (the caller's status
 * check judges it), a 2xx page without an array where the profile points, a page loop, a `Link` off the
 * target or a walk past the page bound are reported.
 */
import { excerpt } from '../checks/excerpt.js';
import { getPointer, preview, toText } from '../expressions/index.js';
import type { RequestSpec } from '../scenario/types.js';
import type { ListKey, ListPaging } from '../target/paging.js';
import { ENGINE_ERROR_CODES, StepError } from './errors.js';
import type { ResponseRecord, StepContext } from './types.js';

/** A walk's result: the last page read (a response: `expect of:` works on it) plus what the walk saw. */
export interface ListWalk extends ResponseRecord {
  /** Entries of every page read, in order. */
  items: unknown[];
  /** Pages read. */
  pages: number;
  /** True when the walk reached the last page (false: it stopped at a non-2xx page or at the record found). */
  complete: boolean;
  /** With `find`: the first entry it held, else null. */
  found: unknown;
}

export interface WalkOptions {
  /** The record sought: the walk stops at the first page holding an entry for which this is true. */
  find?: (entry: unknown) => boolean;
  /** Variables visible in the request template (`item`, `i` of a for_each). */
  extra?: Record<string, unknown>;
  /** Upper bound for each exchange (a polling walk's deadline). */
  maxTimeoutMs?: () => number;
}

/** A page that is not a list where the profile says the list sits: the caller reports it as a check. */
export class NotAList extends Error {
  constructor(readonly page: ResponseRecord, readonly pointer: string, readonly pageNumber: number, readonly got: string) {
    super(`page ${pageNumber} of ${page.method} ${page.url} has no array at pointer "${pointer}" (target.fields): ${got}`);
  }
}

/** `fields.<key>_list` as a JSON pointer: "" = the body, a bare name = /name. */
export function listPointer(fields: Record<string, string>, key: ListKey): string {
  const raw = fields[`${key}_list`] ?? '';
  return raw === '' || raw.startsWith('/') ? raw : `/${raw}`;
}

/** The URL of `rel="next"` in an RFC 8288 Link header, or undefined. */
export function nextLink(header: string | undefined): string | undefined {
  if (!header) return undefined;
  for (const m of header.matchAll(/<([^>]*)>((?:\s*;\s*[^;,]+(?:=(?:"[^"]*"|[^;,]*))?)*)/g)) {
    const rels = /;\s*rel\s*=\s*(?:"([^"]*)"|([^;,\s]+))/i.exec(m[2] ?? '');
    const rel = (rels?.[1] ?? rels?.[2] ?? '').toLowerCase().split(/\s+/);
    if (rel.includes('next')) return m[1];
  }
  return undefined;
}

const isEnd = (v: unknown): boolean => v === undefined || v === null || v === '' || v === false;

export async function walkList(ctx: StepContext, key: ListKey, spec: RequestSpec, o: WalkOptions = {}): Promise<ListWalk> {
  const target = ctx.engine.target;
  const paging: ListPaging = target.paging[key] ?? { kind: 'none' };
  const pointer = listPointer(target.fields, key);
  const maxPages = target.timeouts.maxListPages;
  const items: unknown[] = [];
  const seen = new Set<string>();
  let request: RequestSpec = spec;
  let query: Record<string, string> = firstQuery(paging);
  let offset = 0;
  let pageNo = paging.kind === 'page-number' ? paging.first : 0;
  const fail = (n: number, page: ResponseRecord, msg: string, hint?: string): never => {
    throw new StepError(ENGINE_ERROR_CODES.bound, `list ${key} (paging ${paging.kind}): ${msg}; page ${n} ${page.method} ${ctx.redact(page.url)} answered ${page.status}: ${excerpt(page.text, ctx.redact)}`, {
      at: ctx.location, ...(hint ? { hint } : {}),
    });
  };
  for (let n = 1; ; n++) {
    const { response: page } = await ctx.send(request, {
      ...(o.extra ? { extra: o.extra } : {}),
      query,
      ...(o.maxTimeoutMs ? { maxTimeoutMs: o.maxTimeoutMs() } : {}),
      label: n === 1 ? ctx.title : `${ctx.title} (page ${n})`,
    });
    const walk = (complete: boolean, found: unknown = null): ListWalk => ({ ...page, items, pages: n, complete, found });
    if (page.status < 200 || page.status > 299) return walk(false);
    const list = getPointer(page.body, pointer);
    if (!Array.isArray(list)) throw new NotAList(page, pointer, n, preview(list));
    items.push(...list);
    if (o.find) {
      const hit = list.find((entry) => o.find!(entry));
      if (hit !== undefined) return walk(false, hit);
    }
    // Where the next page is, by the profile's kind; undefined = this was the last page.
    let next: { query: Record<string, string>; request?: RequestSpec } | undefined;
    switch (paging.kind) {
      case 'none':
        break;
      case 'page-number': {
        const more = paging.nextPage !== undefined ? getPointer(page.body, paging.nextPage)
          : paging.hasNext !== undefined ? getPointer(page.body, paging.hasNext)
            : list.length > 0;
        if (isEnd(more)) break;
        pageNo = paging.nextPage !== undefined && typeof more !== 'boolean' ? Number(toText(more)) : pageNo + 1;
        if (!Number.isFinite(pageNo)) fail(n, page, `the next page number at ${paging.nextPage} is ${preview(more)}, not a number`);
        next = { query: { ...sizeQuery(paging), [paging.param]: String(pageNo) } };
        break;
      }
      case 'cursor': {
        const token = getPointer(page.body, paging.next);
        if (isEnd(token)) break;
        const text = toText(token);
        if (seen.has(text)) fail(n, page, `the next token ${ctx.redact(preview(text))} came again: the target pages in a loop`);
        seen.add(text);
        next = { query: { ...sizeQuery(paging), [paging.param]: text } };
        break;
      }
      case 'link-header': {
        const link = nextLink(page.headers.link);
        if (link === undefined) break;
        const path = pathUnderBase(target.baseUrl, page.url, link);
        if (path === undefined) fail(n, page, `Link rel="next" ${ctx.redact(link)} leaves the target's base URL`, 'the harness follows links under base_url only');
        if (seen.has(path!)) fail(n, page, `Link rel="next" ${ctx.redact(link)} came again: the target pages in a loop`);
        seen.add(path!);
        // The link carries the whole query (filters, page size): the template's own query is not added again.
        const { query: _dropped, ...rest } = spec;
        next = { query: {}, request: { ...rest, path: path! } };
        break;
      }
      case 'offset-limit': {
        offset += list.length;
        const total = paging.total !== undefined ? Number(toText(getPointer(page.body, paging.total) ?? NaN)) : NaN;
        if (list.length === 0 || list.length < paging.limit || (Number.isFinite(total) && offset >= total)) break;
        next = { query: { [paging.offsetParam]: String(offset), [paging.limitParam]: String(paging.limit) } };
        break;
      }
    }
    if (next === undefined) return walk(true);
    if (n >= maxPages) {
      fail(n, page, `more than timeouts.max_list_pages (${maxPages}) pages`, 'the target may page forever; raise timeouts.max_list_pages only if the list is really that long');
    }
    query = next.query;
    if (next.request) request = next.request;
  }
}

function sizeQuery(p: ListPaging): Record<string, string> {
  return 'sizeParam' in p && p.sizeParam && p.size !== undefined ? { [p.sizeParam]: String(p.size) } : {};
}

function firstQuery(p: ListPaging): Record<string, string> {
  switch (p.kind) {
    case 'page-number': return { ...sizeQuery(p), [p.param]: String(p.first) };
    case 'cursor':
    case 'link-header': return sizeQuery(p);
    case 'offset-limit': return { [p.offsetParam]: '0', [p.limitParam]: String(p.limit) };
    default: return {};
  }
}

/** `link` (absolute or relative to the page) as a path + query under base_url, or undefined when it leaves it. */
export function pathUnderBase(baseUrl: string, pageUrl: string, link: string): string | undefined {
  let url: URL;
  try {
    url = new URL(link, pageUrl);
  } catch {
    return undefined;
  }
  const base = new URL(baseUrl.replace(/\/+$/, ''));
  const prefix = base.pathname.replace(/\/+$/, '');
  if (url.origin !== base.origin || !(url.pathname === prefix || url.pathname.startsWith(`${prefix}/`))) return undefined;
  return `${url.pathname.slice(prefix.length) || '/'}${url.search}`;
}

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

/** One page as the walker needs it. */
export interface FetchedPage {
  status: number;
  body: unknown;
  headers: Record<string, string>;
  url: string;
}

/** What to ask for next: query parameters set on the template, or (a Link) a whole path + query under base_url. */
export interface PageRequest {
  query: Record<string, string>;
  path?: string;
}

/** The target pages in a loop, leaves base_url, or pages past the bound: the caller names it its own way. */
export class WalkProblem extends Error {
  constructor(message: string, readonly pageNumber: number, readonly hint?: string, readonly bound = false) {
    super(message);
  }
}

export interface PagesWalked<P> {
  last: P;
  items: unknown[];
  pages: number;
  complete: boolean;
  found: unknown;
}

/**
 * The walk itself, for any sender: the list step (walkList, through StepContext.send) and the model
 * property's API client. A non-2xx page ends it (`complete` false); a 2xx page without an array at
 * `pointer` is NotAList (thrown by `notAList`); loops, links off base_url and the page bound are WalkProblems.
 */
export async function walkPages<P extends FetchedPage>(o: {
  paging: ListPaging;
  pointer: string;
  maxPages: number;
  baseUrl: string;
  fetch: (request: PageRequest, pageNumber: number) => Promise<P>;
  notAList: (page: P, pageNumber: number, got: unknown) => Error;
  find?: (entry: unknown) => boolean;
}): Promise<PagesWalked<P>> {
  const { paging, pointer } = o;
  const items: unknown[] = [];
  const seen = new Set<string>();
  let request: PageRequest = { query: firstQuery(paging) };
  let offset = 0;
  let pageNo = paging.kind === 'page-number' ? paging.first : 0;
  for (let n = 1; ; n++) {
    const page = await o.fetch(request, n);
    const walked = (complete: boolean, found: unknown = null): PagesWalked<P> => ({ last: page, items, pages: n, complete, found });
    if (page.status < 200 || page.status > 299) return walked(false);
    const list = getPointer(page.body, pointer);
    if (!Array.isArray(list)) throw o.notAList(page, n, list);
    items.push(...list);
    if (o.find) {
      const hit = list.find((entry) => o.find!(entry));
      if (hit !== undefined) return walked(false, hit);
    }
    const next = nextRequest(paging, page, list, { seen, offset, pageNo, baseUrl: o.baseUrl, n });
    if (next === undefined) return walked(true);
    offset = next.offset;
    pageNo = next.pageNo;
    if (n >= o.maxPages) {
      throw new WalkProblem(`more than timeouts.max_list_pages (${o.maxPages}) pages`, n, 'the target may page forever; raise timeouts.max_list_pages only if the list is really that long', true);
    }
    request = next.request;
  }
}

/** Where the next page is, by the profile's kind; undefined = this was the last page. */
function nextRequest(paging: ListPaging, page: FetchedPage, list: unknown[], s: { seen: Set<string>; offset: number; pageNo: number; baseUrl: string; n: number }): { request: PageRequest; offset: number; pageNo: number } | undefined {
  const keep = { offset: s.offset, pageNo: s.pageNo };
  switch (paging.kind) {
    case 'none':
      return undefined;
    case 'page-number': {
      const more = paging.nextPage !== undefined ? getPointer(page.body, paging.nextPage)
        : paging.hasNext !== undefined ? getPointer(page.body, paging.hasNext)
          : list.length > 0;
      if (isEnd(more)) return undefined;
      const pageNo = paging.nextPage !== undefined && typeof more !== 'boolean' ? Number(toText(more)) : s.pageNo + 1;
      if (!Number.isFinite(pageNo)) throw new WalkProblem(`the next page number at ${paging.nextPage} is ${preview(more)}, not a number`, s.n);
      return { ...keep, pageNo, request: { query: { ...sizeQuery(paging), [paging.param]: String(pageNo) } } };
    }
    case 'cursor': {
      const token = getPointer(page.body, paging.next);
      if (isEnd(token)) return undefined;
      const text = toText(token);
      if (s.seen.has(text)) throw new WalkProblem(`the next token ${preview(text)} came again: the target pages in a loop`, s.n);
      s.seen.add(text);
      return { ...keep, request: { query: { ...sizeQuery(paging), [paging.param]: text } } };
    }
    case 'link-header': {
      const link = nextLink(page.headers.link);
      if (link === undefined) return undefined;
      const path = pathUnderBase(s.baseUrl, page.url, link);
      if (path === undefined) throw new WalkProblem(`Link rel="next" ${link} leaves the target's base URL`, s.n, 'the harness follows links under base_url only');
      if (s.seen.has(path)) throw new WalkProblem(`Link rel="next" ${link} came again: the target pages in a loop`, s.n);
      s.seen.add(path);
      // The link carries the whole query (filters, page size): the template's own query is not added again.
      return { ...keep, request: { query: {}, path } };
    }
    case 'offset-limit': {
      const offset = s.offset + list.length;
      const total = paging.total !== undefined ? Number(toText(getPointer(page.body, paging.total) ?? NaN)) : NaN;
      if (list.length === 0 || list.length < paging.limit || (Number.isFinite(total) && offset >= total)) return undefined;
      return { ...keep, offset, request: { query: { [paging.offsetParam]: String(offset), [paging.limitParam]: String(paging.limit) } } };
    }
  }
}

/** A list step's walk: every page through StepContext.send (recorded, schema-checked, cut to the scenario's time). */
export async function walkList(ctx: StepContext, key: ListKey, spec: RequestSpec, o: WalkOptions = {}): Promise<ListWalk> {
  const target = ctx.engine.target;
  const paging: ListPaging = target.paging[key] ?? { kind: 'none' };
  const { query: _template, ...withoutQuery } = spec;
  let lastPage: ResponseRecord | undefined;
  try {
    const w = await walkPages<ResponseRecord>({
      paging,
      pointer: listPointer(target.fields, key),
      maxPages: target.timeouts.maxListPages,
      baseUrl: target.baseUrl,
      ...(o.find ? { find: o.find } : {}),
      notAList: (page, n, got) => new NotAList(page, listPointer(target.fields, key), n, preview(got)),
      fetch: async (req, n) => {
        const { response } = await ctx.send(req.path === undefined ? spec : { ...withoutQuery, path: req.path }, {
          ...(o.extra ? { extra: o.extra } : {}),
          query: req.query,
          ...(o.maxTimeoutMs ? { maxTimeoutMs: o.maxTimeoutMs() } : {}),
          label: n === 1 ? ctx.title : `${ctx.title} (page ${n})`,
        });
        lastPage = response;
        return response;
      },
    });
    return { ...w.last, items: w.items, pages: w.pages, complete: w.complete, found: w.found };
  } catch (e) {
    if (!(e instanceof WalkProblem) || !lastPage) throw e;
    const page = lastPage;
    throw new StepError(ENGINE_ERROR_CODES.bound, `list ${key} (paging ${paging.kind}): ${ctx.redact(e.message)}; page ${e.pageNumber} ${page.method} ${ctx.redact(page.url)} answered ${page.status}: ${excerpt(page.text, ctx.redact)}`, {
      at: ctx.location, ...(e.hint ? { hint: e.hint } : {}),
    });
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

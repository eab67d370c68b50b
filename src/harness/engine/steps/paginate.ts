/**
 * `paginate`: follow a cursor page by page until `until` holds. Hard bounds: max_pages (capped by the
 * profile's timeouts.max_pages), a cursor that repeats, a page without a cursor, a non-2xx page: each
 * fails with the page number and a body excerpt. Result (`as:`): { pages, items, count }.
 * Pages and items are kept only when something can read them (`as:`, or `until` / the request template
 * naming `pages` / `items`): a traversal of a million events must not hold every page in memory.
 */
import { excerpt } from '../../checks/excerpt.js';
import type { PaginateStep } from '../../scenario/types.js';
import { ENGINE_ERROR_CODES, StepError } from '../errors.js';
import { bareExpression, compileExpression, expressionsIn, freeVariables, getPointer, preview, toText } from '../../expressions/index.js';
import type { ResponseRecord, StepHandler } from '../types.js';

export const paginateStep: StepHandler<PaginateStep> = {
  kind: 'paginate',
  title: (s) => `paginate ${s.paginate.request.method} ${s.paginate.request.path} (≤ ${s.paginate.max_pages} pages)${s.paginate.as ? ` → ${s.paginate.as}` : ''}`,
  async run(step, ctx) {
    const p = step.paginate;
    const maxPages = Math.min(p.max_pages, ctx.engine.target.timeouts.maxPages);
    const param = p.cursor_param ?? 'start_cursor';
    const keep = retained(p);
    const pages: ResponseRecord[] = [];
    const items: unknown[] = [];
    let lastPage: ResponseRecord | undefined;
    const seen = new Set<string>();
    let cursor: string | undefined;
    const fail = (msg: string, page?: ResponseRecord, hint?: string): never => {
      // Name the exchange (method + the last page's URL) like every other failure, not just the template path.
      const what = page ? `${page.method} ${ctx.redact(page.url)}` : `${p.request.method} ${p.request.path}`;
      throw new StepError(ENGINE_ERROR_CODES.bound, `paginate ${what}: ${msg}${page ? `; last page ${page.status}: ${excerpt(page.text, ctx.redact)}` : ''}`, {
        at: ctx.location,
        ...(hint ? { hint } : {}),
      });
    };
    for (let n = 1; n <= maxPages; n++) {
      const query = cursor === undefined ? {} : { [param]: cursor };
      const { response: page } = await ctx.send(p.request, { extra: { pages, items, page_number: n }, query });
      lastPage = page;
      if (keep.pages) pages.push(page);
      if (page.status < 200 || page.status > 299) fail(`page ${n} answered ${page.status}`, page);
      if (p.items) {
        const list = getPointer(page.body, p.items);
        if (!Array.isArray(list)) fail(`page ${n} has no list at ${p.items}`, page);
        if (keep.items) for (const item of list as unknown[]) items.push(item);
      }
      if (ctx.truth(p.until, { page, pages, items })) {
        if (p.as) ctx.vars[p.as] = { pages, items, count: items.length };
        return;
      }
      const next = getPointer(page.body, p.cursor);
      if (next === undefined || next === null || next === '') {
        fail(`page ${n}: \`${p.until}\` is still false but there is no cursor at ${p.cursor}`, page);
      }
      const text = toText(next);
      if (seen.has(text) || text === cursor) fail(`page ${n} returned the cursor ${ctx.redact(preview(text))} again: the target pages in a loop`, page);
      seen.add(text);
      cursor = text;
    }
    fail(`\`${p.until}\` still false after ${maxPages} page(s) (the bound: max_pages ${p.max_pages}, profile max_pages ${ctx.engine.target.timeouts.maxPages})`,
      lastPage, 'the target may page forever; raise max_pages only if the stream is really that long');
  },
};

/** Which of `pages` / `items` the step can observe (computed once per step object; exported for tests). */
const retainedCache = new WeakMap<PaginateStep['paginate'], { pages: boolean; items: boolean }>();
export function retained(p: PaginateStep['paginate']): { pages: boolean; items: boolean } {
  let r = retainedCache.get(p);
  if (!r) {
    const names = new Set<string>();
    for (const src of [p.until, ...expressionsIn(p.request)]) freeVariables(compileExpression(bareExpression(src)), names);
    r = p.as ? { pages: true, items: true } : { pages: names.has('pages'), items: names.has('items') };
    retainedCache.set(p, r);
  }
  return r;
}

/**
 * Wire layouts that variants (issue 12) change for many routes at once: the layout of every list, and the
 * extra unknown field on every object. Each is decided here, once.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { pagedList, pagedPointer, pagingKind } from './paging.js';
import type { ReferenceContext, Variants } from '../context.js';
import type { ListKey } from '../variant-registry.js';

/**
 * A list as the API shows it: a bare array (checkpoints: `{checkpoints}`), or the variants' layouts; under a
 * paging variant one page of it (paging.ts).
 */
export function listBody(ctx: ReferenceContext, key: ListKey, items: readonly unknown[], request: FastifyRequest, reply: FastifyReply): unknown {
  const kind = pagingKind(ctx.variants, key);
  return kind === null ? layoutOf(ctx, key, items) : pagedList(kind, items, request, reply, (slice) => layoutOf(ctx, key, slice));
}

/** Where the entries sit in a (page of a) list under `variants`: the target profile's fields.<key>_list. */
export function listPointerOf(variants: Variants, key: ListKey): string {
  const paged = pagedPointer(pagingKind(variants, key));
  if (paged !== null) return paged;
  const layout = variants.choice('list-layout');
  if (layout === 'lists-wrapped') return '/items';
  return key === 'checkpoints' && layout !== 'checkpoint-list-bare' ? '/checkpoints' : '';
}

function layoutOf(ctx: ReferenceContext, key: ListKey, items: readonly unknown[]): unknown {
  const layout = ctx.variants.choice('list-layout');
  if (layout === 'lists-wrapped') return { items, page: { size: items.length, totalCount: items.length } };
  if (key === 'checkpoints' && layout !== 'checkpoint-list-bare') return { checkpoints: items };
  return items;
}

export const EXTRA_FIELD = 'x-reference-extra';

/** A copy of `value` with EXTRA_FIELD added to every plain object in it (the original is never mutated). */
export function withExtraFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withExtraFields);
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = withExtraFields(v);
  out[EXTRA_FIELD] = 'ignore me';
  return out;
}

/** Variant extra-fields: every JSON body (API, token endpoint, errors) gets an unknown field in every object. */
export function installExtraFields(app: FastifyInstance): void {
  app.addHook('preSerialization', async (_request, _reply, payload) => withExtraFields(payload));
}

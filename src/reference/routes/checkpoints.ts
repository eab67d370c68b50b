/**
 * Checkpoints, scoped to the authenticated user (principal.userEmail):
 * GET /event/checkpoint -> {checkpoints}; PUT /{name} -> 201 new (cursor = head of the caller's stream,
 * or the origin cursor when it is empty) or 200 existing unchanged; GET /{name} -> {checkpoint};
 * PATCH /{name} {expectedCheckpointVersion, newCursor} -> 200 {checkpoint} | 409 {detail, checkpoint};
 * DELETE /{name} -> {checkpoint: {uid, name}, deleted: true}.
 */
import type { FastifyInstance } from 'fastify';
import { ApiError, type Principal, type ReferenceContext, type Variants } from '../context.js';
import { selectionOf, seqOfCursor } from '../domain/events/query.js';
import type { Domain } from '../domain/world.js';
import { begin } from '../http/guard.js';
import { inFormScope } from '../http/form-scope.js';
import { listBody } from '../http/shape.js';
import { apiPaths, fastifyPath } from '../variants.js';
import type { RouteDeps } from './deps.js';
import { decideForRoutes } from '../variant-consults.js';

export const CHECKPOINT_NAME_PATTERN = '^[A-Za-z0-9._~-]{1,128}$';

/** Name limits are "not shown": 128 characters, or 64 under the variant checkpoint-name-64. */
function nameParams(variants: Variants) {
  const pattern = variants.is('checkpoint-name-64') ? '^[A-Za-z0-9._~-]{1,64}$' : CHECKPOINT_NAME_PATTERN;
  return { type: 'object', properties: { name: { type: 'string', pattern } }, required: ['name'] } as const;
}

interface NameParams { name: string }
interface PatchBody { expectedCheckpointVersion: string; newCursor: string }

/** The cursor of the newest event the caller may see, or the origin cursor of an empty stream. */
export function headCursorFor(domain: Domain, p: Principal, ctx: ReferenceContext): string {
  const { store, codec } = domain;
  const sel = selectionOf(store, p.allowedEntities, null);
  const newest = store.last(sel, store.head);
  if (ctx.faults.on('checkpoint-cursor-not-at-end') && newest > 0) return codec.encode(store.last(sel, newest - 1));
  return codec.encode(newest);
}

/** Whose checkpoints these are (Endpoints rule 3: scoped to the authenticated API user). */
export function checkpointOwner(p: Principal, ctx: ReferenceContext): string {
  return ctx.faults.on('checkpoint-not-user-scoped') ? '*' : p.userEmail;
}

export function registerCheckpointRoutes(app: FastifyInstance, { ctx, domain }: RouteDeps): void {
  const book = () => domain.checkpoints;
  // Decided once for the four /event/checkpoint/{name} routes alone (their onRequest re-asks it: variant-consults.ts).
  const nameChoice = decideForRoutes(() => nameParams(ctx.variants));
  const PARAMS = nameChoice.value;
  const notFound = (): ApiError => new ApiError(404, 'Checkpoint not found');

  const paths = apiPaths(ctx.variants);
  app.get(fastifyPath(paths.checkpoints), async (request, reply) => {
    const p = begin(request, paths.checkpoints, ctx);
    return listBody(ctx, 'checkpoints', book().list(checkpointOwner(p, ctx)), request, reply);
  });

  // "Request body of PUT ...: not shown" (Endpoint rule 11): none, or (variants) a JSON or form body naming the checkpoint.
  // Decided once for PUT alone (its schema, its form scope); its onRequest re-asks it.
  const putChoice = decideForRoutes(() => ctx.variants.choice('checkpoint-put-request'));
  const putShape = putChoice.value;
  const named = putShape === 'checkpoint-put-json-body' || putShape === 'checkpoint-put-form';
  const putBody = named ? { body: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1 } } } } : {};
  const registerPut = (scope: FastifyInstance): void => {
    scope.put<{ Params: NameParams; Body: { name?: string } }>('/event/checkpoint/:name', { onRequest: [nameChoice.hook, putChoice.hook], attachValidation: true, schema: { params: PARAMS, ...putBody } }, async (request, reply) => {
      const p = begin(request, '/event/checkpoint/{name}', ctx);
      if (named && request.body.name !== request.params.name) throw new ApiError(400, 'The body names another checkpoint.');
      // "Behaviour when the name already exists: not shown": unchanged 200 by default, or a variant's reading.
      const existing = ctx.variants.choice('checkpoint-put-existing');
      const r = book().create(checkpointOwner(p, ctx), request.params.name, headCursorFor(domain, p, ctx), domain.nowIso(), existing === 'checkpoint-put-existing-reset');
      if (r === 'limit') throw new ApiError(400, 'Checkpoint limit reached for this user.');
      const created = r.created && !ctx.faults.on('checkpoint-put-200-on-create');
      return reply.code(created || (!r.created && existing === 'checkpoint-put-existing-201') ? 201 : 200).send(r.checkpoint);
    });
  };
  if (putShape === 'checkpoint-put-form') inFormScope(app, registerPut);
  else registerPut(app);

  app.get<{ Params: NameParams }>('/event/checkpoint/:name', { onRequest: nameChoice.hook, attachValidation: true, schema: { params: PARAMS } }, async (request) => {
    const p = begin(request, '/event/checkpoint/{name}', ctx);
    const cp = book().get(checkpointOwner(p, ctx), request.params.name);
    if (!cp) throw notFound();
    return { checkpoint: cp };
  });

  app.patch<{ Params: NameParams; Body: PatchBody }>('/event/checkpoint/:name', {
    onRequest: nameChoice.hook,
    attachValidation: true,
    schema: {
      params: PARAMS,
      body: {
        type: 'object',
        required: ['expectedCheckpointVersion', 'newCursor'],
        properties: {
          expectedCheckpointVersion: { type: 'string', minLength: 1, maxLength: 512 },
          newCursor: { type: 'string', minLength: 1, maxLength: 256 },
        },
      },
    },
  }, async (request) => {
    const p = begin(request, '/event/checkpoint/{name}', ctx);
    const { name } = request.params;
    if (!book().get(checkpointOwner(p, ctx), name) && !ctx.faults.on('checkpoint-patch-after-delete')) throw notFound();
    seqOfCursor(domain.codec, domain.store, request.body.newCursor);
    // Compare-and-set: the book checks and writes the version with no await in between.
    const r = await book().compareAndSet(checkpointOwner(p, ctx), name, request.body.expectedCheckpointVersion, request.body.newCursor, domain.nowIso(), ctx.variants.is('checkpoint-noop-keeps-version'));
    if (!r) throw notFound();
    if (!r.ok) {
      // "Body holds the current state": under {checkpoint}, or (variant) its fields at the root beside detail.
      const state = ctx.variants.is('checkpoint-conflict-bare') ? { ...r.checkpoint } : { checkpoint: r.checkpoint };
      throw new ApiError(409, 'Checkpoint version mismatch.', ctx.faults.on('checkpoint-409-without-state') ? {} : state);
    }
    return ctx.variants.is('checkpoint-patch-bare') ? r.checkpoint : { checkpoint: r.checkpoint };
  });

  app.delete<{ Params: NameParams }>(fastifyPath(paths.checkpoint_delete), { onRequest: nameChoice.hook, attachValidation: true, schema: { params: PARAMS } }, async (request) => {
    const p = begin(request, paths.checkpoint_delete, ctx);
    const cp = book().delete(checkpointOwner(p, ctx), request.params.name);
    if (!cp) throw notFound();
    return { checkpoint: { uid: cp.uid, name: cp.name }, deleted: true };
  });
}

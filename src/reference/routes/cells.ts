/** GET /cell -> Cell[]; GET /cell/{code} -> Cell (404 "Cell not found"). Cells are not entity-scoped. */
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../context.js';
import { begin } from '../http/guard.js';
import { listBody } from '../http/shape.js';
import { apiPaths, fastifyPath } from '../variants.js';
import { CODE_SCHEMA, type RouteDeps } from './deps.js';

export function registerCellRoutes(app: FastifyInstance, { ctx }: RouteDeps): void {
  const paths = apiPaths(ctx.variants);
  app.get(fastifyPath(paths.cells), async (request, reply) => {
    begin(request, paths.cells, ctx);
    return listBody(ctx, 'cells', ctx.data.cells, request, reply);
  });
  app.get<{ Params: { code: string } }>(fastifyPath(paths.cell), {
    attachValidation: true,
    schema: { params: { type: 'object', properties: { code: CODE_SCHEMA }, required: ['code'] } },
  }, async (request) => {
    begin(request, paths.cell, ctx);
    const cell = ctx.data.cells.find((c) => c.code === request.params.code);
    if (!cell) throw new ApiError(404, 'Cell not found');
    return cell;
  });
}

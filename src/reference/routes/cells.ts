/** GET /cell -> Cell[]; GET /cell/{code} -> Cell (404 "Cell not found"). Cells are not entity-scoped. */
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../context.js';
import { begin } from '../http/guard.js';
import { CODE_SCHEMA, type RouteDeps } from './deps.js';

export function registerCellRoutes(app: FastifyInstance, { ctx }: RouteDeps): void {
  app.get('/cell', async (request) => {
    begin(request, '/cell', ctx);
    return ctx.data.cells;
  });
  app.get<{ Params: { code: string } }>('/cell/:code', {
    attachValidation: true,
    schema: { params: { type: 'object', properties: { code: CODE_SCHEMA }, required: ['code'] } },
  }, async (request) => {
    begin(request, '/cell/{code}', ctx);
    const cell = ctx.data.cells.find((c) => c.code === request.params.code);
    if (!cell) throw new ApiError(404, 'Cell not found');
    return cell;
  });
}

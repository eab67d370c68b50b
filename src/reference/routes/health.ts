/** GET /health -> {"status":"OK"} (authenticated like every {base_url} call, unless variant health-public). */
import type { FastifyInstance } from 'fastify';
import { begin } from '../http/guard.js';
import { apiPaths, fastifyPath } from '../variants.js';
import type { RouteDeps } from './deps.js';

export function registerHealthRoutes(app: FastifyInstance, { ctx }: RouteDeps): void {
  const path = apiPaths(ctx.variants).health;
  app.get(fastifyPath(path), async (request) => {
    if (!ctx.variants.is('health-public')) begin(request, path, ctx);
    return ctx.faults.on('health-body-wrong') ? { ok: true } : { status: 'OK' };
  });
}

/** GET /health -> {"status":"OK"} (authenticated like every {base_url} call). */
import type { FastifyInstance } from 'fastify';
import { begin } from '../http/guard.js';
import type { RouteDeps } from './deps.js';

export function registerHealthRoutes(app: FastifyInstance, { ctx }: RouteDeps): void {
  app.get('/health', async (request) => {
    begin(request, '/health', ctx);
    return ctx.faults.on('health-body-wrong') ? { ok: true } : { status: 'OK' };
  });
}

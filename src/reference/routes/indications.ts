/**
 * GET /indication -> Indication[]; GET /indication/{code} -> Indication (404 "Indication not found").
 * uid and subscriptionDates are computed on the simulated clock at request time.
 */
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../context.js';
import { begin } from '../http/guard.js';
import { CODE_SCHEMA, type RouteDeps } from './deps.js';

export function registerIndicationRoutes(app: FastifyInstance, { ctx, domain }: RouteDeps): void {
  app.get('/indication', async (request) => {
    begin(request, '/indication', ctx);
    const now = domain.clock.now();
    return domain.indications.specs.map((s) => domain.indications.view(s, now));
  });
  app.get<{ Params: { code: string } }>('/indication/:code', {
    attachValidation: true,
    schema: { params: { type: 'object', properties: { code: CODE_SCHEMA }, required: ['code'] } },
  }, async (request) => {
    begin(request, '/indication/{code}', ctx);
    const spec = domain.indications.get(request.params.code);
    if (!spec) throw new ApiError(404, 'Indication not found');
    return domain.indications.view(spec, domain.clock.now());
  });
}

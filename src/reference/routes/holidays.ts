/** GET /holiday?country=XX -> Holiday[] ({country, date, name}); without country: every calendar. */
import type { FastifyInstance } from 'fastify';
import { begin } from '../http/guard.js';
import { CODE_SCHEMA, type RouteDeps } from './deps.js';

export function registerHolidayRoutes(app: FastifyInstance, { ctx }: RouteDeps): void {
  app.get<{ Querystring: { country?: string } }>('/holiday', {
    attachValidation: true,
    schema: { querystring: { type: 'object', properties: { country: CODE_SCHEMA } } },
  }, async (request) => {
    begin(request, '/holiday', ctx);
    const { country } = request.query;
    return ctx.data.holidays.filter((h) => country === undefined || h.country === country);
  });
}

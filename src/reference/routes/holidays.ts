/**
 * GET /holiday?country=XX -> Holiday[] ({country, date, name}); without country: every calendar.
 * Variant holidays-by-year: GET /holiday/{year} (same country filter), the holidays of that year.
 */
import type { FastifyInstance } from 'fastify';
import { begin } from '../http/guard.js';
import { listBody } from '../http/shape.js';
import { apiPaths, fastifyPath } from '../variants.js';
import { CODE_SCHEMA, type RouteDeps } from './deps.js';

export function registerHolidayRoutes(app: FastifyInstance, { ctx }: RouteDeps): void {
  const path = apiPaths(ctx.variants).holidays;
  const byYear = path.includes('{year}');
  app.get<{ Querystring: { country?: string }; Params: { year?: number } }>(fastifyPath(path), {
    attachValidation: true,
    schema: {
      querystring: { type: 'object', properties: { country: CODE_SCHEMA } },
      ...(byYear ? { params: { type: 'object', properties: { year: { type: 'integer', minimum: 1900, maximum: 2999 } }, required: ['year'] } } : {}),
    },
  }, async (request, reply) => {
    begin(request, path, ctx);
    const { country } = request.query;
    const year = request.params.year;
    return listBody(ctx, 'holidays', ctx.data.holidays.filter((h) =>
      (country === undefined || h.country === country) && (year === undefined || h.date.startsWith(`${year}-`))), request, reply);
  });
}

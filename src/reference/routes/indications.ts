/**
 * GET /indication -> Indication[]; GET /indication/{code} -> Indication (404 "Indication not found").
 * uid and subscriptionDates are computed on the simulated clock at request time. The wire shape of the
 * record and of GET /indication/{code} is decided here (variants of issue 12).
 */
import type { FastifyInstance } from 'fastify';
import { ApiError, type Variants } from '../context.js';
import type { IndicationView } from '../domain/indications.js';
import { begin } from '../http/guard.js';
import { listBody } from '../http/shape.js';
import { apiPaths, fastifyPath } from '../variants.js';
import { CODE_SCHEMA, type RouteDeps } from './deps.js';

/** An indication as the API shows it: the type of minimum/maximum and the enforceMaximum name are open. */
export function indicationRecord(view: IndicationView, variants: Variants): Record<string, unknown> {
  const out: Record<string, unknown> = { ...view };
  if (variants.is('indication-decimal-strings')) {
    out.minimum = String(view.minimum);
    out.maximum = String(view.maximum);
  }
  if (variants.is('enforce-maximum-renamed')) {
    delete out.enforceMaximum;
    out.maximumEnforced = view.enforceMaximum;
  }
  return out;
}

/** The body of GET /indication/{code}: the record at the root, a list holding it, or wrapped. */
function singleIndicationBody(record: Record<string, unknown>, variants: Variants): unknown {
  switch (variants.choice('indication-record')) {
    case 'indication-as-list': return [record];
    case 'indication-wrapped': return { indication: record };
    default: return record;
  }
}

export function registerIndicationRoutes(app: FastifyInstance, { ctx, domain }: RouteDeps): void {
  const path = apiPaths(ctx.variants).indications;
  app.get(fastifyPath(path), async (request, reply) => {
    begin(request, path, ctx);
    const now = domain.clock.now();
    return listBody(ctx, 'indications', domain.indications.specs.map((s) => indicationRecord(domain.indications.view(s, now), ctx.variants)), request, reply);
  });
  // GET /indication/{code} is the spec's own path: it never moves.
  app.get<{ Params: { code: string } }>('/indication/:code', {
    attachValidation: true,
    schema: { params: { type: 'object', properties: { code: CODE_SCHEMA }, required: ['code'] } },
  }, async (request) => {
    begin(request, '/indication/{code}', ctx);
    const spec = domain.indications.get(request.params.code);
    if (!spec) throw new ApiError(404, 'Indication not found');
    return singleIndicationBody(indicationRecord(domain.indications.view(spec, domain.clock.now()), ctx.variants), ctx.variants);
  });
}

/** Registers every {base_url} route family under /api/v1 and the sandbox control API under /_sandbox. */
import type { FastifyInstance } from 'fastify';
import { allowEndpoint } from '../http/guard.js';
import { registerCellRoutes } from './cells.js';
import { registerCheckpointRoutes } from './checkpoints.js';
import type { RouteDeps } from './deps.js';
import { registerEntityRoutes } from './entities.js';
import { registerEventRoutes } from './events.js';
import { registerHealthRoutes } from './health.js';
import { registerHoldingRoutes } from './holdings.js';
import { registerHolidayRoutes } from './holidays.js';
import { registerIndicationRoutes } from './indications.js';
import { registerSandboxRoutes } from './sandbox.js';
import { registerSubscriptionRoutes } from './subscriptions.js';
import { registerWebhookRoutes } from './webhooks.js';

export const API_PREFIX = '/api/v1';
export const SANDBOX_PREFIX = '/_sandbox';

const API_FAMILIES = [
  registerHealthRoutes, registerCellRoutes, registerEntityRoutes, registerHoldingRoutes, registerHolidayRoutes,
  registerIndicationRoutes, registerSubscriptionRoutes, registerEventRoutes, registerCheckpointRoutes, registerWebhookRoutes,
];

export async function registerRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  await app.register(async (api) => {
    // Endpoint permission before the body is parsed, so a read-only client gets 403 even for a body that
    // would be malformed, oversized or of the wrong type. Handlers check again (cheap, same answer).
    api.addHook('preParsing', async (request) => {
      const url = request.routeOptions.url;
      if (url !== undefined && request.principal) allowEndpoint(request, routeIdOf(url), deps.ctx);
    });
    for (const register of API_FAMILIES) register(api, deps);
  }, { prefix: API_PREFIX });
  if (deps.ctx.options.simulation) {
    await app.register(async (sandbox) => registerSandboxRoutes(sandbox, deps), { prefix: SANDBOX_PREFIX });
  }
}

/** `/api/v1/event/checkpoint/:name` -> `/event/checkpoint/{name}` (the routeId handlers pass too). */
export function routeIdOf(url: string): string {
  return url.slice(API_PREFIX.length).replace(/:([A-Za-z_]+)/g, '{$1}');
}

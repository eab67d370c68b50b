/**
 * POST /webhook {url} -> 200 {email, url}; DELETE /webhook -> 200 {email, url: previous or null}.
 * One URL per user; nothing is ever delivered to it (spec, Events rule 4).
 */
import type { FastifyInstance } from 'fastify';
import { begin } from '../http/guard.js';
import type { RouteDeps } from './deps.js';

export function registerWebhookRoutes(app: FastifyInstance, { ctx, domain }: RouteDeps): void {
  app.post<{ Body: { url: string } }>('/webhook', {
    attachValidation: true,
    schema: {
      body: {
        type: 'object',
        required: ['url'],
        properties: { url: { type: 'string', format: 'uri', pattern: '^https?://', maxLength: 2048 } },
      },
    },
  }, async (request) => {
    const p = begin(request, '/webhook', ctx);
    domain.webhooks.set(p.userEmail, request.body.url);
    return { email: p.userEmail, url: request.body.url };
  });

  app.delete('/webhook', async (request) => {
    const p = begin(request, '/webhook', ctx);
    const url = domain.webhooks.get(p.userEmail) ?? null;
    domain.webhooks.delete(p.userEmail);
    return ctx.faults.on('webhook-delete-shape-wrong') ? { deleted: true } : { email: p.userEmail, url };
  });
}

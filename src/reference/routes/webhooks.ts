/**
 * POST /webhook {url} -> 200 {email, url}; DELETE /webhook -> 200 {email, url: previous or null}.
 * One URL per user; nothing is ever delivered to it (spec, Events rule 4). The request shapes and the POST
 * status are "not shown": the variants of issue 12 choose them here.
 */
import type { FastifyInstance } from 'fastify';
import type { Variants } from '../context.js';
import { inFormScope } from '../http/form-scope.js';
import { begin } from '../http/guard.js';
import type { RouteDeps } from './deps.js';
import { decideForRoutes } from '../variant-consults.js';

const URL_SCHEMA = { type: 'string', format: 'uri', pattern: '^https?://', maxLength: 2048 } as const;

/** The body field carrying the URL (POST, and DELETE under webhook-delete-body). */
export function webhookUrlField(variants: Variants): string {
  return variants.is('webhook-url-field') ? 'callbackUrl' : 'url';
}

function postStatus(variants: Variants): number {
  switch (variants.choice('webhook-post-status')) {
    case 'webhook-post-201': return 201;
    case 'webhook-post-202': return 202;
    default: return 200;
  }
}

export function registerWebhookRoutes(app: FastifyInstance, { ctx, domain }: RouteDeps): void {
  // Decided once for POST and DELETE /webhook alone (their onRequest re-asks it: variant-consults.ts).
  const fieldChoice = decideForRoutes(() => webhookUrlField(ctx.variants));
  const field = fieldChoice.value;
  const bodySchema = { type: 'object', required: [field], properties: { [field]: URL_SCHEMA } };

  // The fault webhook-not-user-scoped keeps one registration for everybody.
  const owner = (email: string): string => (ctx.faults.on('webhook-not-user-scoped') ? '*' : email);
  // The fault webhook-reregister-keeps-old: DELETE only deactivates the user's record; POST reactivates a
  // deactivated record as it was (its old URL) instead of storing the new one.
  const deactivated = new Map<string, string>();

  app.post<{ Body: Record<string, string> }>('/webhook', { onRequest: fieldChoice.hook, attachValidation: true, schema: { body: bodySchema } }, async (request, reply) => {
    const p = begin(request, '/webhook', ctx);
    const url = request.body[field] ?? '';
    const old = ctx.faults.on('webhook-reregister-keeps-old') ? deactivated.get(owner(p.userEmail)) : undefined;
    domain.webhooks.set(owner(p.userEmail), old ?? url);
    return reply.code(postStatus(ctx.variants)).send({ email: p.userEmail, url });
  });

  // "Request shape of DELETE /webhook: not shown": nothing, or (variants) the URL in a JSON body, a query parameter or a form body.
  // Decided once for DELETE /webhook alone (schema, form scope); its onRequest re-asks it.
  const shapeChoice = decideForRoutes(() => ctx.variants.choice('webhook-delete-request'));
  const shape = shapeChoice.value;
  const schema = shape === 'webhook-delete-body' ? { body: bodySchema }
    : shape === 'webhook-delete-query' ? { querystring: { type: 'object', required: ['url'], properties: { url: URL_SCHEMA } } }
      : shape === 'webhook-delete-form' ? { body: { type: 'object', required: ['url'], properties: { url: URL_SCHEMA } } } : undefined;
  const register = (scope: FastifyInstance): void => {
    scope.delete('/webhook', { onRequest: [fieldChoice.hook, shapeChoice.hook], attachValidation: true, ...(schema ? { schema } : {}) }, async (request) => {
      const p = begin(request, '/webhook', ctx);
      const url = domain.webhooks.get(owner(p.userEmail)) ?? null;
      if (url !== null && !deactivated.has(owner(p.userEmail))) deactivated.set(owner(p.userEmail), url);
      domain.webhooks.delete(owner(p.userEmail));
      if (ctx.faults.on('webhook-delete-shape-wrong')) return { deleted: true };
      // "url (string or null, the webhook URL)": the one removed, or (variant) the one registered now: none.
      return { email: p.userEmail, url: ctx.variants.is('webhook-delete-url-null') ? null : url };
    });
  };
  if (shape === 'webhook-delete-form') inFormScope(app, register);
  else register(app);
}

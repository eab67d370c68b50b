/**
 * Routes whose request shape (a variant's) is a form body: registered in a scope of their own that also
 * parses application/x-www-form-urlencoded, so every other {base_url} route keeps answering a form body 415.
 */
import formbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';

export function inFormScope(app: FastifyInstance, register: (scope: FastifyInstance) => void): void {
  void app.register(async (scope) => {
    await scope.register(formbody);
    register(scope);
  });
}

/** What every route family receives: the context (options, data, secrets, faults) and the mutable domain. */
import type { ReferenceContext } from '../context.js';
import type { Domain } from '../domain/world.js';

export interface RouteDeps {
  ctx: ReferenceContext;
  domain: Domain;
}

/** Path and query value shapes shared by several routes (too long or odd characters -> 422). */
export const CODE_SCHEMA = { type: 'string', minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_.-]+$' } as const;
export const UID_SCHEMA = { type: 'string', minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_.-]+$' } as const;

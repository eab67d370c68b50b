/**
 * buildReferenceApp(options): the reference FTF server as a Fastify instance, not listening (tests use
 * inject or listen(0)). Order matters: error handling, auth (its root hook must precede the routes), the
 * lazy lifecycle hook, then the routes.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { registerAuth } from './auth/index.js';
import type { ReferenceContext, ReferenceOptions } from './context.js';
import { DEFAULT_DATA_DIR, loadReferenceData } from './data/load.js';
import { generateSecrets } from './data/secrets.js';
import { runLifecycle } from './domain/lifecycle.js';
import { Domain } from './domain/world.js';
import { createFaults } from './faults.js';
import { installExtraFields } from './http/shape.js';
import { createVariants } from './variants.js';
import { asRequestWork, recordingVariants } from './variant-consults.js';
import { BODY_LIMIT_BYTES, frameworkErrors, installErrorHandling } from './http/errors.js';
import { validatorCompiler } from './http/validation.js';
import { registerRoutes } from './routes/index.js';
import { installGrading } from './grading/index.js';

export const DEFAULT_TOKEN_LIFETIME_SECONDS = 28_800;

export interface ReferenceApp {
  app: FastifyInstance;
  ctx: ReferenceContext;
  /** The mutable state (clock, events, ...): for tests and benchmarks in-process. */
  domain: Domain;
}

/** Fills defaults; production never has the simulation (sandbox control API). */
export function resolveOptions(options: ReferenceOptions = {}): ReferenceContext['options'] {
  const mode = options.mode ?? 'sandbox';
  return {
    port: options.port ?? 0,
    host: options.host ?? '127.0.0.1',
    mode,
    seed: options.seed ?? 1,
    events: options.events ?? 0,
    tokenLifetimeSeconds: options.tokenLifetimeSeconds ?? DEFAULT_TOKEN_LIFETIME_SECONDS,
    simulation: mode === 'sandbox' && (options.simulation ?? true),
    logger: options.logger ?? false,
    fault: options.fault ?? null,
    variants: [...(options.variants ?? [])],
    dataDir: options.dataDir ?? DEFAULT_DATA_DIR,
  };
}

export async function buildReferenceApp(options: ReferenceOptions = {}): Promise<ReferenceApp> {
  const resolved = resolveOptions(options);
  const faults = createFaults(resolved.fault);
  // Recording on (the variant matrix's clean run, variant-consults.ts): every question to the switchboard is noted.
  const variants = recordingVariants(createVariants(resolved.variants));
  const data = loadReferenceData(resolved.dataDir, resolved.seed);
  const ctx: ReferenceContext = { options: resolved, data, secrets: generateSecrets(data), faults, variants, grading: options.grading ?? null };
  const domain = new Domain(data, { seed: resolved.seed, events: resolved.events, faults, variants });

  const app = Fastify({
    logger: resolved.logger,
    bodyLimit: BODY_LIMIT_BYTES,
    routerOptions: { maxParamLength: 256 },
    frameworkErrors: frameworkErrors(faults),
    // Never log Authorization headers or bodies: Fastify's default serializers log method+url only.
  });
  // First hook: what the rest of a request asks the switchboard is request work (variant-consults.ts).
  app.addHook('onRequest', (_request, _reply, done) => asRequestWork(done));
  app.setValidatorCompiler(validatorCompiler);
  installErrorHandling(app, faults, variants);
  if (variants.is('extra-fields')) installExtraFields(app);
  // Client grading: its hooks run before authentication (a refused token is answered first).
  if (ctx.grading) installGrading(app, ctx, domain, ctx.grading);
  // Tokens expire on the simulated clock, so advancing it past expires_in expires them. In client grading the
  // simulated clock jumps to issue subscriptions, while tokens must live their expires_in in real time.
  await registerAuth(app, ctx, { now: ctx.grading ? Date.now : () => domain.clock.now() });
  app.addHook('onRequest', async () => {
    runLifecycle(domain);
  });
  await registerRoutes(app, { ctx, domain });
  return { app, ctx, domain };
}

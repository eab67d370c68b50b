/** startReferenceServer(options): builds the app and listens on 127.0.0.1 (port 0 = a free port). */
import type { AddressInfo } from 'node:net';
import type { GeneratedSecrets, ReferenceOptions } from './context.js';
import { buildReferenceApp, type ReferenceApp } from './app.js';
import { API_PREFIX, SANDBOX_PREFIX } from './routes/index.js';

export interface RunningReference {
  /** http://127.0.0.1:PORT/api/v1 */
  baseUrl: string;
  /** http://127.0.0.1:PORT (token endpoint at authUrl + /oauth/token) */
  authUrl: string;
  /** authUrl + /_sandbox in simulation mode, else undefined. */
  controlUrl: string | undefined;
  /** Generated at this start; never print them unless asked. */
  secrets: GeneratedSecrets;
  close(): Promise<void>;
}

/** Observers of a start: which phase runs (a launcher's timeout names it) and a hook on the built state. */
export interface StartHooks {
  onPhase?(phase: 'build' | 'listen'): void;
  /** Called after the build, before listening (benchmarks preload events for one user here). */
  prepare?(built: ReferenceApp): void;
}

export async function startReferenceServer(options: ReferenceOptions = {}, hooks: StartHooks = {}): Promise<RunningReference> {
  hooks.onPhase?.('build');
  const built = await buildReferenceApp(options);
  const { app, ctx } = built;
  hooks.prepare?.(built);
  hooks.onPhase?.('listen');
  await app.listen({ host: ctx.options.host, port: ctx.options.port });
  const { port } = app.server.address() as AddressInfo;
  const host = ctx.options.host.includes(':') ? `[${ctx.options.host}]` : ctx.options.host;
  const authUrl = `http://${host}:${port}`;
  return {
    baseUrl: `${authUrl}${API_PREFIX}`,
    authUrl,
    controlUrl: ctx.options.simulation ? `${authUrl}${SANDBOX_PREFIX}` : undefined,
    secrets: ctx.secrets,
    close: () => app.close(),
  };
}

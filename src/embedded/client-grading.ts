/**
 * The grading server of client conformance (issue 27): the reference server in its grading mode, playing a
 * plan's challenges, and every raw exchange labelled and redacted (src/harness/client/label.ts) the moment it
 * is answered. Raw exchanges never leave this module; what it hands on (exchanges, the recording file) holds
 * labels, not secrets. Glue: imports src/reference and src/harness.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { startReferenceServer, type RunningReference } from '../reference/server.js';
import type { GradingChallenges, RawExchange } from '../reference/grading/types.js';
import { ExchangeLabeller } from '../harness/client/label.js';
import { watchStalls, type Stall } from '../harness/client/stalls.js';
import { clientEnv } from '../harness/client/plan.js';
import type { ClientExchange, ClientPlan } from '../harness/client/types.js';
import { FtfError } from '../shared/errors.js';

export interface GradingServer {
  baseUrl: string;
  authUrl: string;
  /** The FTF_* variables for the client under test (secrets included: for a child's environment only). */
  clientEnv: Record<string, string>;
  /** Labelled exchanges so far, in arrival order. */
  readonly exchanges: ClientExchange[];
  /** When the grading process itself was stalled (the lateness graders take it off; harness/client/stalls.ts). */
  readonly stalls: readonly Stall[];
  /** Every secret value of the servers (for the leak scan of the reports). */
  secretValues(): string[];
  /** Text with every secret of the plan replaced by its label (the client's own output passes through it). */
  redact(text: string): string;
  close(): Promise<void>;
}

export interface GradingServerOptions {
  /** JSON lines file the labelled exchanges are appended to as they arrive (`client serve` -> `client verdict`). */
  recordingFile?: string;
  /** A file holding the plan's tasks (FTF_TASKS_FILE). */
  tasksFile?: string;
  onExchange?(e: ClientExchange): void;
}

export async function startGradingServer(plan: ClientPlan, options: GradingServerOptions = {}): Promise<GradingServer> {
  const origin = performance.now();
  const labeller = new ExchangeLabeller(origin);
  const watch = watchStalls(origin);
  const exchanges: ClientExchange[] = [];
  if (options.recordingFile) {
    mkdirSync(dirname(options.recordingFile), { recursive: true });
    writeFileSync(options.recordingFile, '');
  }
  const onRaw = (environment: 'sandbox' | 'production') => (raw: RawExchange): void => {
    const e = labeller.label(raw, environment);
    exchanges.push(e);
    if (options.recordingFile) appendFileSync(options.recordingFile, `${JSON.stringify(e)}\n`);
    options.onExchange?.(e);
  };
  const sandbox: RunningReference = await startReferenceServer({
    mode: 'sandbox',
    tokenLifetimeSeconds: plan.tokenLifetimeSeconds,
    grading: { timeScale: plan.timeScale, challenges: plan.challenges as GradingChallenges, onExchange: onRaw('sandbox') },
  });
  labeller.addServerSecrets(sandbox.secrets);
  // Production: no challenges; it refuses API keys (Authentication rule 8), and its secrets are its own.
  const production: RunningReference = await startReferenceServer({
    mode: 'production',
    tokenLifetimeSeconds: plan.tokenLifetimeSeconds,
    grading: { timeScale: plan.timeScale, challenges: {}, onExchange: onRaw('production') },
  });
  labeller.addServerSecrets(production.secrets);
  const close = async () => {
    watch.stop();
    await Promise.all([sandbox.close(), production.close()]);
  };
  const clientSecret = sandbox.secrets.clients[plan.client.clientId];
  const codeClientSecret = sandbox.secrets.clients[plan.client.codeClientId];
  const prodClientSecret = production.secrets.clients[plan.client.clientId];
  const apiKey = sandbox.secrets.apiKeys[plan.client.apiKeyUser];
  if (clientSecret === undefined || codeClientSecret === undefined || prodClientSecret === undefined || apiKey === undefined) {
    await close();
    throw new FtfError('FTF_E_CLIENT_PLAN_INVALID', `plan ${plan.name}: the reference server has no client ${clientSecret === undefined ? plan.client.clientId : plan.client.codeClientId}`, { location: { file: plan.file } });
  }
  return {
    baseUrl: sandbox.baseUrl,
    authUrl: sandbox.authUrl,
    clientEnv: clientEnv(plan, { baseUrl: sandbox.baseUrl, authUrl: sandbox.authUrl, clientSecret, codeClientSecret, apiKey, production: { baseUrl: production.baseUrl, authUrl: production.authUrl, clientSecret: prodClientSecret } }, options.tasksFile),
    exchanges,
    stalls: watch.stalls,
    secretValues: () => labeller.secretValues(),
    redact: (text) => labeller.redactor.redactText(text),
    close,
  };
}

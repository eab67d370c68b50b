/**
 * Shared helpers of the engine self-tests: a stub HTTP server on port 0 (node:http), a hand-made target,
 * a fake auth client and schema registry, and a way to load a scenario from inline YAML.
 */
import { pagingOf, requestShapesOf } from '../../src/harness/target/paging.js';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CheckResult } from '../../src/harness/checks/types.js';
import { runScenario } from '../../src/harness/engine/run.js';
import type { EngineContext, ScenarioOutcome } from '../../src/harness/engine/types.js';
import { createUndiciTransport } from '../../src/harness/http/undici-transport.js';
import type { Clause } from '../../src/harness/spec/clauses.js';
import { describeProblem, loadScenarioSuite } from '../../src/harness/scenario/load.js';
import type { Scenario } from '../../src/harness/scenario/types.js';
import type { OperationMatch, SchemaRegistry } from '../../src/harness/schemas/types.js';
import type { ResolvedTarget } from '../../src/harness/target/types.js';

export type Handler = (req: IncomingMessage & { body: string }, res: ServerResponse) => void;

export interface Stub {
  url: string;
  requests: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: string }>;
  close(): Promise<void>;
}

export async function startStub(handler: Handler): Promise<Stub> {
  const requests: Stub['requests'] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handler(Object.assign(req, { body }), res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

export function makeTarget(url: string, timeouts: Partial<ResolvedTarget['timeouts']> = {}): ResolvedTarget {
  return {
    name: 'stub',
    source: 'test',
    baseUrl: `${url}/api/v1`,
    authUrl: url,
    controlUrl: `${url}/_sandbox`,
    environment: 'sandbox',
    credentials: { primary: { name: 'primary', kind: 'client_credentials', clientId: 'cid', secret: 'very-secret-value' } },
    entities: { allowed: ['ENT-A'], forbidden: 'ENT-X' },
    indications: { primary: 'IND-1' },
    paths: {},
    fields: {},
    records: {},
    webhook: { deleteBody: false },
    shapes: requestShapesOf({}, 'url'),
    paging: pagingOf(),
    capabilities: new Set(['mutation', 'clock', 'sandbox']),
    allowMutations: true,
    timing: { expiryLeewayS: 2 },
    timeouts: { requestMs: 2000, pollIntervalMs: 10, pollDeadlineMs: 500, scenarioMs: 10000, maxPages: 100, maxListPages: 50, ...timeouts },
  } as ResolvedTarget;
}

/** A registry that knows no operation (no auto schema check) unless `match` says otherwise. */
export function fakeSchemas(match?: (method: string, path: string, status: number) => OperationMatch | undefined): SchemaRegistry {
  return {
    validate: (schemaId, value) => ({ valid: typeof value === 'object' && value !== null && 'ok' in value, schemaId, issues: [{ instancePath: '/ok', keyword: 'required', message: 'must have ok' }] }),
    matchOperation: (method, path, _base, status) => match?.(method, path, status),
    schemaIds: () => [],
    validator: () => Object.assign(() => true, {}),
    operationIds: () => [],
  } as SchemaRegistry;
}

export interface FakeAuth {
  forgotten: number;
  authorization(name: string): Promise<string | undefined>;
  forgetAll(): void;
  clientAuthorization(name: string): string;
}

export function fakeAuth(): FakeAuth {
  const auth: FakeAuth = {
    forgotten: 0,
    authorization: async (name) => (name === 'none' ? undefined : `Bearer token-of-${name}`),
    forgetAll: () => {
      auth.forgotten++;
    },
    clientAuthorization: (name) => `Basic ${Buffer.from(`${name}:secret`).toString('base64')}`,
  };
  return auth;
}

const CLAUSES = new Map<string, Clause>([
  ['T-ONE', { id: 'T-ONE', ref: 'test', says: 'test clause', level: 'must', needs: [] }],
  ['T-CLOCK', { id: 'T-CLOCK', ref: 'test', says: 'needs the clock', level: 'must', needs: ['clock'] }],
]);
export const TEST_CLAUSES = CLAUSES;

/** Load one scenario from YAML text (plus optional step groups) through the real loader. */
export function scenarioFromYaml(yaml: string, groups: Record<string, string> = {}): Scenario {
  const dir = mkdtempSync(join(tmpdir(), 'ftf-engine-'));
  try {
    mkdirSync(join(dir, 'fam'));
    writeFileSync(join(dir, 'fam', 'scenario.yaml'), yaml);
    if (Object.keys(groups).length) {
      mkdirSync(join(dir, '_steps'));
      for (const [name, text] of Object.entries(groups)) writeFileSync(join(dir, '_steps', `${name}.yaml`), text);
    }
    const suite = loadScenarioSuite(dir, { clauses: CLAUSES });
    if (suite.problems.length) throw new Error(suite.problems.map(describeProblem).join('\n'));
    const scenario = suite.scenarios[0];
    if (!scenario) throw new Error('no scenario loaded');
    return scenario;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface RunResult {
  outcome?: ScenarioOutcome;
  error?: Error;
  titles: string[];
  checks: CheckResult[];
  elapsedMs: number;
}

export async function run(scenario: Scenario, target: ResolvedTarget, extra: Partial<EngineContext> = {}): Promise<RunResult> {
  const titles: string[] = [];
  const checks: CheckResult[] = [];
  const transport = createUndiciTransport();
  const ctx: EngineContext = {
    target,
    transport,
    auth: fakeAuth(),
    schemas: fakeSchemas(),
    runId: 'run-1',
    runStep: async (title, fn) => {
      titles.push(title);
      return fn();
    },
    onCheck: (c) => checks.push(c),
    ...extra,
  };
  const start = Date.now();
  try {
    const outcome = await runScenario(scenario, ctx);
    return { outcome, titles, checks, elapsedMs: Date.now() - start };
  } catch (error) {
    return { error: error as Error, titles, checks, elapsedMs: Date.now() - start };
  } finally {
    await transport.dispose?.();
  }
}

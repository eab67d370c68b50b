/** Test plans (fixtures/client-plans/<name>.yaml): read once, checked field by field, and the client's FTF_* variables. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { FtfError } from '../../shared/errors.js';
import { REPO_ROOT } from '../repo-root.js';
import type { ClientPlan } from './types.js';

export const PLAN_DIR = join(REPO_ROOT, 'fixtures', 'client-plans');

function bad(file: string, field: string, what: string): FtfError {
  return new FtfError('FTF_E_CLIENT_PLAN_INVALID', `${file}: ${field} ${what}`, { location: { file }, hint: 'see docs/client-conformance.md for the plan format' });
}

function num(file: string, o: Record<string, unknown>, key: string, path = key): number {
  const v = o[key];
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) throw bad(file, path, 'must be a positive number');
  return v;
}

function str(file: string, o: Record<string, unknown>, key: string, path = key): string {
  const v = o[key];
  if (typeof v !== 'string' || v === '') throw bad(file, path, 'must be a non-empty string');
  return v;
}

function obj(file: string, o: Record<string, unknown>, key: string): Record<string, unknown> {
  const v = o[key];
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw bad(file, key, 'must be a mapping');
  return v as Record<string, unknown>;
}

/** A plan by name (fixtures/client-plans/<name>.yaml) or by file path. */
export function planFile(nameOrFile: string): string {
  if (nameOrFile.endsWith('.yaml') || nameOrFile.includes('/')) return nameOrFile;
  return join(PLAN_DIR, `${nameOrFile}.yaml`);
}

export function loadPlan(nameOrFile: string): ClientPlan {
  const file = planFile(nameOrFile);
  if (!existsSync(file)) throw new FtfError('FTF_E_CLIENT_PLAN_INVALID', `no such plan: ${nameOrFile} (${file})`, { hint: `plans: ${PLAN_DIR}` });
  let raw: Record<string, unknown>;
  try {
    raw = parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (err) {
    throw new FtfError('FTF_E_CLIENT_PLAN_INVALID', `${file}: ${(err as Error).message}`, { location: { file } });
  }
  if (!raw || typeof raw !== 'object') throw bad(file, 'the file', 'must be a mapping');
  const client = obj(file, raw, 'client');
  const grading = obj(file, raw, 'grading');
  const interval = obj(file, grading, 'pollIntervalSeconds');
  const tasks = raw.tasks;
  if (!Array.isArray(tasks) || tasks.length === 0) throw bad(file, 'tasks', 'must be a non-empty list');
  return {
    name: str(file, raw, 'name'),
    file,
    description: typeof raw.description === 'string' ? raw.description : '',
    timeScale: num(file, raw, 'timeScale'),
    tokenLifetimeSeconds: num(file, raw, 'tokenLifetimeSeconds'),
    timeoutSeconds: num(file, raw, 'timeoutSeconds'),
    client: {
      clientId: str(file, client, 'clientId', 'client.clientId'),
      entityCode: str(file, client, 'entityCode', 'client.entityCode'),
      secondEntityCode: str(file, client, 'secondEntityCode', 'client.secondEntityCode'),
      forbiddenEntityCode: str(file, client, 'forbiddenEntityCode', 'client.forbiddenEntityCode'),
      indicationCode: str(file, client, 'indicationCode', 'client.indicationCode'),
      amount: str(file, client, 'amount', 'client.amount'),
      currency: str(file, client, 'currency', 'client.currency'),
      checkpointName: str(file, client, 'checkpointName', 'client.checkpointName'),
      syncRuns: num(file, client, 'syncRuns', 'client.syncRuns'),
      codeClientId: str(file, client, 'codeClientId', 'client.codeClientId'),
      codeUser: str(file, client, 'codeUser', 'client.codeUser'),
      redirectUri: str(file, client, 'redirectUri', 'client.redirectUri'),
      refreshCycles: num(file, client, 'refreshCycles', 'client.refreshCycles'),
      apiKeyUser: str(file, client, 'apiKeyUser', 'client.apiKeyUser'),
    },
    challenges: obj(file, raw, 'challenges'),
    tasks: tasks.map((t: Record<string, unknown>, i: number) => ({ id: str(file, t, 'id', `tasks[${i}].id`), text: str(file, t, 'text', `tasks[${i}].text`) })),
    grading: {
      slackMs: num(file, grading, 'slackMs', 'grading.slackMs'),
      minBackoffMs: num(file, grading, 'minBackoffMs', 'grading.minBackoffMs'),
      pollIntervalSeconds: { min: num(file, interval, 'min', 'grading.pollIntervalSeconds.min'), max: num(file, interval, 'max', 'grading.pollIntervalSeconds.max') },
      reuseShare: num(file, grading, 'reuseShare', 'grading.reuseShare'),
    },
  };
}

/** Where the grading server listens, and the client's secrets (handed over in the environment only). */
export interface PlanEndpoints {
  baseUrl: string;
  authUrl: string;
  clientSecret: string;
  codeClientSecret: string;
  /** The sandbox API key of the plan's user (sandbox only). */
  apiKey: string;
  /** The production-mode server: same client id, its own secret. */
  production: { baseUrl: string; authUrl: string; clientSecret: string };
}

/** The FTF_* variables a client under test reads (docs/client-conformance.md, "Variables"). */
export function clientEnv(plan: ClientPlan, at: PlanEndpoints, tasksFile?: string): Record<string, string> {
  const c = plan.client;
  return {
    FTF_PLAN: plan.name,
    FTF_BASE_URL: at.baseUrl,
    FTF_AUTH_URL: at.authUrl,
    FTF_CLIENT_ID: c.clientId,
    FTF_CLIENT_SECRET: at.clientSecret,
    FTF_ENTITY_CODE: c.entityCode,
    FTF_SECOND_ENTITY_CODE: c.secondEntityCode,
    FTF_FORBIDDEN_ENTITY_CODE: c.forbiddenEntityCode,
    FTF_INDICATION_CODE: c.indicationCode,
    FTF_AMOUNT: c.amount,
    FTF_CURRENCY: c.currency,
    FTF_CHECKPOINT_NAME: c.checkpointName,
    FTF_SYNC_RUNS: String(c.syncRuns),
    FTF_TIME_SCALE: String(plan.timeScale),
    FTF_TOKEN_LIFETIME: String(plan.tokenLifetimeSeconds),
    FTF_CODE_CLIENT_ID: c.codeClientId,
    FTF_CODE_CLIENT_SECRET: at.codeClientSecret,
    FTF_CODE_USER: c.codeUser,
    FTF_REDIRECT_URI: c.redirectUri,
    FTF_REFRESH_CYCLES: String(c.refreshCycles),
    FTF_API_KEY: at.apiKey,
    FTF_PROD_BASE_URL: at.production.baseUrl,
    FTF_PROD_AUTH_URL: at.production.authUrl,
    FTF_PROD_CLIENT_SECRET: at.production.clientSecret,
    ...(tasksFile ? { FTF_TASKS_FILE: tasksFile } : {}),
  };
}

/**
 * The workflows of bench/real-path.ts, generated at bench time from the templates in bench/peers/workflows/
 * for the running reference server: one client_credentials token request, then `gets` GETs of one holding,
 * each checked for status 200 and against the Holding schema (w1: 1 GET, w2: 200).
 *   ours     a scenario folder (FTF_SPECS_DIR) with ftf-scenario.yaml, its steps repeated `gets` times, and a
 *            target profile naming the server's URLs (the client secret stays in the environment);
 *   Step CI  stepci.yml with `env` filled, the portable Holding schema and the GET step repeated;
 *   Newman   the collection as it is, and an environment file with the values.
 * Everything is written to one private temporary folder (0700), which the caller removes when done. No file
 * holds the client secret: Step CI gets it as `secrets.client_secret`, Newman as the variable client_secret,
 * each through an argument added inside its own process (bench/lib/peer-run.mjs).
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import { peerSchema } from './peer-schema.js';

const TEMPLATES = join(dirname(fileURLToPath(import.meta.url)), '..', 'peers', 'workflows');
export const NEWMAN_COLLECTION = join(TEMPLATES, 'newman.postman_collection.json');

export interface WorkflowTarget {
  baseUrl: string;
  authUrl: string;
  clientId: string;
  /** Never written to a file here. */
  clientSecret: string;
  /** API path of the holding, /holding/{entity_code}/{holding_uid}. */
  holdingPath: string;
}

export interface WorkflowFiles {
  gets: number;
  /** FTF_SPECS_DIR for our CLI and the engine path. */
  specsDir: string;
  stepci: string;
  newmanEnv: string;
}

/** The folder every generated file goes to (private: some hold the client secret). */
export const privateDir = (): string => mkdtempSync(join(tmpdir(), 'ftf-bench-real-path-'));

const template = (name: string): Record<string, unknown> => parse(readFileSync(join(TEMPLATES, name), 'utf8')) as Record<string, unknown>;
const write = (file: string, text: string): void => writeFileSync(file, text, { mode: 0o600 });

/** Our target profile for the server (docs/target-profiles.md): URLs, and the primary client by its variable. */
export function writeProfile(dir: string, t: WorkflowTarget, secretEnv: string): string {
  const file = join(dir, 'bench-target.yaml');
  write(file, stringify({
    name: 'bench reference (bench/real-path.ts)',
    base_url: t.baseUrl,
    auth_url: t.authUrl,
    environment: 'sandbox',
    credentials: { primary: { kind: 'client_credentials', client_id: t.clientId, client_secret_env: secretEnv } },
  }));
  return file;
}

export function writeWorkflow(dir: string, name: string, gets: number, t: WorkflowTarget): WorkflowFiles {
  const specsDir = join(dir, `specs-${name}`);
  mkdirSync(join(specsDir, 'bench'), { recursive: true });
  const ours = template('ftf-scenario.yaml');
  ours.vars = { holding_path: t.holdingPath };
  ours.steps = Array.from({ length: gets }, () => ours.steps as unknown[]).flat();
  write(join(specsDir, 'bench', 'holding-gets.yaml'), stringify(ours, { aliasDuplicateObjects: false }));

  const holding = peerSchema('holding');
  const stepci = template('stepci.yml') as { env: Record<string, string>; components: { schemas: Record<string, unknown> }; tests: Record<string, { steps: unknown[] }> };
  stepci.env = { auth_url: t.authUrl, base_url: t.baseUrl, holding_path: t.holdingPath, client_id: t.clientId };
  stepci.components.schemas.Holding = holding;
  for (const test of Object.values(stepci.tests)) {
    const get = test.steps[test.steps.length - 1];
    test.steps = [...test.steps.slice(0, -1), ...Array.from({ length: gets }, () => get)];
  }
  const stepciFile = join(dir, `stepci-${name}.yml`);
  write(stepciFile, stringify(stepci, { aliasDuplicateObjects: false }));

  const values = { auth_url: t.authUrl, base_url: t.baseUrl, holding_path: t.holdingPath, client_id: t.clientId, gets: String(gets), holding_schema: JSON.stringify(holding) };
  const newmanEnv = join(dir, `newman-env-${name}.json`);
  write(newmanEnv, JSON.stringify({ name: `bench ${name}`, values: Object.entries(values).map(([key, value]) => ({ key, value, enabled: true })) }));
  return { gets, specsDir, stepci: stepciFile, newmanEnv };
}

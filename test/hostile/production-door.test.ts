/**
 * One door to production writes (issue 29 item 3): mutating scenarios run only when `--allow-mutations` is on
 * the command line AND the profile says `allow_mutations: true`; the wire guard compares resolved origins.
 * Against the reference server in production mode behind a recording proxy (every write that arrives is
 * counted), with a profile that allows mutations:
 * - FTF_ALLOW_MUTATIONS=1 and a forged mutation grant (in FTF_RUN) inherited from the environment, no flag: zero writes
 *   through `ftf-conformance run` and zero through `playwright test` run directly; the console names the variable;
 * - the same run WITH --allow-mutations writes (the count above can fail);
 * - a scenario whose `base: auth` step writes under base_url's path, with auth_url spelt `localhost` and
 *   base_url `127.0.0.1` (one host), on a production profile without the opt-ins: refused before sending.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadScenarioSuite } from '../../src/harness/scenario/load.js';
import { REPO_ROOT } from '../../src/harness/repo-root.js';
import { startReferenceServer } from '../../src/reference/server.js';
import { runCatalogue } from '../../src/selftest/catalogue-run.js';
import { runCli } from './cli-run.js';
import { startLoopbackProxy, type LoopbackProxy } from './proxy.js';
import { RUN_ENV, runSettingsEnv } from '../../src/shared/run-settings.js';

const RUN_MS = 120_000;
const dir = mkdtempSync(join(tmpdir(), 'ftf-door-'));
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// A mutating scenario the reference runs in production mode (no sandbox clock, funding or consent).
const scenario = loadScenarioSuite(join(REPO_ROOT, 'specs')).scenarios.find((s) => s.needs.includes('mutation') && s.formOf === undefined && !s.needs.some((n) => n === 'clock' || n === 'funding' || n === 'consent'));

let server: Awaited<ReturnType<typeof startReferenceServer>>;
let proxy: LoopbackProxy;
const writes: string[] = [];

function profile(name: string, authHost: string, allow: boolean): string {
  const port = new URL(proxy.url).port;
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, `name: ${name}
base_url: http://127.0.0.1:${port}/api/v1
auth_url: http://${authHost}:${port}
environment: production
allow_mutations: ${allow}
${allow ? 'capabilities: [mutation]\n' : ''}credentials:
  primary: { kind: client_credentials, client_id: cc-alice, client_secret_env: DOOR_PRIMARY }
  second: { kind: client_credentials, client_id: cc-bob, client_secret_env: DOOR_SECOND }
  readonly: { kind: client_credentials, client_id: cc-carol-readonly, client_secret_env: DOOR_READONLY }
entities: { allowed: [ENT-ALPHA, ENT-BETA], forbidden: ENT-GAMMA }
indications: { primary: FTF-FIX-1M, fractional_minimum: FTF-FIX-FRAC, enforced_maximum: FTF-FIX-1M, unenforced_maximum: FTF-FIX-FRAC, extendable: FTF-EXT-6M }
timeouts: { request_ms: 5000, scenario_ms: 30000, poll_deadline_ms: 5000 }
`);
  return file;
}

const secretsEnv = (): Record<string, string | undefined> => ({
  DOOR_PRIMARY: server.secrets.clients['cc-alice'],
  DOOR_SECOND: server.secrets.clients['cc-bob'],
  DOOR_READONLY: server.secrets.clients['cc-carol-readonly'],
});
// What a shell, a CI variable or a .env file may hold: the old opt-in and a grant-looking value.
const INHERITED = { FTF_ALLOW_MUTATIONS: '1', ...runSettingsEnv({ grant: '00112233445566778899aabbccddeeff@/tmp/ftf-grant-forged/grant.json' }) };

before(async () => {
  server = await startReferenceServer({ mode: 'production' });
  proxy = await startLoopbackProxy(server.authUrl, (x) => {
    const path = x.url.split('?')[0] ?? '';
    const tokenRequest = x.method === 'POST' && /\/oauth\/token$/.test(path);
    if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(x.method) && path.startsWith('/api/v1/') && !tokenRequest) writes.push(`${x.method} ${path}`);
  });
});
after(async () => {
  await proxy?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('one door to production writes', () => {
  it('an inherited FTF_ALLOW_MUTATIONS=1 (and a forged grant) with allow_mutations: true and no flag: zero writes, the variable named', { timeout: 3 * RUN_MS }, async () => {
    assert.ok(scenario, 'a mutating scenario runnable in production mode');
    const file = profile('door-env', '127.0.0.1', true);
    const grep = `${escape(scenario.id)}:`;
    const env = { ...secretsEnv(), ...INHERITED, FTF_TARGET: file, FTF_REPORTS_DIR: join(dir, 'r1'), FTF_CACHE_DIR: join(dir, 'cache') };
    writes.length = 0;
    const run = await runCli(['run', '--no-report', '--grep', grep, '--', `--output=${join(dir, 'o1')}`], env, RUN_MS);
    assert.equal(run.killed, false, 'the run ended within its bound');
    assert.deepEqual(writes, [], `writes reached the production target without --allow-mutations (stdout: ${run.stdout.slice(-1500)})`);
    assert.match(run.stdout, /FTF_ALLOW_MUTATIONS is set in the environment and ignored/, 'the console names the ignored variable');
    assert.match(run.stdout, /skipped/i, 'the mutating scenario is skipped');

    // `playwright test` on its own (no CLI): the same inherited values grant nothing either.
    const direct = await runCatalogue({ timeoutMs: RUN_MS, workers: 1, args: ['--grep', grep], env: { ...env, FTF_REPORTS_DIR: undefined } });
    rmSync(direct.dir, { recursive: true, force: true });
    assert.equal(direct.killed, false);
    assert.deepEqual(writes, [], `writes reached the production target through playwright test run directly (${direct.stdout.slice(-1500)})`);

    // The control: the flag on the command line opens the door (through the grant), so the zero above can fail.
    const allowed = await runCli(['run', '--no-report', '--allow-mutations', '--grep', grep, '--', `--output=${join(dir, 'o2')}`], { ...env, FTF_REPORTS_DIR: join(dir, 'r2') }, RUN_MS);
    assert.equal(allowed.killed, false);
    assert.ok(writes.length > 0, `with --allow-mutations the scenario writes (exit ${allowed.code}; stdout: ${allowed.stdout.slice(-1500)})`);
  });

  it('a write under base_url spelt through auth_url as localhost (base_url 127.0.0.1) is refused before sending', { timeout: RUN_MS + 10_000 }, async () => {
    const specs = join(dir, 'specs', 'door');
    mkdirSync(specs, { recursive: true });
    writeFileSync(join(specs, 'spelling.yaml'), `id: door.localhost-spelling
title: a write sent through auth_url that lands under base_url
covers: [AUTH-TOKEN-REQUEST]
steps:
  - name: POST {auth_url}/api/v1/subscribe (auth_url is localhost, base_url 127.0.0.1)
    request:
      method: POST
      base: auth
      path: /api/v1/subscribe
      json: { indicationUid: x, entityCode: ENT-ALPHA, amount: '1000000' }
      as: sub
  - expect:
      of: sub
      status: 200
`);
    const file = profile('door-spelling', 'localhost', false);
    writes.length = 0;
    const run = await runCli(['run', '--no-report', '--grep', '^door\\.', '--', `--output=${join(dir, 'o3')}`],
      { ...secretsEnv(), FTF_TARGET: file, FTF_SPECS_DIR: join(dir, 'specs'), FTF_REPORTS_DIR: join(dir, 'r3'), FTF_CACHE_DIR: join(dir, 'cache'), FTF_ALLOW_MUTATIONS: undefined, [RUN_ENV]: undefined },
      RUN_MS);
    assert.equal(run.killed, false);
    assert.deepEqual(writes, [], `a write reached production through another spelling of its host (stdout: ${run.stdout.slice(-1500)})`);
    assert.match(`${run.stdout}\n${run.stderr}`, /FTF_E_PRODUCTION_MUTATIONS_REFUSED|refused before sending/, `the refusal is named (stdout: ${run.stdout.slice(-3000)})`);
  });
});

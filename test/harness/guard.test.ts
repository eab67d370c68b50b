/**
 * The production guard: unit level (skip reason, CLI opt-in parsing, the transport that refuses API writes,
 * profile rules) and one Playwright-level run of the catalogue against the reference server in production
 * mode behind a counting proxy: without both opt-ins, mutating scenarios are skipped with the documented
 * reason and no POST/PUT/PATCH/DELETE under base_url reaches the server; with both, writes do arrive (so
 * the count is not trivially zero).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { HttpRequest, HttpResponse, Transport } from '../../src/harness/http/types.js';
import { loadScenarioSuite } from '../../src/harness/scenario/load.js';
import { withMutationGuard } from '../../src/harness/target/capabilities.js';
import { issueMutationGrant } from '../../src/harness/target/mutation-grant.js';
import {
  cliAllowsMutations,
  guardProductionWrites,
  isApiWrite,
  mutationSkipReason,
  PRODUCTION_MUTATION_SKIP_REASON,
  productionWritesRefused,
} from '../../src/harness/target/guard.js';
import { loadTargetProfile } from '../../src/harness/target/load.js';
import { startReferenceServer } from '../../src/reference/server.js';
import { FtfError } from '../../src/shared/errors.js';
import { flattenTests, runCatalogue } from '../../src/selftest/catalogue-run.js';
import { REPO_ROOT } from '../../src/harness/repo-root.js';
import { startLoopbackProxy } from '../hostile/proxy.js';
import { RUN_ENV, runSettingsEnv } from '../../src/shared/run-settings.js';

const dir = mkdtempSync(join(tmpdir(), 'ftf-guard-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const prod = { environment: 'production' as const, allowMutations: true, baseUrl: 'https://p.test/api/v1', name: 'p' };
const sandbox = { ...prod, environment: 'sandbox' as const, allowMutations: false };

function countingTransport(): Transport & { calls: HttpRequest[] } {
  const calls: HttpRequest[] = [];
  return {
    calls,
    send(req) {
      calls.push(req);
      return Promise.resolve({ status: 200, headers: {}, bodyText: '', json: undefined, durationMs: 0 } satisfies HttpResponse);
    },
  };
}
const req = (method: string, url: string): HttpRequest => ({ method, url, headers: {}, timeoutMs: 1000 });

describe('production guard: decisions', () => {
  it('mutating scenarios on production need both opt-ins; sandboxes and read-only scenarios are never touched', () => {
    assert.equal(mutationSkipReason(prod, ['mutation'], false), PRODUCTION_MUTATION_SKIP_REASON);
    assert.equal(mutationSkipReason({ ...prod, allowMutations: false }, ['mutation'], true), PRODUCTION_MUTATION_SKIP_REASON);
    assert.equal(mutationSkipReason(prod, ['mutation', 'clock'], true), undefined);
    assert.equal(mutationSkipReason(prod, ['second-user'], false), undefined);
    assert.equal(mutationSkipReason(sandbox, ['mutation'], false), undefined);
    assert.equal(productionWritesRefused(prod, false), true);
    assert.equal(productionWritesRefused(prod, true), false);
  });

  it('the CLI opt-in is a grant this process tree issued; no variable value enables writes', () => {
    assert.equal(cliAllowsMutations({ FTF_ALLOW_MUTATIONS: '1' }), false, 'the retired variable grants nothing');
    assert.equal(cliAllowsMutations({}), false);
    assert.equal(cliAllowsMutations(runSettingsEnv({ grant: 'abc@/nonexistent/grant.json' })), false, 'a grant file that is not there');
    const grant = issueMutationGrant();
    try {
      assert.equal(cliAllowsMutations(runSettingsEnv({ grant: grant.value })), true, 'issued by this process (an ancestor of itself)');
      const [nonce, file] = grant.value.split('@');
      assert.equal(cliAllowsMutations(runSettingsEnv({ grant: `${nonce}x@${file}` })), false, 'another nonce');
    } finally {
      grant.revoke();
    }
    assert.equal(cliAllowsMutations(runSettingsEnv({ grant: grant.value })), false, 'revoked at the end of the run');
  });

  it('API writes are the write methods under base_url, not the token endpoint or a look-alike prefix', () => {
    assert.equal(isApiWrite(req('POST', 'https://p.test/api/v1/subscribe'), prod.baseUrl), true);
    assert.equal(isApiWrite(req('delete', 'https://p.test/api/v1/event/checkpoint/x'), prod.baseUrl), true);
    assert.equal(isApiWrite(req('GET', 'https://p.test/api/v1/subscribe'), prod.baseUrl), false);
    assert.equal(isApiWrite(req('POST', 'https://p.test/oauth/token'), prod.baseUrl), false);
    assert.equal(isApiWrite(req('POST', 'https://p.test/api/v1evil/subscribe'), prod.baseUrl), false);
  });

  it('the token request misplaced under base_url (AUTH-TOKEN-ROOT) is not a write; other methods or paths there are', () => {
    assert.equal(isApiWrite(req('POST', 'https://p.test/api/v1/oauth/token'), prod.baseUrl), false);
    assert.equal(isApiWrite(req('post', 'https://p.test/api/v1/oauth/token?x=1'), prod.baseUrl), false);
    assert.equal(isApiWrite(req('PUT', 'https://p.test/api/v1/oauth/token'), prod.baseUrl), true);
    assert.equal(isApiWrite(req('POST', 'https://p.test/api/v1/oauth/token/revoke'), prod.baseUrl), true);
    assert.equal(isApiWrite(req('POST', 'https://p.test/api/v1/oauth/tokens'), prod.baseUrl), true);
  });

  it('the guarded transport refuses API writes before sending and lets reads and tokens through', async () => {
    const inner = countingTransport();
    const guarded = guardProductionWrites(inner, prod, false);
    await assert.rejects(guarded.send(req('PATCH', 'https://p.test/api/v1/event/checkpoint/a')),
      (e: unknown) => e instanceof FtfError && e.code === 'FTF_E_PRODUCTION_MUTATIONS_REFUSED' && e.message.includes('PATCH https://p.test/api/v1/event/checkpoint/a') && e.message.includes(PRODUCTION_MUTATION_SKIP_REASON));
    assert.equal(inner.calls.length, 0, 'a refused write must never reach the wire');
    await guarded.send(req('GET', 'https://p.test/api/v1/event'));
    await guarded.send(req('POST', 'https://p.test/oauth/token'));
    assert.deepEqual(inner.calls.map((c) => c.method), ['GET', 'POST']);
    assert.equal(guardProductionWrites(inner, prod, true), inner, 'both opt-ins: no wrapper');
    assert.equal(guardProductionWrites(inner, sandbox, false), inner, 'sandbox: no wrapper');
  });
});

describe('production guard: profiles', () => {
  const profile = (body: string): string => {
    const file = join(dir, `p${Math.random().toString(36).slice(2)}.yaml`);
    writeFileSync(file, `name: p\nbase_url: https://p.test/api/v1\nauth_url: https://p.test\nenvironment: production\n${body}`);
    return file;
  };
  const env = { P: 'secret-primary-1', K: 'api-key-canary-1' };

  it('an API-key credential is refused for production at load time', () => {
    assert.throws(() => loadTargetProfile(profile('credentials:\n  primary: { kind: client_credentials, client_id: c, client_secret_env: P }\n  api_key: { kind: api_key, api_key_env: K }\n'), { env }),
      (e: unknown) => e instanceof FtfError && e.code === 'FTF_E_PROFILE_API_KEY_IN_PRODUCTION' && !e.message.includes(env.K));
  });

  it('withMutationGuard drops mutation unless both opt-ins are given', () => {
    const t = loadTargetProfile(profile('allow_mutations: true\ncapabilities: [mutation]\ncredentials:\n  primary: { kind: client_credentials, client_id: c, client_secret_env: P }\n'), { env });
    assert.equal(withMutationGuard(t, false).capabilities.has('mutation'), false);
    assert.equal(withMutationGuard(t, true).capabilities.has('mutation'), true);
  });

  it('production.example.yaml loads as a production profile without mutation and without API keys', () => {
    const t = loadTargetProfile(join(REPO_ROOT, 'fixtures/targets/production.example.yaml'), {
      env: { VENDOR_PROD_PRIMARY_CLIENT_SECRET: 'x-secret-1', VENDOR_PROD_READONLY_CLIENT_SECRET: 'x-secret-2', VENDOR_PROD_CODE_CLIENT_SECRET: 'x-secret-3', VENDOR_PROD_CODE_REFRESH_TOKEN: 'x-refresh-4' },
    });
    assert.equal(t.environment, 'production');
    assert.equal(t.capabilities.has('mutation'), false);
    assert.ok(Object.values(t.credentials).every((c) => c.kind !== 'api_key'));
  });
});

describe('production guard: a whole run against the reference in production mode', () => {
  const suite = loadScenarioSuite(join(REPO_ROOT, 'specs'));
  // A clock-less form has no test of its own: it runs under its clock scenario's id (scenario/load.ts, formOf).
  const mutating = suite.scenarios.filter((s) => s.needs.includes('mutation') && s.formOf === undefined);

  async function runAgainstProduction(allow: boolean, grep?: string) {
    const server = await startReferenceServer({ mode: 'production' });
    const writes: string[] = [];
    const proxy = await startLoopbackProxy(server.authUrl, (x) => {
      const path = x.url.split('?')[0] ?? '';
      // The token request token.root sends to {base_url}/oauth/token (expecting 404) changes no state (guard.ts).
      const tokenRequest = x.method === 'POST' && path === '/api/v1/oauth/token';
      if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(x.method) && path.startsWith('/api/v1/') && !tokenRequest) writes.push(`${x.method} ${path}`);
    });
    const file = join(dir, 'production-reference.yaml');
    writeFileSync(file, `name: reference in production mode
base_url: ${proxy.url}/api/v1
auth_url: ${proxy.url}
environment: production
allow_mutations: true
capabilities: [mutation]
credentials:
  primary: { kind: client_credentials, client_id: cc-alice, client_secret_env: GUARD_PRIMARY }
  second: { kind: client_credentials, client_id: cc-bob, client_secret_env: GUARD_SECOND }
  readonly: { kind: client_credentials, client_id: cc-carol-readonly, client_secret_env: GUARD_READONLY }
entities: { allowed: [ENT-ALPHA, ENT-BETA], forbidden: ENT-GAMMA }
indications: { primary: FTF-FIX-1M, fractional_minimum: FTF-FIX-FRAC, enforced_maximum: FTF-FIX-1M, unenforced_maximum: FTF-FIX-FRAC, extendable: FTF-EXT-6M }
timeouts: { request_ms: 5000, scenario_ms: 30000, poll_deadline_ms: 5000 }
`);
    const grant = issueMutationGrant();
    try {
      const run = await runCatalogue({
        timeoutMs: 240_000,
        args: grep ? ['--grep', grep] : [],
        env: {
          FTF_TARGET: file,
          // Standing in for the CLI's --allow-mutations: this test process issues the grant (mutation-grant.ts).
          ...(allow ? runSettingsEnv({ grant: grant.value }) : { [RUN_ENV]: undefined }),
          GUARD_PRIMARY: server.secrets.clients['cc-alice'],
          GUARD_SECOND: server.secrets.clients['cc-bob'],
          GUARD_READONLY: server.secrets.clients['cc-carol-readonly'],
        },
      });
      rmSync(run.dir, { recursive: true, force: true });
      return { run, writes };
    } finally {
      grant.revoke();
      await proxy.close();
      await server.close();
    }
  }

  it('without --allow-mutations: every mutating scenario is skipped with the reason, and no write reaches the target', { timeout: 300_000 }, async () => {
    assert.ok(mutating.length > 0, 'the catalogue has scenarios needing mutation');
    const { run, writes } = await runAgainstProduction(false);
    assert.equal(run.killed, false);
    assert.ok(run.results, 'results.json written');
    assert.deepEqual(writes, [], `writes reached the production target: ${writes.join(', ')}`);
    const byId = new Map(flattenTests(run.results).map((t) => [t.annotations.find((a) => a.type === 'scenario')?.description, t]));
    for (const s of mutating) {
      const t = byId.get(s.id);
      assert.ok(t, `scenario ${s.id} is in the report`);
      assert.equal(t.status, 'skipped', `${s.id} needs mutation and must be skipped`);
      assert.ok(t.annotations.some((a) => a.type === 'skip' && a.description === PRODUCTION_MUTATION_SKIP_REASON), `${s.id}: skip reason ${JSON.stringify(t.annotations)}`);
    }
  });

  it('with both opt-ins the same mutating scenario does write (the count above can fail)', { timeout: 300_000 }, async () => {
    const first = mutating.find((s) => !s.needs.some((n) => n === 'clock' || n === 'funding' || n === 'consent'));
    assert.ok(first, 'a mutating scenario runnable in production mode');
    const { run, writes } = await runAgainstProduction(true, `${first.id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:`);
    assert.ok(run.results && flattenTests(run.results).length === 1, 'exactly the chosen scenario ran');
    assert.ok(writes.length > 0, `no write arrived with both opt-ins (scenario ${first.id})`);
  });
});

/**
 * Secret hygiene end to end. The reference server generates fresh secrets at start (client secrets, API
 * keys): those are the planted canaries. A loopback proxy in front of it captures, in memory and in a
 * private 0600 file, every value produced DURING the run (access and refresh tokens from token responses,
 * authorization codes from redirects, code verifiers from token requests): the reference keeps only hashes.
 * The whole catalogue (code grant and refresh rotation included) runs against the proxy with its own
 * reports/ and test-results/ folders; then every file there and the captured console output is searched
 * for every canary in every spelling the harness could write (raw, URL-encoded, JSON-escaped, the Basic
 * base64 of client_id:secret). A hit names the canary kind and the file, never the value.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, test } from 'node:test';
import { startReferenceServer } from '../../src/reference/server.js';
import { runCatalogue } from '../../src/selftest/catalogue-run.js';
import { REPO_ROOT } from '../../src/harness/repo-root.js';
import { startLoopbackProxy, type RawExchange } from '../hostile/proxy.js';

const dir = mkdtempSync(join(tmpdir(), 'ftf-secrets-'));
after(() => rmSync(dir, { recursive: true, force: true }));

interface Canary {
  kind: string;
  value: string;
}

/** Values produced during the run, read from the raw traffic (never printed). */
function captured(x: RawExchange): Canary[] {
  const out: Canary[] = [];
  const path = x.url.split('?')[0];
  if (path === '/oauth/token') {
    const form = new URLSearchParams(x.requestBody);
    for (const [field, kind] of [['code', 'authorization code'], ['code_verifier', 'code verifier'], ['refresh_token', 'refresh token (sent)']] as const) {
      const v = form.get(field);
      if (v) out.push({ kind, value: v });
    }
    try {
      const body = JSON.parse(x.responseBody) as Record<string, unknown>;
      if (typeof body.access_token === 'string') out.push({ kind: 'access token', value: body.access_token });
      if (typeof body.refresh_token === 'string') out.push({ kind: 'refresh token', value: body.refresh_token });
    } catch {
      // an error answer: nothing issued
    }
  }
  const location = x.responseHeaders.location;
  if (typeof location === 'string' && location.includes('code=')) {
    const code = new URL(location, 'https://x.test').searchParams.get('code');
    if (code) out.push({ kind: 'authorization code', value: code });
  }
  return out;
}

/** Every spelling a leak could take in a report (see src/harness/http/redactor.ts addSpellings). */
function spellings(value: string): string[] {
  return [...new Set([value, encodeURIComponent(value), new URLSearchParams({ v: value }).toString().slice(2), JSON.stringify(value).slice(1, -1)])];
}

function filesUnder(root: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(p);
    }
  };
  walk(root);
  return out;
}

test('no canary secret (configured or obtained during the run) appears in reports, test-results or console output', { timeout: 400_000 }, async () => {
  const server = await startReferenceServer();
  const obtained: Canary[] = [];
  let rawTraffic = ''; // in memory only: the positive control of the search below
  const privateLog = join(dir, 'captured-secrets.jsonl');
  writeFileSync(privateLog, '', { mode: 0o600 });
  const proxy = await startLoopbackProxy(server.authUrl, (x) => {
    const found = captured(x);
    if (x.url.startsWith('/oauth/')) rawTraffic += `${x.requestBody}\n${x.responseBody}\n`;
    obtained.push(...found);
    if (found.length) writeFileSync(privateLog, found.map((c) => `${JSON.stringify(c)}\n`).join(''), { flag: 'a', mode: 0o600 });
  });
  const { clients, apiKeys } = server.secrets;
  const env = {
    FTF_TARGET: join(REPO_ROOT, 'fixtures/targets/reference.yaml'),
    FTF_BASE_URL: `${proxy.url}/api/v1`,
    FTF_AUTH_URL: proxy.url,
    FTF_CONTROL_URL: `${proxy.url}/_sandbox`,
    FTF_PRIMARY_CLIENT_SECRET: clients['cc-alice'],
    FTF_SECOND_CLIENT_SECRET: clients['cc-bob'],
    FTF_READONLY_CLIENT_SECRET: clients['cc-carol-readonly'],
    FTF_CODE_CLIENT_SECRET: clients['code-app'],
    FTF_API_KEY: apiKeys['alice@ftf.test'],
  };
  let run;
  try {
    run = await runCatalogue({ dir: join(dir, 'run'), timeoutMs: 360_000, env });
  } finally {
    await proxy.close();
    await server.close();
  }
  assert.equal(run.killed, false, 'the run ended within its bound');
  assert.ok(run.results, 'results.json written');

  const planted: Canary[] = [
    ...Object.entries(clients).map(([id, value]) => ({ kind: `client secret of ${id}`, value })),
    ...Object.entries(clients).map(([id, value]) => ({ kind: `Basic credentials of ${id}`, value: Buffer.from(`${id}:${value}`).toString('base64') })),
    ...Object.entries(apiKeys).map(([user, value]) => ({ kind: `API key of ${user}`, value })),
  ];
  const kinds = new Set(obtained.map((c) => c.kind));
  for (const k of ['access token', 'refresh token', 'code verifier', 'authorization code']) {
    assert.ok(kinds.has(k), `the run produced no ${k}: the catalogue must exercise the code grant and refresh (got: ${[...kinds].join(', ')})`);
  }

  const canaries = [...planted, ...obtained].filter((c) => c.value.length >= 6);
  const haystacks: Array<{ where: string; text: string }> = [
    { where: 'console (stdout)', text: run.stdout },
    { where: 'console (stderr)', text: run.stderr },
    ...filesUnder(run.dir).map((f) => ({ where: relative(run.dir, f), text: readFileSync(f).toString('latin1') })),
  ];
  const search = (places: Array<{ where: string; text: string }>): string[] => {
    const hits: string[] = [];
    for (const c of canaries) {
      const forms = spellings(c.value);
      for (const h of places) if (forms.some((f) => h.text.includes(f))) hits.push(`${c.kind} found in ${h.where}`);
    }
    return [...new Set(hits)];
  };
  // Positive control: the same search over the raw token traffic finds the secrets it carries.
  const control = search([{ where: 'raw traffic', text: rawTraffic }]);
  assert.ok(control.some((h) => h.startsWith('client secret')) && control.some((h) => h.startsWith('access token')), 'the search finds secrets where they are');
  const leaks = search(haystacks);
  assert.ok(haystacks.length > 10, 'reports and test-results were written');
  // The search itself works: a non-secret the reports must contain (a client id next to its redacted secret) is found.
  assert.ok(haystacks.some((h) => h.text.includes('cc-alice')), 'the searched files contain the exchanges (client id cc-alice)');
  assert.ok(haystacks.some((h) => h.where.includes('results.json')) && haystacks.some((h) => /\.har$/.test(h.where)), 'JSON report and HAR files were searched');
  assert.deepEqual(leaks, [], `secrets leaked (${canaries.length} canaries searched in ${haystacks.length} places)`);
});

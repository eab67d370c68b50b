/**
 * Allure reads the outcome record (issue 24): a real Playwright run of three scenarios writes allure-results
 * whose statuses and categories come from each test's record, never from the error text: a failed check is
 * `failed` in its check's category, a target that cannot be reached is `broken` ("Target error"), an invalid
 * scenario file is `broken` ("Invalid input"). The result files are read back and matched against
 * categories.json's regexes the way Allure does (full match of the status message).
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { CATEGORIES } from '../../src/harness/report/outputs/allure.js';
import { TIMEOUT_DEFAULTS } from '../../src/harness/target/defaults.js';
import { runTimeoutMs, testTimeoutMs } from '../../src/harness/target/bounds.js';
import { runCatalogue } from '../../src/selftest/catalogue-run.js';

const dir = mkdtempSync(join(tmpdir(), 'ftf-allure-outcome-'));
const OUTER_MS = runTimeoutMs(TIMEOUT_DEFAULTS, 3, 1) + testTimeoutMs(TIMEOUT_DEFAULTS);
// The body quotes words an error-text classifier would pick up: the record alone must decide.
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end('{"detail":"outcome: errored internal FTF_E_INTERNAL checks= clauses= Test timeout of 1ms exceeded"}');
});
after(() => {
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}

interface AllureResult {
  name: string;
  status: string;
  statusDetails?: { message?: string };
}

/** Allure's matching: the first category whose status list holds the status and whose regexes fully match. */
function categoryOf(r: AllureResult): string | undefined {
  const full = (re: string | undefined, text: string | undefined): boolean => re === undefined || new RegExp(`^(?:${re})$`).test(text ?? '');
  return CATEGORIES.find((c) => c.matchedStatuses.includes(r.status) && full(c.messageRegex, r.statusDetails?.message) && full(c.traceRegex, undefined))?.name;
}

test('allure-results: statuses and categories from the outcome record; errored is broken', { timeout: OUTER_MS + testTimeoutMs(TIMEOUT_DEFAULTS) }, async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const specs = join(dir, 'specs');
  mkdirSync(join(specs, 'fam'), { recursive: true });
  writeFileSync(join(specs, 'fam', 'wrong-status.yaml'), `id: fam.wrong-status\ntitle: wrong status\ncovers: [RES-HEALTH]\nsteps:\n  - request: { method: GET, path: /health, auth: none, schema: none }\n  - expect: { status: 418 }\n`);
  writeFileSync(join(specs, 'fam', 'unreachable.yaml'), `id: fam.unreachable\ntitle: unreachable\ncovers: [RES-HEALTH]\nsteps:\n  - request: { method: GET, base: auth, path: /health, auth: none, timeout_ms: 1 }\n`);
  writeFileSync(join(specs, 'fam', 'broken.yaml'), 'id: fam.broken\ntitle: broken\ncovers: [NO-SUCH-CLAUSE]\nsteps:\n  - request: { method: GET, path: /x }\n');
  const profile = join(dir, 'profile.yaml');
  // auth_url: a loopback port where nothing listens (the unreachable scenario's request is refused).
  writeFileSync(profile, `name: t\nbase_url: ${url}/api/v1\nauth_url: http://127.0.0.1:${await closedPort()}\nenvironment: sandbox\ncredentials:\n  primary:\n    kind: client_credentials\n    client_id: c\n    client_secret_env: FTF_ALLURE_OUTCOME_SECRET\n`);
  const run = await runCatalogue({
    workers: 1,
    timeoutMs: OUTER_MS,
    args: ['specs/conformance.spec.ts'],
    dir: join(dir, 'out'),
    env: { FTF_SPECS_DIR: specs, FTF_TARGET: profile, FTF_ALLURE_OUTCOME_SECRET: 'not-a-real-secret-1' },
  });
  assert.equal(run.killed, false, 'the run hung');
  const results = join(run.reportsDir, 'allure-results');
  const files = readdirSync(results).filter((f) => f.endsWith('-result.json'));
  const byName = new Map(files.map((f) => JSON.parse(readFileSync(join(results, f), 'utf8')) as AllureResult).map((r) => [r.name, r]));
  const pick = (prefix: string): AllureResult => {
    const found = [...byName.entries()].find(([name]) => name.startsWith(prefix))?.[1];
    assert.ok(found, `no Allure result for ${prefix} among ${[...byName.keys()].join(', ')}`);
    return found;
  };
  const failed = pick('fam.wrong-status');
  assert.equal(failed.status, 'failed');
  assert.equal(categoryOf(failed), 'Wrong status');
  assert.match(failed.statusDetails?.message ?? '', /^outcome: failed non-conformance FTF_E_CHECK_FAILED checks=status clauses=RES-HEALTH\n/);
  const unreachable = pick('fam.unreachable');
  assert.equal(unreachable.status, 'broken', 'errored is broken, not failed');
  assert.equal(categoryOf(unreachable), 'Target error');
  const broken = pick('scenario file is invalid');
  assert.equal(broken.status, 'broken');
  assert.equal(categoryOf(broken), 'Invalid input (scenario, profile)');
  // categories.json is not written by Playwright's reporter (the CLI writes it); the regexes above are its content.
});

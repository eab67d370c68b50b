/**
 * Unit tests of the hostile-run judge (test/hostile/verdict.ts) on hand-made runs, the stub's modes on the
 * wire, and the readability of a consent failure (it names method + URL like every exchange failure).
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runConsent } from '../../src/harness/auth/consent.js';
import { Redactor } from '../../src/harness/http/redactor.js';
import { createUndiciTransport } from '../../src/harness/http/undici-transport.js';
import { FtfError } from '../../src/shared/errors.js';
import type { CatalogueRun, PlaywrightJson, PwResult } from '../../src/selftest/catalogue-run.js';
import { HUGE_BODY_BYTES, startHostileStub } from './stub.js';
import { judgeHostileRun, READABLE } from './verdict.js';

const dir = mkdtempSync(join(tmpdir(), 'ftf-verdict-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function fakeRun(tests: Array<{ title: string; status: string; result?: string; duration?: number; message?: string }>, opts: Partial<CatalogueRun> = {}): CatalogueRun {
  const reportsDir = join(dir, `r${Math.random().toString(36).slice(2)}`);
  mkdirSync(reportsDir);
  writeFileSync(join(reportsDir, 'outcomes.json'), '{"outcomes":[]}');
  const result = (t: (typeof tests)[number]): PwResult => ({
    status: t.result ?? (t.status === 'skipped' ? 'skipped' : 'failed'),
    duration: t.duration ?? 100, workerIndex: 0, parallelIndex: 0, startTime: '',
    errors: t.message ? [{ message: t.message }] : [],
  });
  const results: PlaywrightJson = {
    stats: { duration: 1, expected: 0, unexpected: 0, skipped: 0, flaky: 0, startTime: '' },
    errors: [],
    suites: [{ title: 'f', specs: tests.map((t) => ({ title: t.title, tests: [{ status: t.status, annotations: [], results: [result(t)] }] })) }],
  };
  return { exitCode: 1, killed: false, wallMs: 10, stdout: '', stderr: '', dir, reportsDir, outputDir: dir, results, ...opts };
}
const bounds = { limitMs: 15_000, outerMs: 60_000 };

describe('judging a hostile run', () => {
  it('accepts readable failures and capability skips', () => {
    const s = judgeHostileRun(fakeRun([
      { title: 'a', status: 'unexpected', message: 'StepError: GET http://127.0.0.1:1/api/v1/x failed (bound 1000 ms)' },
      { title: 'b', status: 'unexpected', message: 'FTF_E_SCENARIO_INVALID: bad file' },
      { title: 'c', status: 'unexpected', message: 'CheckFailure: [fail_if] the stream is empty\n\n   at paging/traversal.yaml:25' },
      { title: 'd', status: 'skipped' },
    ]), bounds);
    assert.deepEqual(s.problems, []);
    assert.equal(s.failed, 3);
    assert.equal(s.skipped, 1);
  });

  it('names a pass, an unreadable message, a scenario timeout, an overrun, a hang, exit 0 and an unhandled rejection', () => {
    const s = judgeHostileRun(fakeRun([
      { title: 'passes', status: 'expected', result: 'passed' },
      { title: 'raw', status: 'unexpected', message: 'TypeError: x is undefined\n    at foo (/src/a.ts:1:1)' },
      { title: 'slow', status: 'unexpected', result: 'timedOut', duration: 15_001, message: 'Test timeout of 15000ms exceeded.' },
    ], { exitCode: 0, killed: true, stderr: 'Error: Unhandled promise rejection' }), bounds);
    const text = s.problems.join('\n');
    for (const p of [/PASSED against garbage.*passes/, /unreadable failure.*raw/, /hit the scenario timeout.*slow/, /over the 15000 ms per-scenario limit \(scenario_ms \+ grace\): slow/, /killed \(a hang\)/, /exited 0/, /unhandled error/]) assert.match(text, p);
  });

  it('a run without reports is a problem', () => {
    const s = judgeHostileRun({ ...fakeRun([]), results: undefined, reportsDir: join(dir, 'none') }, bounds);
    assert.match(s.problems.join('\n'), /outcomes\.json was not written[\s\S]*results\.json was not written/);
  });

  it('READABLE rejects a bare stack and a URL without a method', () => {
    assert.equal(READABLE.test('Error: boom\n    at x (/a.ts:1:1)'), false);
    assert.equal(READABLE.test('failed at http://127.0.0.1/x'), false);
  });
});

describe('the hostile stub on the wire', () => {
  const transport = createUndiciTransport();
  after(() => transport.dispose?.());
  const get = (url: string) => transport.send({ method: 'GET', url, headers: {}, timeoutMs: 600 });

  it('html-502, paging-loop and expires-in-0 answer what their names say', async () => {
    const html = await startHostileStub('html-502');
    const loop = await startHostileStub('paging-loop');
    const exp = await startHostileStub('expires-in-0');
    try {
      const r = await get(`${html.url}/api/v1/health`);
      assert.equal(r.status, 502);
      assert.match(r.bodyText, /<html>/);
      const p1 = await get(`${loop.url}/api/v1/event?limit=3`);
      const p2 = await get(`${loop.url}/api/v1/event?start_cursor=loop`);
      type Page = { pageInfo: { pageEndCursor: string; hasNextPage: boolean } };
      for (const p of [p1, p2]) assert.deepEqual([(p.json as Page).pageInfo.hasNextPage, (p.json as Page).pageInfo.pageEndCursor], [true, 'loop']);
      const tok = await transport.send({ method: 'POST', url: `${exp.url}/oauth/token`, headers: {}, body: 'grant_type=client_credentials', timeoutMs: 600 });
      assert.equal((tok.json as { expires_in: number }).expires_in, 0);
    } finally {
      await Promise.all([html.close(), loop.close(), exp.close()]);
    }
  });

  it('hanging, dripping, resetting and huge answers end in typed transport errors within the bound', async () => {
    for (const [mode, code] of [['hang-after-headers', 'FTF_E_TARGET_TIMEOUT'], ['never-answers', 'FTF_E_TARGET_TIMEOUT'], ['slow-drip', 'FTF_E_TARGET_TIMEOUT'], ['reset', 'FTF_E_TARGET_RESET'], ['huge-body', 'FTF_E_TARGET_BODY_TOO_LARGE']] as const) {
      const stub = await startHostileStub(mode, { dripIntervalMs: 50 });
      const t0 = Date.now();
      try {
        await assert.rejects(get(`${stub.url}/api/v1/event`), (e: unknown) => e instanceof FtfError && e.code === code, mode);
        assert.ok(Date.now() - t0 < 5_000, `${mode} ended within the bound`);
      } finally {
        await stub.close();
      }
    }
    assert.ok(HUGE_BODY_BYTES > 5 * 1024 * 1024, 'the huge body is over the 5 MiB transport cap');
  });

  it('a consent failure names the method and URL', async () => {
    const stub = await startHostileStub('html-502');
    try {
      await assert.rejects(
        runConsent({
          transport, redactor: new Redactor(), authUrl: stub.url, timeoutMs: 600,
          cred: { name: 'code', kind: 'authorization_code', clientId: 'c', secret: 's-secret-1', redirectUri: 'https://a.test/cb', consent: { strategy: 'auto-approve-url', authorizePath: '/oauth/authorize', params: {} } },
        }),
        (e: unknown) => e instanceof FtfError && READABLE.test(e.message) && e.message.includes(`GET ${stub.url}/oauth/authorize`) && !e.message.includes('code_challenge'),
      );
    } finally {
      await stub.close();
    }
  });
});

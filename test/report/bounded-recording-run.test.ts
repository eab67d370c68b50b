/**
 * Bounded recording on the real path (issue 15): a walk of ~30 pages of 1000 events through Playwright (the
 * fixture's transport, every reporter) against the reference server, where a loopback proxy breaks one page in
 * the middle (an eventType outside the enum: the schema check fails on a 200 page). The recording past the
 * head bound keeps only failing, sampled and last exchanges plus a summary, and the broken page, the last
 * one the walk fetched, must still be in the HAR, in the Playwright attachments and in the Allure results.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { REPO_ROOT } from '../../src/harness/repo-root.js';
import { bindEmbedded } from '../../src/harness/target/binding.js';
import { readProfile } from '../../src/harness/target/profile.js';
import type { RecordingSummary } from '../../src/harness/http/types.js';
import { startReferenceServer, type RunningReference } from '../../src/reference/server.js';
import { runCatalogue, type PwSuite } from '../../src/selftest/catalogue-run.js';
import { startLoopbackProxy, type LoopbackProxy } from '../hostile/proxy.js';

const BROKEN_PAGE = 20;
const MARKER = 'BROKEN_PAGE_MARKER';
const dir = mkdtempSync(join(tmpdir(), 'ftf-bounded-run-'));
let server: RunningReference;
let proxy: LoopbackProxy;
let eventPages = 0;

before(async () => {
  server = await startReferenceServer({ port: 0 }, { prepare: ({ domain }) => void domain.appendSynthetic(30_000, ['ENT-ALPHA', 'ENT-BETA']) });
  proxy = await startLoopbackProxy(new URL(server.baseUrl).origin, (x) => {
    if (x.method !== 'GET' || !x.url.startsWith('/api/v1/event?')) return undefined;
    eventPages++;
    return eventPages === BROKEN_PAGE ? x.responseBody.replace('"eventType":"', `"eventType":"${MARKER}_`) : undefined;
  });
});
after(async () => {
  await proxy?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const SCENARIO = `id: walk.broken-page
title: page the whole stream with limit 1000, every event schema-checked
covers: [EP-EVENT-PAGING]
steps:
  - paginate:
      request: { method: GET, path: /event, query: { limit: 1000 } }
      cursor: /pageInfo/pageEndCursor
      items: /events
      until: page.body.pageInfo.hasNextPage == false
      max_pages: 2000
`;

type Attachment = { name: string; body?: string };
function attachmentsOf(suites: PwSuite[]): Attachment[] {
  const out: Attachment[] = [];
  const walk = (s: PwSuite): void => {
    for (const spec of s.specs ?? []) for (const t of spec.tests) for (const r of t.results) out.push(...((r as { attachments?: Attachment[] }).attachments ?? []));
    for (const child of s.suites ?? []) walk(child);
  };
  for (const s of suites) walk(s);
  return out;
}

test('a page broken in the middle of a long walk is in the HAR, the attachments and the Allure results; the rest is a summary', { timeout: 240_000 }, async () => {
  const specs = join(dir, 'specs');
  mkdirSync(specs, { recursive: true });
  writeFileSync(join(specs, 'walk.yaml'), SCENARIO);
  // The reference profile with the proxy's base URL (FTF_BASE_URL wins over the profile's `embedded`).
  const profile = join(REPO_ROOT, 'fixtures/targets/reference.yaml');
  const run = await runCatalogue({
    dir: join(dir, 'run'),
    workers: 1,
    timeoutMs: 200_000,
    args: ['specs/conformance.spec.ts', '--grep', 'walk\\.broken-page'],
    env: {
      // The server's URLs and secrets under the profile's names, as the embedded launcher binds them.
      ...bindEmbedded(readProfile(profile), server).env,
      FTF_TARGET: profile,
      FTF_SPECS_DIR: specs,
      FTF_BASE_URL: `${proxy.url}/api/v1`,
      FTF_WORKERS: undefined,
    },
  });
  assert.equal(run.killed, false);
  assert.equal(eventPages, BROKEN_PAGE, `the walk stopped at the broken page:\n${run.stdout.slice(-3000)}\n${run.stderr.slice(-2000)}`);
  assert.equal(run.results?.stats.unexpected, 1, `the walk failed:\n${run.stdout.slice(-2000)}\n${run.stderr.slice(-2000)}`);

  const harDir = join(run.reportsDir, 'har');
  const hars = readdirSync(harDir);
  assert.equal(hars.length, 1);
  const log = (JSON.parse(readFileSync(join(harDir, hars[0] ?? ''), 'utf8')) as { log: { entries: Array<{ request: { url: string }; response: { content: { text: string } } }>; _recordingSummary: RecordingSummary } }).log;
  const pagesInHar = log.entries.filter((e) => e.request.url.includes('/event?'));
  assert.ok(pagesInHar.some((e) => e.response.content.text.includes(MARKER)), 'the broken page is in the HAR');
  assert.ok(pagesInHar.length < BROKEN_PAGE, `not every page is in the HAR (${pagesInHar.length})`);
  assert.equal(log._recordingSummary.exchanges, BROKEN_PAGE + 1, 'the token request and every page are counted');
  assert.equal(log._recordingSummary.exchanges - log._recordingSummary.omitted, log.entries.length);

  const attachments = attachmentsOf(run.results?.suites ?? []);
  const bodies = attachments.filter((a) => a.name.endsWith('.json')).map((a) => Buffer.from(a.body ?? '', 'base64').toString('utf8'));
  assert.ok(bodies.some((b) => b.includes(MARKER)), 'the broken page is attached');
  assert.ok(attachments.some((a) => a.name === 'recording summary.json'), 'the summary is attached');
  assert.ok(attachments.filter((a) => a.name.endsWith('.json')).length <= log.entries.length + 1, 'attachments: the written exchanges and the summary only');

  const allure = join(run.reportsDir, 'allure-results');
  const allureFiles = readdirSync(allure).filter((f) => f.includes('-attachment'));
  assert.ok(allureFiles.some((f) => readFileSync(join(allure, f), 'utf8').includes(MARKER)), 'the broken page is in the Allure results');
});

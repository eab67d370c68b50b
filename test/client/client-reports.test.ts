/**
 * The reports of a client grading, read back from disk: Allure results (one per CL-* clause, status from the
 * verdict, not judged = skipped with the reason, each breach a step with its evidence attached, the shared
 * categories), JUnit (one testcase per clause) and the HAR (one entry per exchange). Whatever secret an
 * exchange still held goes through the plan's redactor before it reaches any file. `report` (the Allure CLI)
 * builds the HTML from those results like the server side's.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { clientOutcomeLine } from '../../src/harness/client/allure.js';
import { loadClientClauses } from '../../src/harness/client/clauses.js';
import { gradeClient } from '../../src/harness/client/grade.js';
import { loadPlan } from '../../src/harness/client/plan.js';
import { CLIENT_REPORT_FILES, writeClientReports } from '../../src/harness/client/reports.js';
import type { ClientExchange } from '../../src/harness/client/types.js';
import { Redactor } from '../../src/harness/http/redactor.js';
import { buildAllureReport } from '../../src/harness/report/outputs/allure-report.js';
import { CATEGORIES } from '../../src/harness/report/outputs/allure.js';

const dir = mkdtempSync(join(tmpdir(), 'ftf-client-reports-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const CANARY = 'canary-Secret-0123456789abcdefXYZ';
const KEY_A = '6a88f1c2-b267-4a92-ab7d-503e4fb7c99d';
const KEY_B = '3ec6056c-8ad7-4374-ae6c-2efb42c35ed7';
let seq = 0;
function ex(atMs: number, method: string, path: string, over: Partial<ClientExchange> = {}): ClientExchange {
  return { seq: ++seq, atMs, environment: 'sandbox', credential: 'cc-alice', method, path, query: {}, headers: { authorization: 'Bearer [REDACTED:ACCESS_TOKEN_1]' }, status: 200, responseHeaders: {}, dropped: false, challenge: null, ...over };
}
const body = { indicationUid: 'u1', entityCode: 'ENT-ALPHA', amount: '5000000' };
// A lost answer retried with a new key (CL-IDEM-RETRY-SAME-KEY, must: failed), a 403 sent again unchanged
// (CL-NO-RETRY-403, should: warned); the retry carries a header holding a secret nothing labelled yet.
const exchanges = [
  ex(0, 'POST', '/api/v1/subscribe', { headers: { authorization: 'Bearer [REDACTED:ACCESS_TOKEN_1]', 'idempotency-key': KEY_A }, body, dropped: true, challenge: 'subscribe-response-lost' }),
  ex(400, 'POST', '/api/v1/subscribe', { headers: { authorization: 'Bearer [REDACTED:ACCESS_TOKEN_1]', 'idempotency-key': KEY_B, 'x-debug': CANARY }, body, responseBody: { uid: 's1' } }),
  ex(800, 'GET', '/api/v1/entity/ENT-GAMMA', { status: 403 }),
  ex(900, 'GET', '/api/v1/entity/ENT-GAMMA', { status: 403 }),
];
const plan = loadPlan('full');
const verdicts = gradeClient(exchanges, plan, loadClientClauses());
const redactor = new Redactor();
redactor.addSecret(CANARY, 'CANARY');

interface Result {
  name: string;
  status: string;
  statusDetails: { message?: string };
  labels: Array<{ name: string; value: string }>;
  steps: Array<{ name: string; status: string; attachments: Array<{ name: string; source: string; type: string }> }>;
}

test('client reports: Allure results per CL-* clause, JUnit per clause, HAR per exchange, nothing unredacted', async () => {
  const files = await writeClientReports(dir, verdicts, exchanges, { clientName: 'hand-made client', redact: (t) => redactor.redactText(t) });
  const allure = join(dir, CLIENT_REPORT_FILES.allure);
  const results = readdirSync(allure).filter((f) => f.endsWith('-result.json')).map((f) => JSON.parse(readFileSync(join(allure, f), 'utf8')) as Result);
  const clauses = loadClientClauses();
  assert.equal(results.length, clauses.length, 'one result per CL-* clause');
  const byClause = new Map(results.map((r) => [r.labels.find((l) => l.name === 'clause')?.value, r]));
  for (const c of clauses) assert.ok(byClause.has(c.id), c.id);

  // Status from the verdict, for every clause.
  const statusOf = { passed: 'passed', warned: 'passed', failed: 'failed', 'not-judged': 'skipped' } as const;
  for (const v of verdicts.clauses) assert.equal(byClause.get(v.clause)?.status, statusOf[v.status], v.clause);
  const failed = byClause.get('CL-IDEM-RETRY-SAME-KEY');
  assert.equal(failed?.status, 'failed');
  assert.equal(verdicts.clauses.find((v) => v.clause === 'CL-NO-RETRY-403')?.status, 'warned');
  assert.match(byClause.get('CL-NO-RETRY-403')?.statusDetails.message ?? '', /^outcome: passed client [^\n]*\nwarnings: \[CL-NO-RETRY-403\] GET \/api\/v1\/entity\/ENT-GAMMA was refused with 403/);

  // Not judged: skipped, never passed, with the reason.
  const notJudged = byClause.get('CL-POLL-STOP');
  assert.equal(notJudged?.status, 'skipped');
  assert.match(notJudged?.statusDetails.message ?? '', /\nnot judged: no occasion: no subscription of the client reached Issued or Cancelled/);

  // The failure: its outcome line, the shared category of its area, one step per breach with its evidence.
  const message = failed?.statusDetails.message ?? '';
  assert.equal(message.split('\n')[0], clientOutcomeLine(verdicts.clauses.find((v) => v.clause === 'CL-IDEM-RETRY-SAME-KEY')!));
  assert.match(message, /retry t\+0\.400s used key 3ec6056c[^\n]* after key 6a88f1c2[^\n]*was processed and its response lost/);
  const category = CATEGORIES.find((c) => c.matchedStatuses.includes('failed') && (!c.messageRegex || new RegExp(`^(?:${c.messageRegex})$`).test(message)));
  assert.equal(category?.name, 'Client duty broken: subscribing (keys, retries, amounts)');
  assert.equal(failed?.labels.find((l) => l.name === 'severity')?.value, 'critical');
  assert.equal(failed?.steps.length, 1);
  const step = failed!.steps[0]!;
  assert.equal(step.status, 'failed');
  assert.deepEqual(step.attachments.map((a) => a.type), ['text/plain', 'application/json']);
  for (const a of step.attachments) assert.ok(existsSync(join(allure, a.source)), a.source);
  const evidence = JSON.parse(readFileSync(join(allure, step.attachments[1]!.source), 'utf8')) as ClientExchange[];
  assert.deepEqual(evidence.map((e) => e.seq), [1, 2]);
  assert.equal(evidence[1]?.headers['x-debug'], '[REDACTED:CANARY]', 'the evidence went through the redactor');
  assert.match(readFileSync(join(allure, step.attachments[0]!.source), 'utf8'), /#1 t\+0\.000s POST \/api\/v1\/subscribe Idempotency-Key=6a88f1c2[^\n]*-> processed, connection dropped/);
  assert.ok(existsSync(join(allure, 'categories.json')) && existsSync(join(allure, 'environment.properties')));
  assert.match(readFileSync(join(allure, 'environment.properties'), 'utf8'), /^Target=client\\: hand-made client$/m);

  // JUnit: one testcase per clause; the failure, the not-judged as skipped with the reason.
  const junit = readFileSync(join(dir, CLIENT_REPORT_FILES.junit), 'utf8');
  assert.equal(junit.match(/<testcase /g)?.length, clauses.length);
  assert.match(junit, /<testcase classname="client\.full" name="CL-IDEM-RETRY-SAME-KEY \(must\)">\s*<failure message="retry t\+0\.400s used key/);
  assert.match(junit, /name="CL-POLL-STOP \(must\)">\s*<skipped message="not judged: no occasion/);
  assert.match(junit, /failures="1" skipped="\d+"/);

  // HAR: every exchange, the dropped one as an error.
  const har = JSON.parse(readFileSync(join(dir, CLIENT_REPORT_FILES.har), 'utf8')) as { log: { entries: Array<{ request: { method: string; url: string } }> } };
  assert.equal(har.log.entries.length, exchanges.length);
  assert.match(har.log.entries[0]?.request.url ?? '', /\/api\/v1\/subscribe$/);

  // Whatever the files are, none holds the secret; the Allure ones hold its label instead.
  for (const f of files) assert.ok(!readFileSync(f, 'utf8').includes(CANARY), f);
  assert.ok(files.some((f) => f.startsWith(allure) && readFileSync(f, 'utf8').includes('[REDACTED:CANARY]')));
});

test('client reports: the Allure HTML built by `report` shows the client verdicts and the failure under its category', { timeout: 120_000 }, () => {
  const results = join(dir, CLIENT_REPORT_FILES.allure);
  assert.ok(existsSync(results), 'the first test wrote the results');
  const built = buildAllureReport({ resultsDir: results, outDir: join(dir, 'allure-report'), historyDir: join(dir, 'history'), singleFile: false });
  const summary = JSON.parse(readFileSync(join(built.outDir, 'summary.json'), 'utf8')) as { stats: Record<string, number> };
  const count = (s: string) => verdicts.clauses.filter((v) => v.status === s).length;
  assert.equal(summary.stats.total, loadClientClauses().length);
  assert.equal(summary.stats.failed, count('failed'));
  assert.equal(summary.stats.skipped, count('not-judged'));
  assert.match(readFileSync(join(built.outDir, 'widgets', 'categories.json'), 'utf8'), /"name": ?"Client duty broken: subscribing \(keys, retries, amounts\)"/);
  assert.match(built.historyFile, /client-hand-made-client-[0-9a-f]{8}\.jsonl$/, 'one trend per client and plan');
});

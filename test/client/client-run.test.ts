/**
 * Client conformance end to end: `client run --plan full -- node examples/client/main.js` through the CLI,
 * the example client keeping every duty. Every clause the plan can judge is judged and passed; the report
 * files hold no secret (the CLI's leak scan would fail the run otherwise).
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { cli, scratch } from '../cli/helpers.js';

test('client run --plan full --certify: the example client is conformant, every judgeable clause judged and passed; verify checks the certificate', async () => {
  const out = scratch('client-run-');
  const keyFile = join(out, 'key.pem');
  writeFileSync(keyFile, generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }));
  const r = await cli('client', 'run', '--plan', 'full', '--out', out, '--certify', '--key', keyFile, '--client-name', 'example', '--', process.execPath, 'examples/client/main.js');
  assert.equal(r.code, 0, `${r.out}\n${r.err}`);
  const v = JSON.parse(readFileSync(join(out, 'verdicts.json'), 'utf8')) as { overall: string; clauses: Array<{ clause: string; status: string }>; notJudgeable: Array<{ clause: string }> };
  assert.equal(v.overall, 'conformant');
  const excused = new Set(v.notJudgeable.map((n) => n.clause));
  for (const c of v.clauses) {
    if (excused.has(c.clause)) assert.equal(c.status, 'not-judged', c.clause);
    else assert.equal(c.status, 'passed', `${c.clause}: ${c.status}\n${r.out}`);
  }
  for (const f of ['junit.xml', 'exchanges.har', 'recording.jsonl']) assert.ok(existsSync(join(out, f)), f);
  // Allure: one result per clause, each passed (the reports' content: client-reports.test.ts).
  const results = readdirSync(join(out, 'allure-results')).filter((f) => f.endsWith('-result.json')).map((f) => JSON.parse(readFileSync(join(out, 'allure-results', f), 'utf8')) as { status: string });
  assert.equal(results.length, v.clauses.length);
  assert.equal(results.filter((x) => x.status === 'passed').length, v.clauses.length - excused.size);
  assert.match(readFileSync(join(out, 'exchanges.har'), 'utf8'), /\[REDACTED:ACCESS_TOKEN_1\]/);
  const cert = join(out, 'certificate', 'certificate.json');
  const ok = await cli('verify', cert);
  assert.equal(ok.code, 0, ok.err);
  assert.match(ok.out, /valid\. Verdict conformant/);
  // Evidence edited after signing: verify names it.
  const har = join(out, 'certificate', 'evidence', 'exchanges.har');
  writeFileSync(har, readFileSync(har, 'utf8').replace('ACCESS_TOKEN_1', 'ACCESS_TOKEN_9'));
  const bad = await cli('verify', cert);
  assert.equal(bad.code, 1);
  assert.match(bad.err, /evidence evidence\/exchanges\.har does not match its hash/);
});

test('client run: a client that sends nothing exits 2; a command that cannot start exits 2', async () => {
  const out = scratch('client-none-');
  const silent = await cli('client', 'run', '--out', out, '--', process.execPath, '-e', '0');
  assert.equal(silent.code, 2, silent.out + silent.err);
  const missing = await cli('client', 'run', '--out', out, '--', '/nonexistent/ftf-client');
  assert.equal(missing.code, 2, missing.out + missing.err);
  assert.match(missing.err, /could not start/);
});

import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { startReferenceServer } from '../../src/reference/server.js';
import { cli, closedPort, FIXTURES, scratch, writeProfile } from './helpers.js';

const dir = scratch('ftf-cli-doctor-');
after(() => rmSync(dir, { recursive: true, force: true }));
process.env.FTF_SPECS_DIR = join(FIXTURES, 'specs');
process.env.FTF_SPEC_DIR = join(FIXTURES, 'spec');

const profile = (name: string, base: string, auth: string, extra = '') =>
  writeProfile(dir, name, `name: ${name}\nbase_url: ${base}/api/v1\nauth_url: ${auth}\nenvironment: sandbox\ncapabilities: [mutation]\n${extra}credentials:\n  primary:\n    kind: client_credentials\n    client_id: cc-alice\n    client_secret_env: FTF_DOCTOR_SECRET\n`);

test('doctor: the embedded reference is ready; capabilities and skipped scenarios are listed', async () => {
  // The demo scenarios alone: the catalogue's property tests (the model) judge every demo clause, so only this
  // selection shows the partial coverage doctor must report.
  const r = await cli('doctor', '--grep', '^demo\\.');
  assert.equal(r.code, 0, r.out + r.err);
  assert.match(r.out, /OK {3}token exchange for credential "primary" succeeded/);
  assert.match(r.out, /OK {3}health check: 200 \{"status":"OK"\}/);
  assert.match(r.out, /OK {3}clock skew -?\d+ s/);
  assert.match(r.out, /INFO capabilities: .*mutation/);
  assert.match(r.out, /skipped \(needs production: the target profile does not declare it\): demo\.production-only/);
  // Issue 30: the coverage the profile will give below full must coverage is "ready, partial" with the clauses
  // (AUTH-API-KEY: its only demo scenario needs production; EP-WEBHOOK: no demo scenario covers it).
  assert.match(r.out, /^WARN coverage this profile will give .*clauses judged: 3 of 5 \(must 2 of 4, should 1 of 1\); not judged \(must\): AUTH-API-KEY, EP-WEBHOOK;/m);
  assert.match(r.out, /^doctor: ready, partial \(2 must clauses will not be judged: AUTH-API-KEY, EP-WEBHOOK\)$/m);
});

test('doctor: a wrong secret is a clear token problem (exit 2) and the secret is never printed', async () => {
  const server = await startReferenceServer({ port: 0 });
  try {
    process.env.FTF_DOCTOR_SECRET = 'wrong-secret-value-42';
    const file = profile('wrong-secret', server.baseUrl.replace(/\/api\/v1$/, ''), server.authUrl);
    const r = await cli('doctor', '--target', file);
    assert.equal(r.code, 2);
    assert.match(r.out, /OK {3}base_url reachable/);
    assert.match(r.out, /FAIL token exchange for credential "primary" failed/);
    assert.equal((r.out + r.err).includes('wrong-secret-value-42'), false);
    assert.match(r.out, /doctor: 1 problem/);
    process.env.FTF_DOCTOR_SECRET = server.secrets.clients['cc-alice']!;
    const ok = await cli('doctor', '--target', file);
    assert.equal(ok.code, 0, ok.out);
    assert.equal(ok.out.includes(server.secrets.clients['cc-alice']!), false);
  } finally {
    await server.close();
  }
});

test('doctor: an unreachable target and a bad profile exit 2', async () => {
  process.env.FTF_DOCTOR_SECRET = 'whatever-secret';
  const port = await closedPort();
  const r = await cli('doctor', '--target', profile('down', `http://127.0.0.1:${port}`, `http://127.0.0.1:${port}`));
  assert.equal(r.code, 2);
  assert.match(r.out, /FAIL base_url unreachable: http:\/\/127\.0\.0\.1:\d+\/api\/v1\/health: ECONNREFUSED/);
  const bad = await cli('doctor', '--target', writeProfile(dir, 'bad.yaml', 'name: x\nbase_url: http://h/api/v1\nauth_url: http://h\nenvironment: staging\ncredentials: {primary: {kind: client_credentials, client_id: a, client_secret_env: A}}\n'));
  assert.equal(bad.code, 2);
  assert.match(bad.err, /environment/);
});

test('doctor: a declared path the target does not have (404) and a role naming the wrong kind of product are problems', async () => {
  const server = await startReferenceServer({ port: 0 });
  try {
    process.env.FTF_DOCTOR_SECRET = server.secrets.clients['cc-alice']!;
    const root = server.baseUrl.replace(/\/api\/v1$/, '');
    const extra = 'paths:\n  cells: /cells-nowhere\nindications:\n  primary: FTF-FIX-1M\n  fractional_minimum: FTF-FIX-1M\nentities:\n  allowed: [ENT-ALPHA]\n';
    const r = await cli('doctor', '--target', profile('not-ready', root, server.authUrl, extra));
    assert.equal(r.code, 2, r.out);
    assert.match(r.out, /FAIL paths\.cells \/cells-nowhere: GET \/cells-nowhere answered 404/);
    assert.match(r.out, /FAIL indications\.fractional_minimum = FTF-FIX-1M: the role needs a minimum below one million/);
    assert.match(r.out, /OK {3}indications\.primary = FTF-FIX-1M: found/);
    assert.match(r.out, /OK {3}paths\.holdings \/holding\/\{entity_code\}: GET \/holding\/ENT-ALPHA answered 200, pointers resolve/);
    assert.match(r.out, /doctor: 2 problems/);

    process.env.FTF_DOCTOR_SECOND = 'not-bobs-secret-0042';
    const second = `${readFileSync(profile('second', root, server.authUrl), 'utf8')}  second:\n    kind: client_credentials\n    client_id: cc-bob\n    client_secret_env: FTF_DOCTOR_SECOND\n`;
    const s2 = await cli('doctor', '--target', writeProfile(dir, 'second-bad.yaml', second));
    assert.equal(s2.code, 2, s2.out);
    assert.match(s2.out, /FAIL credential "second" \(client_credentials\) failed: /);
    assert.equal(s2.out.includes('not-bobs-secret-0042'), false, 'the wrong secret is not printed');
  } finally {
    delete process.env.FTF_DOCTOR_SECOND;
    await server.close();
  }
});

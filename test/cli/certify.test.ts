import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { cli, fakePlaywright, FIXTURES, scratch } from './helpers.js';

const dir = scratch('ftf-cli-certify-');
after(() => rmSync(dir, { recursive: true, force: true }));
const reports = process.env.FTF_REPORTS_DIR!;
process.env.FTF_SIGNING_KEY_FILE = '';

test('certify writes a signed bundle that verify accepts; one changed byte makes verify fail', async () => {
  fakePlaywright(join(FIXTURES, 'playwright-results.json'));
  mkdirSync(join(reports, 'har'), { recursive: true });
  writeFileSync(join(reports, 'har/w0.har'), JSON.stringify({ log: { version: '1.2', entries: [{ startedDateTime: '2025-06-01T10:00:00Z', request: { url: 'http://127.0.0.1/health' } }] } }));
  const r = await cli('certify', '--no-report', '--key', join(dir, 'absent-key.pem'));
  assert.equal(r.code, 2, 'a missing --key file is caught before the run');
  assert.match(r.err, /FTF_E_SIGNING_KEY/);

  const keyDir = join(dir, 'keys');
  mkdirSync(keyDir);
  const { generateKeyPairSync } = await import('node:crypto');
  writeFileSync(join(keyDir, 'k.pem'), generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }));
  const ok = await cli('certify', '--no-report', '--key', join(keyDir, 'k.pem'));
  assert.equal(ok.code, 1, 'the recorded report is non-conformant');
  assert.match(ok.out, /certificate: .*certificate\.json \(non-conformant\), signed with Ed25519 key sha256 [0-9a-f]{64}/);
  const certDir = join(reports, 'certificate');
  assert.deepEqual(readdirSync(certDir).sort(), ['certificate.html', 'certificate.json', 'certificate.md', 'evidence']);
  const file = join(certDir, 'certificate.json');
  const v = await cli('verify', file);
  assert.equal(v.code, 0, v.err);
  assert.match(v.out, /valid\. Verdict non-conformant/);

  const bytes = readFileSync(file);
  const i = bytes.indexOf('"overall"') + 14;
  bytes[i] = bytes[i] === 0x6e ? 0x6d : 0x6e;
  writeFileSync(file, bytes);
  const bad = await cli('verify', file);
  assert.equal(bad.code, 1);
  assert.match(bad.err, /INVALID/);
  assert.equal((await cli('verify')).code, 2);
});

test('certify refuses filters: a certification run is always the full suite', async () => {
  const r = await cli('certify', '--grep', 'x');
  assert.equal(r.code, 2);
  assert.match(r.err, /Unknown option '--grep'/);
});

test('certify: waivers of must-clauses are ignored', async () => {
  fakePlaywright(join(FIXTURES, 'playwright-results.json'));
  const waivers = join(dir, 'waivers.yaml');
  const canary = randomBytes(8).toString('hex');
  writeFileSync(waivers, `waivers:\n  - scenario: demo.wrong-status\n    reason: vendor bug ${canary}\n    owner: qa\n    expires: 2999-01-01\n`);
  const r = await cli('certify', '--no-report', '--waivers', waivers, '--key', join(dir, 'keys/k.pem'));
  assert.equal(r.code, 1);
  assert.match(r.out, /certification ignores the waiver for scenario 'demo\.wrong-status'/);
  const cert = JSON.parse(readFileSync(join(reports, 'certificate/certificate.json'), 'utf8')) as { scenarios: { id: string; verdict: string }[]; run: { certification: boolean } };
  assert.equal(cert.scenarios.find((s) => s.id === 'demo.wrong-status')?.verdict, 'failed');
  assert.equal(cert.run.certification, true);
});

import assert from 'node:assert/strict';
import { randomBytes, generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { FtfError } from '../../src/shared/errors.js';
import { canonicalJson } from '../../src/harness/report/outputs/canonical-json.js';
import { listFiles, writeCertificateBundle } from '../../src/harness/report/outputs/certificate-bundle.js';
import { buildCertificateBody, verifyCertificateText } from '../../src/harness/report/outputs/certificate.js';
import { certificateMarkdown } from '../../src/harness/report/outputs/certificate-render.js';
import { tallyTests } from '../../src/harness/report/verdicts/test-tally.js';
import { SANDBOX_ONLY_REASON } from '../../src/harness/scenario/environment.js';
import { PRODUCTION_MUTATION_SKIP_REASON } from '../../src/harness/target/guard.js';
import { loadSigningKey } from '../../src/harness/report/outputs/signing.js';
import { summarize } from '../../src/harness/report/verdicts/verdicts.js';
import { catalogue, demoReport, outcomes } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'ftf-cert-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const CANARY = `canary-${randomBytes(12).toString('hex')}`;

/** A HAR as the recorder writes it: secrets already replaced by [REDACTED:<ENV>]. */
function redactedHar(file: string, extra = ''): void {
  const entry = (t: string, url: string) => ({
    startedDateTime: t,
    time: 5,
    request: { method: 'POST', url, headers: [{ name: 'authorization', value: 'Basic [REDACTED:BASIC(FTF_PRIMARY_CLIENT_SECRET)]' }], postData: { mimeType: 'application/x-www-form-urlencoded', text: `client_secret=[REDACTED:FTF_PRIMARY_CLIENT_SECRET]${extra}` } },
    response: { status: 200, content: { text: '{"access_token":"[REDACTED:FTF_PRIMARY_ACCESS_TOKEN]"}' } },
  });
  writeFileSync(file, JSON.stringify({ log: { version: '1.2', creator: { name: 'rec', version: '1' }, entries: [entry('2025-06-01T10:00:01Z', 'http://127.0.0.1/oauth/token'), entry('2025-06-01T10:00:00Z', 'http://127.0.0.1/oauth/token')] } }));
}

function bundle(outDir: string, har: string[], secrets: string[]) {
  const summary = summarize(outcomes(demoReport()), catalogue);
  return writeCertificateBundle({
    outDir,
    key: loadSigningKey({ keyDir: join(dir, 'keys') }),
    har,
    secrets,
    target: { name: 'Reference <b>&</b>', base_url: 'http://127.0.0.1:1/api/v1', auth_url: 'http://127.0.0.1:1', environment: 'sandbox', capabilities: ['mutation', 'clock'] },
    summary,
    catalogue,
    startedAt: '2025-06-01T10:00:00.000Z',
    finishedAt: '2025-06-01T10:05:00.000Z',
    waivers: [],
  });
}

const harDir = join(dir, 'har');
mkdirSync(harDir);
redactedHar(join(harDir, 'w0.har'));
redactedHar(join(harDir, 'w1.har'));
const certDir = join(dir, 'certificate');
const { certificate } = bundle(certDir, [join(harDir, '*.har')], [CANARY]);
const certFile = join(certDir, 'certificate.json');
const text = readFileSync(certFile, 'utf8');

test('the bundle holds a signed certificate, md, html and the merged HAR evidence', () => {
  for (const f of ['certificate.json', 'certificate.md', 'certificate.html', 'evidence/run.har']) assert.ok(existsSync(join(certDir, f)), f);
  assert.equal(certificate.target.base_url, 'http://127.0.0.1:1/api/v1');
  assert.deepEqual(certificate.target.capabilities, ['clock', 'mutation']);
  assert.match(certificate.spec.sha256, /^[0-9a-f]{64}$/);
  assert.equal(certificate.spec.sha256, catalogue.specSha256);
  assert.match(certificate.harness.version, /^\d+\.\d+\.\d+/);
  assert.ok(certificate.harness.commit.length > 0);
  assert.match(certificate.harness.files.digest, /^[0-9a-f]{128}$/, 'the certificate carries the sha-512 of the harness files');
  assert.ok(Object.keys(certificate.files.schemas).some((f) => f.startsWith('schemas/')), 'schema files are hashed');
  assert.ok(Object.keys(certificate.files.scenarios).every((f) => f.startsWith('specs/')));
  assert.equal(certificate.verdict.overall, 'non-conformant');
  assert.deepEqual(certificate.clauses.find((c) => c.id === 'RES-HEALTH')?.scenarios.map((s) => s.id).sort(), ['demo.health', 'demo.timeout', 'demo.wrong-status']);
  assert.equal(certificate.evidence[0]?.entries, 4);
  const har = JSON.parse(readFileSync(join(certDir, 'evidence/run.har'), 'utf8')) as { log: { entries: { startedDateTime: string }[] } };
  assert.deepEqual(har.log.entries.map((e) => e.startedDateTime), [...har.log.entries.map((e) => e.startedDateTime)].sort(), 'entries merged in time order');
  const html = readFileSync(join(certDir, 'certificate.html'), 'utf8');
  assert.match(html, /Reference &lt;b&gt;&amp;&lt;\/b&gt;/, 'HTML is escaped');
  assert.doesNotMatch(html, /<b>&<\/b>/);
  assert.doesNotMatch(html, /<script|src="http/, 'self-contained, no external resources');
  assert.match(readFileSync(join(certDir, 'certificate.md'), 'utf8'), /\*\*Verdict: NON-CONFORMANT\*\*/);
});

test('no planted canary secret appears in any file of the certificate folder', () => {
  const files = listFiles(certDir);
  assert.ok(files.length >= 4);
  for (const f of files) assert.equal(readFileSync(f, 'latin1').includes(CANARY), false, f);
  // And the scan itself works: an unredacted HAR makes the bundle fail loudly, naming the file only.
  const leaky = join(dir, 'leaky');
  mkdirSync(leaky);
  redactedHar(join(leaky, 'x.har'), `&leak=${CANARY}`);
  assert.throws(() => bundle(join(dir, 'cert-leaky'), [leaky], [CANARY]), (e: unknown) => {
    assert.ok(e instanceof FtfError);
    assert.equal(e.code, 'FTF_E_SECRET_LEAK');
    assert.equal(e.message.includes(CANARY), false, 'the message never repeats the secret');
    return true;
  });
});

test('verify accepts the certificate and rejects any one-byte change', () => {
  const ok = verifyCertificateText(text, { evidenceDir: certDir });
  assert.deepEqual(ok.problems, []);
  assert.equal(ok.ok, true);
  assert.equal(ok.overall, 'non-conformant');
  const bytes = Buffer.from(text, 'utf8');
  const positions = new Set<number>([0, bytes.length - 1, text.indexOf('\n'), text.indexOf(' '), text.indexOf('"value"') + 12]);
  for (let i = 0; i < bytes.length; i += Math.max(1, Math.floor(bytes.length / 300))) positions.add(i);
  for (const i of positions) {
    const copy = Buffer.from(bytes);
    copy[i] = copy[i] === 0x41 ? 0x42 : 0x41;
    assert.equal(verifyCertificateText(copy.toString('latin1')).ok, false, `byte ${i} changed but verify passed`);
  }
  // Re-serialised content with a changed verdict but the old signature fails on the signature itself.
  const forged = JSON.parse(text) as { verdict: { overall: string } };
  forged.verdict.overall = 'conformant';
  const r = verifyCertificateText(canonicalJson(forged, 2));
  assert.equal(r.ok, false);
  assert.deepEqual(r.problems, ['the signature does not match the content']);
});

test('verify checks the evidence hash and a pinned public key', () => {
  const copyDir = join(dir, 'copy');
  mkdirSync(join(copyDir, 'evidence'), { recursive: true });
  writeFileSync(join(copyDir, 'evidence/run.har'), readFileSync(join(certDir, 'evidence/run.har'), 'utf8').replace('10:00:00', '10:00:09'));
  assert.match(verifyCertificateText(text, { evidenceDir: copyDir }).problems.join(), /evidence evidence\/run\.har does not match its hash/);
  const other = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString();
  assert.equal(verifyCertificateText(text, { publicKeyPem: other }).ok, false);
  const own = readFileSync(join(dir, 'keys/certificate-ed25519.pub.pem'), 'utf8');
  assert.equal(verifyCertificateText(text, { publicKeyPem: own }).ok, true);
});

test('the generated key is private to its owner and reused; --key files must be Ed25519', () => {
  const keyFile = join(dir, 'keys/certificate-ed25519.pem');
  assert.equal(statSync(keyFile).mode & 0o077, 0, 'no group/other access');
  assert.equal(loadSigningKey({ keyDir: join(dir, 'keys') }).fingerprint, certificate.signature.public_key_sha256);
  assert.equal(certificate.signature.public_key.includes('PRIVATE'), false);
  const rsa = join(dir, 'rsa.pem');
  writeFileSync(rsa, generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }));
  assert.throws(() => loadSigningKey({ keyFile: rsa }), /holds a rsa key/);
  assert.throws(() => loadSigningKey({ keyFile: join(dir, 'nope.pem') }), (e: unknown) => e instanceof FtfError && e.code === 'FTF_E_SIGNING_KEY');
});

test('skips per environment: a production project that runs a share names what it has no test of, and why', () => {
  const tests = tallyTests(
    [
      { id: 'demo.health', project: 'sandbox', verdict: 'passed' },
      { id: 'demo.wrong-status', project: 'sandbox', verdict: 'failed', reason: 'status' },
      { id: 'demo.wrong-status', project: 'production', verdict: 'skipped', reason: PRODUCTION_MUTATION_SKIP_REASON },
    ],
    'sandbox',
    { production: SANDBOX_ONLY_REASON },
  );
  const body = buildCertificateBody({
    target: { name: 'ref', base_url: 'embedded', auth_url: 'embedded', environment: 'sandbox', capabilities: [] },
    summary: summarize(outcomes(demoReport()), catalogue, { tests }),
    catalogue,
    startedAt: '2025-06-01T10:00:00.000Z',
    finishedAt: '2025-06-01T10:05:00.000Z',
    waivers: [],
    evidence: [],
  });
  const production = body.skips.find((s) => s.environment === 'production');
  assert.deepEqual(production, {
    environment: 'production', tests: 1, skipped: 1, not_applicable: 0,
    reasons: [{ reason: PRODUCTION_MUTATION_SKIP_REASON, count: 1, not_applicable: false }],
    not_run: { count: 1, reason: SANDBOX_ONLY_REASON, scenarios: ['demo.health'] },
  });
  assert.equal(body.skips.find((s) => s.environment === 'sandbox')?.not_run, undefined);
  const md = certificateMarkdown({ ...body, signature: { algorithm: 'Ed25519', public_key: '', public_key_sha256: '', value: '' } });
  assert.match(md, /\| production \| 1 \| 1 \| 0 \| 1 × production target: .* 1 scenario not run here \(no test, in no count\): their clauses do not differ by environment/);
});

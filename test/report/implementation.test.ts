/**
 * The implementation version (src/harness/report/records/implementation.ts): the profile field `implementation`
 * through the one profile pipeline, the header values a test's exchanges carry into its outcome record,
 * the run's version made from the records, and where it is shown (certificate, Allure environment).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { writeAllureSupportFiles } from '../../src/harness/report/outputs/allure.js';
import { buildCertificateBody } from '../../src/harness/report/outputs/certificate.js';
import { certificateMarkdown } from '../../src/harness/report/outputs/certificate-render.js';
import { describeImplementation, implementationVersion, versionSink } from '../../src/harness/report/records/implementation.js';
import { outcomeFromError, passedOutcome } from '../../src/harness/report/records/record-outcome.js';
import { tallyTests } from '../../src/harness/report/verdicts/test-tally.js';
import { summarize } from '../../src/harness/report/verdicts/verdicts.js';
import type { Exchange } from '../../src/harness/http/types.js';
import { ProfileError } from '../../src/harness/target/errors.js';
import { loadTargetProfile } from '../../src/harness/target/load.js';
import { FtfError } from '../../src/shared/errors.js';
import { catalogue, demoReport, outcomes } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'ftf-impl-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const MINIMAL = `name: vendor sandbox
base_url: https://sandbox.vendor.test/api/v1
auth_url: https://sandbox.vendor.test
environment: sandbox
credentials:
  primary:
    kind: client_credentials
    client_id: cid-1
    client_secret_env: VENDOR_SECRET
`;
function load(extra: string) {
  const file = join(dir, `p${++n}.yaml`);
  writeFileSync(file, MINIMAL + extra);
  return loadTargetProfile(file, { env: { VENDOR_SECRET: 'vendor-secret-value-1' } });
}

const exchange = (headers: Record<string, string> | undefined): Exchange => ({
  id: 1, label: 'GET health', startedAt: '', durationMs: 1, curl: '',
  request: { method: 'GET', url: 'http://127.0.0.1/api/v1/health', headers: {} },
  ...(headers ? { response: { status: 200, headers, bodyText: '', json: undefined, durationMs: 1 } } : {}),
} as Exchange);

describe('profile field implementation', () => {
  it('version and version_header reach the resolved target (the header name lower-cased)', () => {
    const t = load('implementation:\n  version: "3.1.4"\n  version_header: X-Api-Version\n');
    assert.deepEqual(t.implementation, { version: '3.1.4', versionHeader: 'x-api-version' });
    assert.equal(load('').implementation, undefined);
  });

  it('an empty block, a header name that is no HTTP token, an unknown field are refused at the field', () => {
    for (const [extra, field] of [
      ['implementation: {}\n', 'implementation'],
      ['implementation:\n  version_header: "X Api: Version"\n', 'implementation.version_header'],
      ['implementation:\n  version: " 1.0"\n', 'implementation.version'],
      ['implementation:\n  build: 7\n', 'implementation'],
    ] as const) {
      let err: unknown;
      try {
        load(extra);
      } catch (e) {
        err = e;
      }
      assert.ok(err instanceof ProfileError, `${extra}: expected a ProfileError`);
      assert.ok(err.issues.some((i) => i.field === field || i.field.startsWith(`${field}.`)), `${extra}: ${JSON.stringify(err.issues)}`);
    }
  });
});

describe('header values: exchange -> evidence -> outcome record -> run', () => {
  it('the sink keeps the distinct values of the named header, cleaned; other headers and missing responses are ignored', async () => {
    const evidence: { exchanges: string[]; implementationVersions?: string[] } = { exchanges: [] };
    const sink = versionSink('x-api-version', evidence);
    await sink.onExchange(exchange(undefined));
    await sink.onExchange(exchange({ 'x-other': '9' }));
    assert.equal(evidence.implementationVersions, undefined);
    await sink.onExchange(exchange({ 'x-api-version': ' 2.0.1\u0007 ' }));
    await sink.onExchange(exchange({ 'x-api-version': '2.0.1' }));
    await sink.onExchange(exchange({ 'x-api-version': 'x'.repeat(300) }));
    assert.deepEqual(evidence.implementationVersions, ['2.0.1', 'x'.repeat(100)]);
  });

  it('the outcome record carries the values seen, passed or not', () => {
    const evidence = { exchanges: ['01 GET.json'], implementationVersions: ['2.0.1'] };
    assert.deepEqual(passedOutcome({ covers: [], evidence, checks: [] }).implementationVersions, ['2.0.1']);
    assert.deepEqual(outcomeFromError(new FtfError('FTF_E_TARGET_TIMEOUT', 'slow'), { covers: [], evidence, checks: [] }).implementationVersions, ['2.0.1']);
    assert.equal(passedOutcome({ covers: [], evidence: { exchanges: [] }, checks: [] }).implementationVersions, undefined);
  });

  it('the run: header values win when seen, else the stated version, else none', () => {
    const header = { version: '2.0.0', versionHeader: 'x-api-version' };
    const seen = implementationVersion(header, [{ implementationVersions: ['2.0.1'] }, {}, { implementationVersions: ['2.0.1'] }]);
    assert.deepEqual(seen, { observed: ['2.0.1'], header: 'x-api-version', declared: '2.0.0', version: '2.0.1', source: 'header' });
    assert.match(describeImplementation(seen), /^2\.0\.1 \(response header x-api-version\) \(the profile states 2\.0\.0\)$/);
    const changed = implementationVersion({ versionHeader: 'x-api-version' }, [{ implementationVersions: ['1'] }, { implementationVersions: ['2'] }]);
    assert.equal(changed.version, '1, 2');
    assert.match(describeImplementation(changed), /several values/);
    assert.equal(implementationVersion(header, [{}]).source, 'profile');
    assert.equal(implementationVersion(undefined, [{ implementationVersions: ['9'] }]).source, 'none', 'values without a named header are not used');
  });
});

describe('where it is shown', () => {
  it('the certificate states the implementation and lists skips per environment', () => {
    const implementation = implementationVersion({ version: '3.1.4' }, []);
    const tests = tallyTests(
      [
        { id: 'a', project: 'sandbox', verdict: 'passed' },
        { id: 'a', project: 'production', verdict: 'skipped', reason: 'production target: mutations need --allow-mutations' },
        { id: 'b', project: 'sandbox', verdict: 'skipped', reason: 'needs clock: the target profile does not declare it' },
        { id: 'b', project: 'production', verdict: 'skipped', reason: 'needs clock: the target profile does not declare it' },
      ],
      'sandbox',
    );
    const summary = summarize(outcomes(demoReport()), catalogue, { tests, implementation });
    const body = buildCertificateBody({
      target: { name: 't', base_url: 'http://127.0.0.1:1/api/v1', auth_url: 'http://127.0.0.1:1', environment: 'sandbox', capabilities: [] },
      summary, catalogue, startedAt: 's', finishedAt: 'f', waivers: [], evidence: [],
    });
    assert.equal(body.implementation.version, '3.1.4');
    assert.deepEqual(body.skips, [
      { environment: 'sandbox', tests: 2, skipped: 1, not_applicable: 0, reasons: [{ reason: 'needs clock: the target profile does not declare it', count: 1, not_applicable: false }] },
      { environment: 'production', tests: 2, skipped: 2, not_applicable: 0, reasons: [
        { reason: 'needs clock: the target profile does not declare it', count: 1, not_applicable: false },
        { reason: 'production target: mutations need --allow-mutations', count: 1, not_applicable: false },
      ] },
    ]);
    const md = certificateMarkdown({ ...body, signature: { algorithm: 'Ed25519', public_key: '', public_key_sha256: 'x', value: '' } });
    assert.match(md, /\| Implementation \| 3\.1\.4 \(stated by the profile\) \|/);
    assert.match(md, /\| production \| 2 \| 2 \| 0 \| 1 × needs clock: the target profile does not declare it; 1 × production target: mutations need --allow-mutations \|/);
  });

  it('a summary without a test tally: the certificate counts skipped scenarios under the target environment', () => {
    const body = buildCertificateBody({
      target: { name: 't', base_url: 'b', auth_url: 'a', environment: 'production', capabilities: [] },
      summary: summarize(outcomes(demoReport()), catalogue), catalogue, startedAt: 's', finishedAt: 'f', waivers: [], evidence: [],
    });
    assert.equal(body.implementation.source, 'none');
    assert.deepEqual(body.skips.map((s) => [s.environment, s.skipped, s.reasons.map((r) => r.count)]), [['production', 1, [1]]]);
  });

  it('the Allure environment names it', () => {
    writeAllureSupportFiles(dir, { targetName: 't', baseUrl: 'b', environment: 'sandbox', capabilities: [], specSha256: 'x', harnessVersion: '0', implementationVersion: '3.1.4 (stated by the profile)' });
    assert.match(readFileSync(join(dir, 'environment.properties'), 'utf8'), /^Implementation.version=3.1.4 \(stated by the profile\)$/m);
  });
});

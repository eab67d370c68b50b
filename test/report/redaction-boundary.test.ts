/**
 * The redaction boundary's parts, in process: secret digests (every spelling found, nothing else), the stdout
 * announcement channel, structural patterns on a Playwright call log, the redacting reporter forwarding only
 * redacted payloads to a wrapped reporter, and the leak scan (raw, base64-in-zip, structural; the error names
 * the file, never the secret).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { after, test } from 'node:test';
import { createHash } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import fc from 'fast-check';
import type { FullConfig, Suite, TestCase, TestResult, TestStep } from '@playwright/test/reporter';
import { FtfError } from '../../src/shared/errors.js';
import { assertRunLeakFree, filesUnder, scanForLeaks } from '../../src/harness/report/redaction/leak-scan.js';
import RedactingReporter from '../../src/harness/report/outputs/redacting-reporter.js';
import { announceSecrets, DigestSet, digestsOf, DIGEST_MARKER, spellingsOf, takeAnnouncements } from '../../src/harness/report/redaction/secret-digests.js';
import { findStructural, redactStructural } from '../../src/harness/report/redaction/structural-redaction.js';
import { shippedPrefixLength } from '../../src/harness/report/redaction/shipped-prefix.js';

const dir = mkdtempSync(join(tmpdir(), 'ftf-boundary-'));
// Leaking files the scans below move aside stay in this test's folder.
process.env.FTF_QUARANTINE_DIR = join(dir, 'quarantine');
after(() => rmSync(dir, { recursive: true, force: true }));

const SECRET = 'c4n4ry+s3cr3t/v4lue=';
const BASIC = Buffer.from(`client-a:${SECRET}`).toString('base64');
const set = (): DigestSet => new DigestSet(digestsOf([...spellingsOf(SECRET), BASIC]));

test('digests find every spelling of a secret wherever it stands, and nothing else', () => {
  const digests = set();
  for (const form of [SECRET, encodeURIComponent(SECRET), JSON.stringify(SECRET).slice(1, -1), Buffer.from(SECRET).toString('base64'), BASIC, Buffer.from(SECRET).toString('hex')]) {
    assert.equal(digests.redact(`x "${form}" y`), 'x "[REDACTED]" y');
    assert.equal(digests.redact(`code=${form}&state=1`), 'code=[REDACTED]&state=1');
    // No token boundary is needed: inside a longer word, after any character (Sanctum's `7|…`).
    assert.equal(digests.redact(`7|${form}abc`), '7|[REDACTED]abc');
  }
  assert.equal(digests.find('nothing secret here').length, 0);
  assert.equal(digests.find(SECRET.slice(0, -1)).length, 0, 'a shorter piece is not the value');
  assert.ok(!JSON.stringify(digests.toJSON()).includes(SECRET));
});

test('digests have no length blind spot: a 64 KiB secret is found inside a 1 MiB run of token characters, in linear time', () => {
  const big = `eyJ${'Ab0-_'.repeat(13_000)}`;
  const digests = new DigestSet(digestsOf(spellingsOf(big)));
  const text = `${'x'.repeat(500_000)}${big}${'y'.repeat(500_000)}`;
  assert.deepEqual(digests.find(text), [[500_000, 500_000 + big.length]]);
  const b64 = Buffer.from(`{"t":"${big}"}`).toString('base64');
  assert.equal(digests.find(`Q${b64}Q`).length, 1, 'its base64 at any alignment inside a longer base64 string');
});

/** The scanner's rule written plainly (quadratic): every position, every digest; overlapping ranges merged. */
function naiveFind(text: string, digests: ReadonlyArray<{ n: number; d: string }>): Array<[number, number]> {
  const hits: Array<[number, number]> = [];
  for (let i = 0; i < text.length; i++) {
    for (const { n, d } of digests) if (i + n <= text.length && createHash('sha256').update(text.slice(i, i + n), 'utf8').digest('hex') === d) hits.push([i, i + n]);
  }
  hits.sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const [a, b] of hits) {
    const top = merged[merged.length - 1];
    if (top && a < top[1]) top[1] = Math.max(top[1], b);
    else merged.push([a, b]);
  }
  return merged;
}

test('the fingerprint scan finds exactly what the plain rule finds (property)', () => {
  const secrets = ['s3cr3t-V4lue', 'tok.en+/x=', 'AbCdEf', '7|Sanctum0123456789abcdefghij'];
  const all = secrets.flatMap((v) => spellingsOf(v));
  const digests = new DigestSet(digestsOf(all));
  const list = digests.toJSON();
  const piece = fc.oneof(fc.constantFrom(...all), fc.constantFrom(' ', '"', '=', '/', ':', '.', '%', '+', '\\', 'a', 'Z9', '_', '-', '&', 'é', '|'), fc.string({ maxLength: 6 }));
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 30 }), (parts) => {
      const text = parts.join('');
      assert.deepEqual(digests.find(text), naiveFind(text, list));
    }),
    { numRuns: 300 },
  );
});

test('announcements travel as one stdout chunk that the reporter strips', () => {
  const chunks: string[] = [];
  announceSecrets([SECRET], (c) => chunks.push(c));
  announceSecrets([SECRET], (c) => chunks.push(c));
  assert.equal(chunks.length, 1, 'a secret is announced once per process');
  assert.ok(chunks[0]?.startsWith(DIGEST_MARKER) && !chunks[0].includes(SECRET));
  const { digests, rest } = takeAnnouncements(`before\n${chunks[0]}after\n`);
  assert.equal(rest, 'before\nafter\n');
  assert.ok(new DigestSet(digests).find(SECRET).length === 1);
});

test('structural patterns redact call-log headers, JSON and form token fields, and leave redacted values alone', () => {
  const log = [
    'apiRequestContext.fetch: Timeout 1000ms exceeded.',
    'Call log:',
    '  - → GET http://127.0.0.1:1/api/v1/health',
    '  - authorization: Bearer eyJhbGciOiJIUzI1NiJ9.abc_def-ghi',
    '  - authorization: Basic Y2xpZW50OnNlY3JldHZhbHVl',
    '  - x-api-key: k3y-value-123456',
    '{"access_token":"tok-123456789","refresh_token":"ref-987654321"}',
    '{\\"client_secret\\":\\"esc-123456789\\"}',
    'grant_type=refresh_token&refresh_token=form-123456789&code_verifier=ver-123456789',
  ].join('\n');
  const clean = redactStructural(log);
  for (const v of ['eyJhbGciOiJIUzI1NiJ9', 'Y2xpZW50OnNlY3JldHZhbHVl', 'k3y-value-123456', 'tok-123456789', 'ref-987654321', 'esc-123456789', 'form-123456789', 'ver-123456789']) {
    assert.ok(!clean.includes(v), `${v} redacted`);
  }
  assert.ok(clean.includes('authorization: Bearer [REDACTED]') && clean.includes('Timeout 1000ms exceeded'));
  assert.equal(findStructural(clean), undefined);
  assert.equal(findStructural('authorization: Bearer [REDACTED:FTF_ACCESS_TOKEN]'), undefined);
  assert.equal(findStructural(log), 'authorization');
});

test('a placeholder in angle brackets, however escaped, is not a credential; a value after it still is', () => {
  // The Allure HTML renders a scenario's description quoting the spec as `Authorization: Bearer &lt;API_KEY&gt;`:
  // read as a credential, the main job's Allure report was quarantined as a leak (exit 3 with --wait-report).
  for (const quoted of ['Authorization: Bearer &lt;API_KEY&gt;', 'authorization: Bearer &#60;access token&#62;', 'Authorization: Bearer &#x3C;key&#x3E;', '\\"authorization\\": \\"Bearer \\u003ckey\\u003e', 'authorization=Bearer%20%3Ckey%3E', 'Bearer &lt;token&gt;']) {
    assert.equal(findStructural(quoted), undefined, quoted);
    assert.equal(redactStructural(quoted), quoted, quoted);
  }
  assert.equal(findStructural('Authorization: Bearer k3y&lt;'), 'authorization', 'a value that only contains an escaped bracket is still one');
  assert.equal(findStructural('Authorization: Bearer &amp;lt;k3y'), 'authorization');
});

test('the redacting reporter forwards only redacted payloads and strips the digest channel', async () => {
  const recorder = join(dir, 'recorder.mjs');
  writeFileSync(
    recorder,
    `export default class { constructor(o) { this.file = o.file; this.seen = []; }
      onStdOut(c) { this.seen.push(String(c)); }
      onStepEnd(t, r, s) { this.seen.push(s.title, s.error?.message ?? '', s.error?.stack ?? ''); }
      onTestEnd(t, r) { for (const e of r.errors) this.seen.push(e.message ?? '', e.snippet ?? ''); for (const a of r.attachments) this.seen.push(a.body?.toString() ?? ''); this.seen.push(...r.stdout.map(String)); }
      onError(e) { this.seen.push(e.message ?? ''); }
      onEnd() { (globalThis.__ftfSeen ??= {})[this.file] = this.seen; } }\n`,
  );
  const reporter = new RedactingReporter({ reporters: [[recorder, { file: 'a' }]], configDir: dir, digestsFile: 'reports/secret-digests.json' });
  assert.equal(reporter.printsToStdio(), true);
  reporter.onConfigure({} as FullConfig);
  await reporter.preprocess({});
  reporter.onBegin({ allTests: () => [] } as unknown as Suite);
  const chunks: string[] = [];
  announceSecrets([`fresh-${SECRET}`], (c) => chunks.push(c));
  const result = { stdout: [] as Array<string | Buffer>, stderr: [], errors: [], attachments: [], steps: [], annotations: [] } as unknown as TestResult;
  const test_ = { annotations: [] } as unknown as TestCase;
  for (const c of [...chunks, `token fresh-${SECRET} printed\n`]) {
    result.stdout.push(c);
    reporter.onStdOut(c, test_, result);
  }
  const step = { title: `GET ?code=fresh-${SECRET}`, error: { message: `Call log:\n  - authorization: Bearer fresh-${SECRET}`, stack: `Error: fresh-${SECRET}` }, steps: [], attachments: [] } as unknown as TestStep;
  reporter.onStepEnd(test_, result, step);
  result.errors.push({ message: `failed: fresh-${SECRET}`, snippet: `> fresh-${SECRET}` });
  result.attachments.push({ name: 'x.json', contentType: 'application/json', body: Buffer.from(`{"t":"fresh-${SECRET}"}`) });
  reporter.onTestEnd(test_, result);
  reporter.onError({ message: `global fresh-${SECRET}` });
  await reporter.onEnd({ status: 'failed' } as never);
  const seen = (globalThis as unknown as { __ftfSeen: Record<string, string[]> }).__ftfSeen.a ?? [];
  assert.ok(seen.length >= 8, `the wrapped reporter received the callbacks (${seen.length} payloads)`);
  const all = seen.join('\n');
  assert.ok(!all.includes(SECRET) && !all.includes(encodeURIComponent(SECRET)), 'no secret reached the wrapped reporter');
  assert.ok(!all.includes(DIGEST_MARKER), 'the digest channel is not forwarded');
  assert.ok(all.includes('token [REDACTED] printed'));
  assert.ok(readFileSync(join(dir, 'reports/secret-digests.json'), 'utf8').length > 10, 'digests kept for the leak scan');
});

test('in merge-reports the wrapped reporters are configured at onBegin, when the blobs have filled config.projects', async () => {
  const probe = join(dir, 'configure-probe.mjs');
  writeFileSync(
    probe,
    `export default class { constructor(o) { this.key = o.key; this.calls = []; }
      version() { return 'v2'; }
      onConfigure(c) { this.calls.push('configure:' + c.projects.map((p) => p.name).join(',')); }
      onBegin() { this.calls.push('begin'); }
      onEnd() { (globalThis.__ftfConfigure ??= {})[this.key] = this.calls; } }\n`,
  );
  const calls = async (mode: string, key: string): Promise<string[]> => {
    const reporter = new RedactingReporter({ reporters: [[probe, { key }]], configDir: dir, _mode: mode });
    const config = { projects: [] as Array<{ name: string }> } as unknown as FullConfig;
    reporter.onConfigure(config);
    await reporter.preprocess({});
    (config.projects as Array<{ name: string }>).push({ name: 'sandbox' }, { name: 'production' });
    reporter.onBegin({ allTests: () => [] } as unknown as Suite);
    await reporter.onEnd({ status: 'passed' } as never);
    return (globalThis as unknown as { __ftfConfigure: Record<string, string[]> }).__ftfConfigure[key] ?? [];
  };
  // allure-playwright reads config.projects[0] in onConfigure: in merge mode it must see the projects.
  assert.deepEqual(await calls('merge', 'merge'), ['configure:sandbox,production', 'begin']);
  // A test run configures at once (its config has its projects from the start).
  assert.deepEqual(await calls('test', 'test'), ['configure:', 'begin']);
});

/** A one-entry zip (deflated), as Playwright's HTML report embeds its data. */
function zipOf(name: string, text: string): Buffer {
  const data = deflateRawSync(Buffer.from(text));
  const n = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt16LE(n.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt16LE(n.length, 28);
  central.writeUInt32LE(0, 42);
  const cdOffset = local.length + n.length + data.length;
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(1, 8);
  eocd.writeUInt16LE(1, 10);
  eocd.writeUInt32LE(central.length + n.length, 12);
  eocd.writeUInt32LE(cdOffset, 16);
  return Buffer.concat([local, n, data, central, n, eocd]);
}

test('the leak scan finds raw, base64-in-zip and structural leaks and names the file, never the secret', async () => {
  const root = join(dir, 'scan');
  const write = (name: string, text: string | Buffer): string => {
    const f = join(root, name);
    writeFileSync(f, text);
    return f;
  };
  mkdirSync(root, { recursive: true });
  write('clean.json', '{"authorization":"Bearer [REDACTED:FTF_ACCESS_TOKEN]"}');
  const raw = write('raw.txt', `value ${encodeURIComponent(SECRET)} here`);
  const zipped = write('index.html', `<script>window.r = "data:application/zip;base64,${zipOf('report.json', `{"e":"${SECRET}"}`).toString('base64')}";</script>`);
  const structural = write('log.txt', 'authorization: Bearer abcdefghijklmnop123');
  const hits = scanForLeaks(filesUnder([root]), { digests: set() });
  assert.deepEqual(hits.map((h) => h.file).sort(), [zipped, raw, structural].sort());
  await assert.rejects(
    () => assertRunLeakFree({ reportsRoot: root, outputDir: join(dir, 'none'), secrets: [SECRET] }),
    (e: unknown) => e instanceof FtfError && e.code === 'FTF_E_SECRET_LEAK' && e.message.includes('raw.txt') && !e.message.includes(SECRET),
  );
});

test("Playwright's HTML app is skipped only while it is byte for byte what Playwright ships: a secret right after it, or inside an edited copy, is found", () => {
  const folder = join(dirname(createRequire(import.meta.url).resolve('playwright-core')), 'lib', 'vite', 'htmlReport');
  const read = (name: string): string => readFileSync(join(folder, name), 'utf8');
  // What Playwright's html reporter writes before the run's data (its _writeStaticAssets, assets inlined).
  const app = read('index.html')
    .replace(/<script type="module"[^>]*><\/script>/, () => `<script type="module">${read('report.js')}</script>`)
    .replace(/<link rel="stylesheet"[^>]*>/, () => `<style type='text/css'>${read('report.css')}</style>`);
  const root = join(dir, 'shipped', 'playwright-html');
  mkdirSync(root, { recursive: true });
  const file = join(root, 'index.html');
  const data = '<template id="playwrightReportBase64">data:application/zip;base64,';
  writeFileSync(file, `${app}${data}${zipOf('report.json', '{"ok":true}').toString('base64')}</template>`);
  assert.ok(shippedPrefixLength(file, readFileSync(file)) > 100_000, 'the app is recognised');
  assert.deepEqual(scanForLeaks([file], { digests: set() }), []);
  // Right at the seam, the secret's first character the app's last byte's neighbour.
  writeFileSync(file, `${app}${SECRET}${data}</template>`);
  assert.equal(scanForLeaks([file], { digests: set() }).length, 1);
  writeFileSync(file, `${app}${data}${zipOf('report.json', `{"e":"${SECRET}"}`).toString('base64')}</template>`);
  assert.equal(scanForLeaks([file], { digests: set() }).length, 1);
  // One byte of the app changed: not Playwright's, scanned whole, and the secret planted in it is found.
  const edited = app.replace('</head>', `<meta name="x" content="${SECRET}"></head>`);
  writeFileSync(file, `${edited}${data}</template>`);
  assert.equal(shippedPrefixLength(file, readFileSync(file)), 0);
  assert.equal(scanForLeaks([file], { digests: set() }).length, 1);
  // The same bytes under another name are scanned whole too.
  const other = join(root, 'app.html');
  writeFileSync(other, `${app.replace('</html>', `${SECRET}</html>`)}`);
  assert.equal(shippedPrefixLength(other, readFileSync(other)), 0);
});

test('the scan after a run checks every file left in the reports and output folders, however old and whoever wrote it', async () => {
  const root = join(dir, 'every-file');
  const output = join(dir, 'every-file-output');
  mkdirSync(join(root, 'deep', 'er'), { recursive: true });
  mkdirSync(output, { recursive: true });
  const past = new Date(Date.now() - 3_600_000);
  // Files a run did not write (an earlier run, another tool, a restored cache): CI uploads them all the same.
  const stale = join(root, 'deep', 'er', 'old.log');
  writeFileSync(stale, `an old log ${SECRET}\n`);
  utimesSync(stale, past, past);
  const staleOutput = join(output, 'trace.txt');
  writeFileSync(staleOutput, `{"access_token":"eyJhbGciOiJIUzI1NiJ9.c3RhbGU.c2lnbmF0dXJl"}`);
  utimesSync(staleOutput, past, past);
  writeFileSync(join(root, 'results.json'), '{"ok":true}');
  await assert.rejects(
    () => assertRunLeakFree({ reportsRoot: root, outputDir: output, secrets: [SECRET] }),
    (e: unknown) => e instanceof FtfError && e.code === 'FTF_E_SECRET_LEAK' && /2 report file/.test(e.message) && e.message.includes('old.log') && e.message.includes('trace.txt') && !e.message.includes(SECRET),
  );
  assert.equal(existsSync(stale) || existsSync(staleOutput), false, 'both leaking files were taken out of the folders');
  assert.equal(await assertRunLeakFree({ reportsRoot: root, outputDir: output, secrets: [SECRET] }), 1, 'what is left is scanned again and clean');
});

/**
 * The Basic credential base64(client_id:secret) begins with the base64 of the public client id. Its pieces must not
 * count as a leak: a report that base64-encodes a curl line `-u "cc-alice:${FTF_PRIMARY_CLIENT_SECRET}"` spells
 * `Y2MtYWxpY2U6` at one alignment in three (seen as an intermittent FTF_E_SECRET_LEAK on clean runs).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { assertRunLeakFree } from '../../src/harness/report/redaction/leak-scan.js';

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function folders(content: string): { reportsRoot: string; outputDir: string } {
  const root = mkdtempSync(join(tmpdir(), 'ftf-leak-basic-'));
  dirs.push(root);
  const reportsRoot = join(root, 'reports');
  const outputDir = join(root, 'test-results');
  mkdirSync(reportsRoot);
  mkdirSync(outputDir);
  writeFileSync(join(reportsRoot, 'results.json'), content);
  return { reportsRoot, outputDir };
}

const secret = `cs_${randomBytes(24).toString('base64url')}`;
const basic = [{ clientId: 'cc-alice', secret }];

test('the base64 of a curl line naming the client id (every alignment) is not a leak', async () => {
  for (const pad of ['', 'x', 'xy']) {
    const curl = `${pad}curl -u "cc-alice:\${FTF_PRIMARY_CLIENT_SECRET}" --data-raw "grant_type=client_credentials"`;
    const text = JSON.stringify({ attachment: Buffer.from(curl).toString('base64') });
    assert.ok(pad !== '' || text.includes(Buffer.from('cc-alice:').toString('base64')), 'the public prefix is spelled');
    await assertRunLeakFree({ ...folders(text), secrets: [secret], basic });
  }
});

test('the Basic credential itself, and a piece of its secret, are still leaks', async () => {
  const whole = Buffer.from(`cc-alice:${secret}`).toString('base64');
  await assert.rejects(assertRunLeakFree({ ...folders(JSON.stringify({ h: `Basic ${whole}` })), secrets: [secret], basic }), /FTF_E_SECRET_LEAK|held a secret/);
  const piece = JSON.stringify({ a: secret.slice(0, 20), b: 'unrelated' });
  await assert.rejects(assertRunLeakFree({ ...folders(piece), secrets: [secret], basic }), /FTF_E_SECRET_LEAK|held a secret/);
});

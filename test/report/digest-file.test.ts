/**
 * The digests file (reports/secret-digests.json) is append-only JSON Lines: every announcement appends only the
 * digests not written yet, so a run of n tests writes O(n) bytes, not O(n^2) (each test used to rewrite it whole).
 * The leak scan reads every line, the older one-array form and the lines before a torn last one.
 */
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { addToDigestFile, appendToDigestFile, DIGEST_MARKER, DigestSet, digestsOf, readDigestFile, spellingsOf } from '../../src/harness/report/redaction/secret-digests.js';
import type { FullConfig, Suite } from '@playwright/test/reporter';
import RedactingReporter from '../../src/harness/report/outputs/redacting-reporter.js';

const dir = mkdtempSync(join(tmpdir(), 'ftf-digest-file-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const secretA = 'sk_live_4f9a8b7c6d5e4f3a2b1c';
const secretB = 'eyJhbGciOiJIUzI1NiJ9.payload-of-token-b.sig';
const digestsOfValue = (v: string) => digestsOf(spellingsOf(v));

test('appends only what the file lacks; every line is read back, a torn last line is skipped', () => {
  const file = join(dir, 'append.json');
  appendToDigestFile(file, digestsOfValue(secretA));
  addToDigestFile(file, [secretB]);
  appendToDigestFile(file, []);
  assert.equal(readFileSync(file, 'utf8').split('\n').filter(Boolean).length, 2, 'one line per append with digests, none for an empty one');
  appendFileSync(file, '[{"n":30,"p":1,"d":"ab'); // a crash mid-append
  const after = 'a-secret-announced-after-the-torn-line-0123';
  addToDigestFile(file, [after]);
  const read = readDigestFile(file);
  assert.equal(read.find(`x ${after} y`).length, 1, 'an append after a torn line is read: it starts a line of its own');
  assert.ok(new DigestSet(digestsOfValue(secretA)).toJSON().every((d) => read.toJSON().some((x) => x.d === d.d)), 'first line read');
  assert.ok(digestsOfValue(secretB).filter((d) => d.n >= 8).every((d) => read.toJSON().some((x) => x.d === d.d)), 'second line read');
  assert.equal(read.find(`x ${secretB} y`).length, 1, 'a value of the file is found in text');
});

test('the older one-array file reads as before', () => {
  const file = join(dir, 'old.json');
  writeFileSync(file, JSON.stringify(new DigestSet(digestsOfValue(secretA)).toJSON()));
  assert.equal(readDigestFile(file).find(`"${secretA}"`).length, 1);
});

test('the redacting reporter appends each announcement once: repeated digests add no line', async () => {
  const file = join(dir, 'reporter', 'secret-digests.json');
  const reporter = new RedactingReporter({ reporters: [], configDir: dir, digestsFile: file });
  reporter.onConfigure({} as FullConfig);
  await reporter.preprocess({});
  reporter.onBegin({ allTests: () => [] } as unknown as Suite);
  const announce = (v: string) => `${DIGEST_MARKER}${JSON.stringify(digestsOfValue(v))}\n`;
  for (let i = 0; i < 50; i++) reporter.onStdOut(announce(secretA), undefined, undefined);
  reporter.onStdOut(announce(secretB), undefined, undefined);
  await reporter.onEnd({ status: 'passed', startTime: new Date(), duration: 0 });
  assert.equal(readFileSync(file, 'utf8').split('\n').filter(Boolean).length, 2, '51 announcements of 2 secrets: 2 lines');
  assert.equal(readDigestFile(file).find(`${secretA} and ${secretB}`).length, 2);
});

/**
 * The leak scan on two cores (src/harness/report/redaction/leak-scan-pool.ts) finds exactly what the one-thread scan
 * finds, whichever share a leaking file falls into, and still scans everything when its thread is gone.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { filesUnder, scanForLeaks } from '../../src/harness/report/redaction/leak-scan.js';
import { SPLIT_FROM_COST, leakScanner } from '../../src/harness/report/redaction/leak-scan-pool.js';
import { DigestSet, digestsOf, spellingsOf } from '../../src/harness/report/redaction/secret-digests.js';

const dir = mkdtempSync(join(tmpdir(), 'ftf-scan-pool-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const SECRET = 'p00l+s3cr3t/v4lue=';
const digests = (): DigestSet => new DigestSet(digestsOf(spellingsOf(SECRET)));
/** Splits the folder below (2.2 MB) between the two threads: the production threshold would keep it on one. */
const SMALL_SPLIT = 1024 * 1024;

/** 24 files of 40-150 kB (2.2 MB in all); every third one leaks, in a different spelling. */
function reportsFolder(name: string): string[] {
  const root = join(dir, name);
  const spellings = [SECRET, encodeURIComponent(SECRET), Buffer.from(SECRET).toString('base64')];
  for (let i = 0; i < 24; i++) {
    const filler = 'x'.repeat(40_000 + i * 4_500);
    const leak = i % 3 === 0 ? ` "token": "${spellings[(i / 3) % spellings.length]}" ` : '';
    writeFileSync(join(root + `-${String(i).padStart(2, '0')}.json`), `{"a":"${filler}",${leak}"b":1}`, { flag: 'w' });
  }
  return filesUnder([dir]).filter((f) => f.startsWith(root));
}

test('the two-core scan returns the same hits as the one-thread scan, in file order', async () => {
  const files = reportsFolder('same');
  const alone = scanForLeaks(files, { digests: digests() });
  assert.equal(alone.length, 8, 'every leaking file is found by the plain scan');
  const scanner = leakScanner({ splitFromCost: SMALL_SPLIT });
  try {
    assert.deepEqual(await scanner.scan(files, { digests: digests() }), alone);
    assert.ok(scanner.threadStarted, 'a scan above the threshold starts the thread');
    assert.ok(scanner.threadFiles > 0 && scanner.threadFiles < files.length, `the thread scanned a share (${scanner.threadFiles} of ${files.length} files)`);
  } finally {
    await scanner.close();
  }
});

test('a scan thread that is gone leaves its share to this thread: nothing goes unscanned', async () => {
  const files = reportsFolder('gone');
  const scanner = leakScanner({ splitFromCost: SMALL_SPLIT });
  await scanner.close();
  const hits = await scanner.scan(files, { digests: digests() });
  assert.deepEqual(hits, scanForLeaks(files, { digests: digests() }));
  assert.equal(hits.length, 8);
  assert.equal(scanner.threadFiles, 0, 'all of it here');
});

test('a scan below the threshold starts no thread (a one-scenario run\'s reports are scanned here, without the thread\'s start-up)', async () => {
  const files = reportsFolder('small');
  assert.ok(SPLIT_FROM_COST > 2.2e6, 'the folder is below the production threshold');
  const scanner = leakScanner();
  try {
    assert.equal(scanner.threadStarted, false, 'nothing is started before a scan');
    assert.deepEqual(await scanner.scan(files, { digests: digests() }), scanForLeaks(files, { digests: digests() }));
    assert.equal(scanner.threadStarted, false, 'no thread for a small scan');
    assert.equal(scanner.threadFiles, 0);
  } finally {
    await scanner.close();
  }
});

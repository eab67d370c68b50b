/**
 * The Allure results writer without fsync (src/harness/report/outputs/allure-reporter.ts): the same files as
 * allure-js-commons' FileSystemWriter (results, containers, attachments from bytes and from a path,
 * environment, categories), each renamed into place, no temp file left behind.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { UnsyncedWriter } from '../../src/harness/report/outputs/allure-reporter.js';

const dir = mkdtempSync(join(tmpdir(), 'ftf-allure-writer-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('writes every kind of Allure result file, renamed into place, without temp leftovers', () => {
  const results = join(dir, 'allure-results');
  const writer = new UnsyncedWriter(results);
  writer.writeResult({ uuid: 'r1', name: 'walk' } as Parameters<UnsyncedWriter['writeResult']>[0]);
  writer.writeGroup({ uuid: 'g1', children: ['r1'] } as Parameters<UnsyncedWriter['writeGroup']>[0]);
  writer.writeAttachment('a1-attachment.json', Buffer.from('{"page":1}'));
  const source = join(dir, 'source.txt');
  writeFileSync(source, 'curl http://127.0.0.1:1/');
  writer.writeAttachmentFromPath('a2-attachment.txt', source);
  writer.writeEnvironmentInfo({ target: 'reference' });
  writer.writeCategoriesDefinitions([{ name: 'target trouble' }]);
  assert.deepEqual(readdirSync(results).sort(), ['a1-attachment.json', 'a2-attachment.txt', 'categories.json', 'environment.properties', 'g1-container.json', 'r1-result.json']);
  assert.equal((JSON.parse(readFileSync(join(results, 'r1-result.json'), 'utf8')) as { name: string }).name, 'walk');
  assert.equal(readFileSync(join(results, 'a1-attachment.json'), 'utf8'), '{"page":1}');
  assert.equal(readFileSync(join(results, 'a2-attachment.txt'), 'utf8'), 'curl http://127.0.0.1:1/');
  assert.match(readFileSync(join(results, 'environment.properties'), 'utf8'), /^target\s*=\s*reference/m);
});

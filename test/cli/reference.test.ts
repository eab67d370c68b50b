/** `ftf-conformance reference`: the reference server as an ordinary CLI command (what `npm run reference` calls). */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { REPO_ROOT } from '../../src/harness/repo-root.js';

const BIN = join(REPO_ROOT, 'bin/ftf-conformance.mjs');

describe('ftf-conformance reference', () => {
  it('listens on the port it was given (0 = any), prints its URLs but no secret, and stops with exit 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, [BIN, 'reference', '--port', '0', '--seed', '7'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString('utf8');
        if (out.includes('secrets:')) resolve();
      });
      child.on('close', () => reject(new Error(`exited before listening: ${err}`)));
    });
    const baseUrl = /base_url:\s+(\S+)/.exec(out)?.[1] ?? '';
    assert.match(baseUrl, /^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    const health = await fetch(`${baseUrl}/health`);
    assert.equal(health.status, 401, 'the API answers (and wants a token)');
    assert.match(out, /rerun with --print-secrets/);
    child.kill('SIGTERM');
    assert.equal(await exited, 0);
    assert.match(out, /stopped \(SIGTERM\)/);
  });

  it('a bad flag prints the usage and exits 2', () => {
    const r = spawnSync(process.execPath, [BIN, 'reference', '--mode', 'staging'], { encoding: 'utf8' });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--mode must be sandbox or production/);
    assert.match(r.stderr, /usage: ftf-conformance reference/);
  });

  it('npm run reference and npm run mutation call the CLI', () => {
    const scripts = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    assert.equal(scripts.reference, 'node bin/ftf-conformance.mjs reference');
    assert.equal(scripts.mutation, 'node bin/ftf-conformance.mjs selftest');
  });
});

/**
 * The error-code table (src/harness/report/records/error-codes.ts) decides what a scenario ending with a code means,
 * so it must know every code the harness raises: a code missing there would silently count as internal.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ERROR_CODES, ERROR_KINDS, kindOf } from '../../src/harness/report/records/error-codes.js';

const ROOT = join(import.meta.dirname, '../..');

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sources(path, out);
    else if (name.endsWith('.ts')) out.push(path);
  }
  return out;
}

describe('error-code table', () => {
  it('lists every FtfError code raised under src/ and specs/', () => {
    const codes = new Set<string>();
    for (const file of [...sources(join(ROOT, 'src')), ...sources(join(ROOT, 'specs'))]) {
      for (const m of readFileSync(file, 'utf8').matchAll(/['"`](FTF_E_[A-Z0-9_]*[A-Z0-9])['"`]/g)) codes.add(m[1]!);
    }
    assert.ok(codes.size > 20, `found only ${codes.size} codes: the scan is broken`);
    const missing = [...codes].filter((c) => !Object.hasOwn(ERROR_CODES, c)).sort();
    assert.deepEqual(missing, [], 'add these codes to src/harness/report/records/error-codes.ts with their kind');
  });

  it('gives every code one of the four kinds; an unknown code is internal', () => {
    for (const [code, kind] of Object.entries(ERROR_CODES)) assert.ok(ERROR_KINDS.includes(kind), `${code}: ${kind}`);
    assert.equal(kindOf('FTF_E_CHECK_FAILED'), 'non-conformance');
    assert.equal(kindOf('FTF_E_TARGET_TIMEOUT'), 'target');
    assert.equal(kindOf('FTF_E_SCENARIO_INVALID'), 'input');
    assert.equal(kindOf('FTF_E_NO_SUCH_CODE'), 'internal');
    assert.equal(kindOf('toString'), 'internal', 'prototype names are not codes');
  });
});

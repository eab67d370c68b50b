/** FTF_TRANSPORT: which transport the Playwright fixtures send through (src/harness/http/transport-choice.ts). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { transportKind } from '../../src/harness/http/transport-choice.js';
import { FtfError } from '../../src/shared/errors.js';

describe('transportKind (FTF_TRANSPORT)', () => {
  it('is the undici transport when unset or blank', () => {
    assert.equal(transportKind({}), 'undici');
    assert.equal(transportKind({ FTF_TRANSPORT: '  ' }), 'undici');
  });

  it('takes undici or playwright', () => {
    assert.equal(transportKind({ FTF_TRANSPORT: 'undici' }), 'undici');
    assert.equal(transportKind({ FTF_TRANSPORT: ' playwright ' }), 'playwright');
  });

  it('refuses anything else as a usage error naming the choices', () => {
    assert.throws(
      () => transportKind({ FTF_TRANSPORT: 'fetch' }),
      (e: unknown) => e instanceof FtfError && e.code === 'FTF_E_USAGE' && /playwright, undici/.test(e.message) && /"fetch"/.test(e.message),
    );
  });
});

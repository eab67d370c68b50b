/**
 * The property runner (src/harness/properties/runner.ts): FTF_FC_* settings, a passing property, and a failing one
 * whose error carries the seed, the path, the SHRUNK counterexample and the requests of that very run, and
 * which replays from seed + path.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { checkProperty, propertySettings, type PropertyRun } from '../../src/harness/properties/runner.js';
import { RunLog } from '../../src/harness/properties/run-log.js';
import type { Exchange } from '../../src/harness/http/types.js';
import { FtfError } from '../../src/shared/errors.js';

const BASES = { baseUrl: 'http://127.0.0.1:1/api/v1' };

function fakeExchange(n: number): Exchange {
  const url = `http://127.0.0.1:1/api/v1/event?limit=${n}`;
  return {
    id: n, label: `page for ${n}`, startedAt: '', durationMs: 0, curl: '',
    request: { method: 'GET', url, headers: {}, timeoutMs: 1 },
    response: { status: 200, headers: {}, bodyText: '{}', json: {}, durationMs: 0 },
  };
}

/** A property over integers that "sends" one request per run and fails from 17 on. */
function run(log: RunLog, settings = propertySettings({}, 100), onFailure?: PropertyRun<number>['onFailure']): PropertyRun<number> {
  return {
    title: 'limits below 17',
    arbitrary: fc.integer({ min: 0, max: 1000 }),
    predicate: async (n) => {
      log.onExchange(fakeExchange(n));
      fc.pre(n !== 500);
      if (n >= 17) throw new Error(`limit ${n} too big`);
    },
    settings,
    log,
    bases: BASES,
    describe: (n) => `limit ${n}`,
    command: 'npx playwright test -g "limits"',
    timeLimitMs: 10_000,
    ...(onFailure ? { onFailure } : {}),
  };
}

async function failure(p: Promise<unknown>): Promise<FtfError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof FtfError, String(e));
    return e;
  }
  assert.fail('the property should have failed');
}

describe('propertySettings', () => {
  it('defaults, then FTF_FC_RUNS / FTF_FC_SEED / FTF_FC_PATH / FTF_FC_END_ON_FAILURE', () => {
    assert.deepEqual(propertySettings({}, 25), { numRuns: 25, seed: undefined, path: undefined, endOnFailure: false });
    assert.deepEqual(propertySettings({ FTF_FC_RUNS: '200', FTF_FC_SEED: '-17', FTF_FC_PATH: '3:0:1', FTF_FC_END_ON_FAILURE: '1' }, 25),
      { numRuns: 200, seed: -17, path: '3:0:1', endOnFailure: true });
    assert.deepEqual(propertySettings({ FTF_FC_RUNS: ' ', FTF_FC_SEED: '' }, 5).numRuns, 5);
  });

  it('bad values name the variable', () => {
    assert.throws(() => propertySettings({ FTF_FC_RUNS: '0' }, 25), (e: FtfError) => e.code === 'FTF_E_PROPERTY_SETTINGS' && /FTF_FC_RUNS must be an integer >= 1, got "0"/.test(e.message));
    assert.throws(() => propertySettings({ FTF_FC_SEED: '1.5' }, 25), /FTF_FC_SEED/);
    assert.throws(() => propertySettings({ FTF_FC_PATH: 'abc' }, 25), /FTF_FC_PATH must look like 3:0:1/);
  });
});

describe('checkProperty', () => {
  it('resolves for a property that holds, with the run count', async () => {
    const log = new RunLog();
    const stats = await checkProperty({ ...run(log), arbitrary: fc.integer({ min: 0, max: 16 }), settings: propertySettings({ FTF_FC_RUNS: '30' }, 1) });
    assert.equal(stats.numRuns, 30);
    assert.equal(stats.interrupted, false);
  });

  it('a failure carries seed, path, the shrunk counterexample and the requests of that run', async () => {
    const log = new RunLog();
    let attached: { text: string; exchanges: readonly Exchange[] } | undefined;
    const e = await failure(checkProperty(run(log, propertySettings({ FTF_FC_SEED: '4242' }, 100), async (text, exchanges) => {
      attached = { text, exchanges };
    })));
    assert.equal(e.code, 'FTF_E_PROPERTY_FAILED');
    assert.match(e.message, /^property "limits below 17" failed: Error: limit 17 too big$/m);
    assert.match(e.message, /seed 4242, path [\d:]+; failed after \d+ run\(s\), shrunk \d+ time\(s\)/);
    assert.match(e.message, /counterexample \(shrunk\): limit 17$/m);
    // the request log is the one of the shrunk run (17), not of the first failure
    assert.match(e.message, /1\. GET \/event\?limit=17 → 200/);
    assert.doesNotMatch(e.message, /2\. GET/);
    assert.equal(attached?.exchanges.length, 1);
    assert.equal(attached?.text, e.message);

    const path = /path ([\d:]+);/.exec(e.message)?.[1];
    assert.ok(path);
    const replay = await failure(checkProperty(run(new RunLog(), propertySettings({ FTF_FC_SEED: '4242', FTF_FC_PATH: path }, 100))));
    assert.match(replay.message, /counterexample \(shrunk\): limit 17$/m);
    assert.match(replay.message, /failed after 1 run\(s\), shrunk 0 time\(s\)/);
  });

  it('endOnFailure reports the first failing value without shrinking', async () => {
    const e = await failure(checkProperty(run(new RunLog(), propertySettings({ FTF_FC_SEED: '4242', FTF_FC_END_ON_FAILURE: 'yes' }, 100))));
    assert.match(e.message, /shrunk 0 time\(s\)/);
  });

  it('a property whose every case is skipped fails readably', async () => {
    const log = new RunLog();
    const e = await failure(checkProperty({ ...run(log), predicate: async () => fc.pre(false), settings: propertySettings({ FTF_FC_SEED: '1' }, 10) }));
    assert.match(e.message, /could not run: \d+ generated cases were skipped \(seed 1\)/);
  });
});

/**
 * Shards of one shared external target (src/cli/shard-guard.ts, docs/ci/README.md): the two phases partition
 * every selection; `run --shard` of an external target that would select an @exclusive scenario is refused with
 * the reason before anything starts, `--phase shared --shard i/n` is accepted, `--phase exclusive` is never
 * sharded; `merge` accepts the shared shards plus one exclusive phase as a whole run and names a missing part.
 * The flow itself against one running server: test/cli/shared-shards.test.ts.
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { parse, stringify } from 'yaml';
import { checkShardSet, type ShardManifest } from '../../src/harness/report/reports-folder/shards.js';
import { loadSelection, selectionFromEnv, selectionSettings, type SelectionFlags } from '../../src/harness/scenario/selection.js';
import { runSettingsEnv } from '../../src/shared/run-settings.js';
import { REPO_ROOT } from '../../src/harness/repo-root.js';
import { cli, closedPort, fakePlaywright, scratch, writeProfile } from './helpers.js';

const dir = scratch('ftf-shard-phases-');
after(() => rmSync(dir, { recursive: true, force: true }));
const specs = join(REPO_ROOT, 'specs');
const ids = (f: SelectionFlags): string[] => {
  const s = loadSelection(specs, f);
  return [...s.scenarios.map((x) => x.id), ...s.extras.map((x) => x.id), ...s.problems.map((p) => p.file)].sort();
};

test('the phases partition the selection; shards of a phase partition the phase', () => {
  for (const base of [{}, { grep: '^(token|lifecycle|webhooks)\\.' }, { tag: 'clock' }] as SelectionFlags[]) {
    const shared = ids({ ...base, phase: 'shared' });
    const exclusive = ids({ ...base, phase: 'exclusive' });
    assert.deepEqual([...shared, ...exclusive].sort(), ids(base));
    assert.deepEqual(exclusive, ids({ ...base, tag: 'exclusive' }).filter((id) => ids(base).includes(id)));
    const parts = [1, 2, 3].map((i) => ids({ ...base, phase: 'shared', shard: `${i}/3` }));
    assert.deepEqual(parts.flat().sort(), shared);
  }
  assert.ok(ids({ phase: 'exclusive' }).includes('token.expiry'));
  assert.equal(ids({ phase: 'shared' }).includes('token.expiry'), false);
  assert.deepEqual(selectionFromEnv(runSettingsEnv({ selection: selectionSettings({ phase: 'exclusive', shard: '1/2' }) })), { phase: 'exclusive', shard: '1/2' });
  assert.deepEqual(selectionFromEnv({ FTF_RUN: JSON.stringify({ selection: { phase: 'bogus' } }) }), {});
});

test('run --shard of an external target: refused with the reason unless the shared phase is sharded', async () => {
  const profile = parse(readFileSync(join(REPO_ROOT, 'fixtures/targets/reference.yaml'), 'utf8')) as Record<string, unknown>;
  delete profile.embedded;
  // Nothing listens: a refused run must stop before the reachability probe; an accepted one reaches it.
  const url = `http://127.0.0.1:${await closedPort()}`;
  const file = writeProfile(dir, 'external.yaml', stringify({ ...profile, name: 'external', base_url: `${url}/api/v1`, auth_url: url, control_url: `${url}/control` }));
  const secrets = ['FTF_PRIMARY_CLIENT_SECRET', 'FTF_SECOND_CLIENT_SECRET', 'FTF_READONLY_CLIENT_SECRET', 'FTF_CODE_CLIENT_SECRET', 'FTF_API_KEY'];
  for (const name of secrets) process.env[name] = `dummy-${name.toLowerCase()}`;
  after(() => {
    for (const name of secrets) delete process.env[name];
  });
  const fake = fakePlaywright(undefined);
  const refused = await cli('run', '--target', file, '--shard', '1/2', '--no-report');
  assert.equal(refused.code, 2, refused.err);
  assert.match(refused.err, /--shard on a shared external target/);
  assert.match(refused.err, /token\.expiry/);
  assert.match(refused.err, /run --phase shared --shard i\/n/);
  assert.match(refused.err, /run --phase exclusive/);
  const exclusive = await cli('run', '--target', file, '--phase', 'exclusive', '--shard', '1/2', '--no-report');
  assert.equal(exclusive.code, 2, exclusive.err);
  assert.match(exclusive.err, /--phase exclusive runs whole, in one job/);
  const badPhase = await cli('run', '--target', file, '--phase', 'first');
  assert.equal(badPhase.code, 2);
  assert.match(badPhase.err, /--phase must be one of shared, exclusive/);
  // Accepted: the split, and a selection without @exclusive scenarios. They go on to the probe (nothing listens).
  for (const args of [['--phase', 'shared', '--shard', '1/2'], ['--grep', '^amounts\\.minimum', '--shard', '1/2']]) {
    const r = await cli('run', '--target', file, ...args, '--no-report');
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, /FTF_E_TARGET_UNREACHABLE/, `${args.join(' ')} passes the shard check`);
  }
  // The embedded reference: every shard has its own servers, so plain shards are fine.
  const embedded = await cli('run', '--shard', '1/2', '--no-report', '--grep', '^resources\\.health\\b');
  assert.doesNotMatch(embedded.err, /--shard on a shared external target/);
  assert.ok(fake.calls.length >= 1, 'the embedded sharded run reached Playwright');
});

test('merge: the shared shards and one exclusive phase are one run; a missing or sharded part is a problem', () => {
  const m = (shard: string | null, phase: ShardManifest['phase']): ShardManifest => ({ grep: null, tag: null, shard, phase });
  const whole = checkShardSet([m('1/2', 'shared'), m('2/2', 'shared'), m(null, 'exclusive')]);
  assert.deepEqual(whole.problems, []);
  assert.equal(whole.filtered, false);
  const noExclusive = checkShardSet([m('1/2', 'shared'), m('2/2', 'shared')]);
  assert.match(noExclusive.problems.join('\n'), /the exclusive phase .* is missing/);
  assert.equal(noExclusive.filtered, true);
  assert.match(checkShardSet([m('1/2', 'shared'), m(null, 'exclusive')]).problems.join('\n'), /shard 2\/2 missing/);
  assert.match(checkShardSet([m('1/2', 'shared'), m('2/2', 'shared'), m('1/1', 'exclusive')]).problems.join('\n'), /the exclusive phase was sharded/);
  assert.match(checkShardSet([m('1/2', 'shared'), m('2/2', 'shared'), m(null, 'exclusive'), m(null, 'exclusive')]).problems.join('\n'), /given 2 times/);
  assert.match(checkShardSet([m('1/2', null), m('2/2', 'shared'), m(null, 'exclusive')]).problems.join('\n'), /a run without --phase/);
  assert.match(checkShardSet([m(null, 'exclusive')]).problems.join('\n'), /the shared phase .* is missing/);
  assert.deepEqual(checkShardSet([m(null, 'shared'), m(null, 'exclusive')]).problems, [], 'an unsharded shared phase plus the exclusive one');
});

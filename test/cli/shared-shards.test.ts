/**
 * Shards against ONE external reference server, as the documented pipelines run them (docs/ci/README.md):
 * `run --phase shared --shard 1/2` and `2/2` AT THE SAME TIME, then `run --phase exclusive` alone, then `merge` of
 * the three folders. No false failure (every scenario passes; the clock movers among them would expire the other
 * shard's tokens if they ran inside a shard), and the merged verdicts.json and JUnit testcases equal those of an
 * unsharded run of the same selection against the same server.
 *
 * Kept modest: 14 scenarios of the families that hold tokens and the user's webhook (token, idempotency, checkpoints)
 * with 5 @exclusive ones (clock moves, webhook registration), no properties, 2 workers per run, no Allure HTML.
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { parse, stringify } from 'yaml';
import { REPO_ROOT } from '../../src/harness/repo-root.js';
import { loadSelection } from '../../src/harness/scenario/selection.js';
import { runTimeoutMs, testTimeoutMs } from '../../src/harness/target/bounds.js';
import { profileTimeouts, REFERENCE_PROFILE } from '../../src/harness/target/load.js';
import { startReferenceServer, type RunningReference } from '../../src/reference/server.js';
import { runCli } from '../hostile/cli-run.js';
import { scratch } from './helpers.js';
import { allureResults, comparableVerdicts, junitCases, readVerdicts } from './verdict-compare.js';

const GREP = '^(token\\.(client-credentials|bearer-401|response|refresh-rotation|api-key|expiry)|idempotency\\.(replay|new-key)|checkpoints\\.(create|delete)|lifecycle\\.(issue-after-cutoff|default-date)|webhooks\\.register-delete|permissions\\.readonly-writes):';
const dir = scratch('ftf-shared-shards-');
const profileFile = join(dir, 'external.yaml');
let server: RunningReference;

before(async () => {
  server = await startReferenceServer({ port: 0 });
  const profile = parse(readFileSync(REFERENCE_PROFILE, 'utf8')) as Record<string, unknown>;
  delete profile.embedded;
  writeFileSync(profileFile, stringify({ ...profile, name: 'FTF reference server (one external server for every shard)', base_url: server.baseUrl, auth_url: server.authUrl, control_url: server.controlUrl }));
});
after(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const selection = loadSelection(join(REPO_ROOT, 'specs'), { grep: GREP });
const SCENARIOS = selection.scenarios.length;
// The hang guard of one run: the selection one scenario at a time, plus start-up.
const RUN_MS = runTimeoutMs(profileTimeouts(REFERENCE_PROFILE), SCENARIOS, 1) + 2 * testTimeoutMs(profileTimeouts(REFERENCE_PROFILE));

interface Cli {
  code: number | null;
  out: string;
}

/** The CLI (bin/ftf-conformance.mjs) in a child against the external server, with its own reports folder. */
async function cli(reports: string, ...args: string[]): Promise<Cli> {
  const { clients, apiKeys } = server.secrets;
  const r = await runCli(args, {
    FTF_REPORTS_DIR: reports, FTF_WORKERS: '2', CI: '1', FTF_TARGET: profileFile,
    FTF_PRIMARY_CLIENT_SECRET: clients['cc-alice'], FTF_SECOND_CLIENT_SECRET: clients['cc-bob'], FTF_READONLY_CLIENT_SECRET: clients['cc-carol-readonly'],
    FTF_CODE_CLIENT_SECRET: clients['code-app'], FTF_API_KEY: apiKeys['alice@ftf.test'],
    ...Object.fromEntries(['FTF_BLOB_REPORT', 'FTF_RUN', 'FTF_SPECS_DIR', 'FTF_BASE_URL', 'FTF_AUTH_URL', 'FTF_CONTROL_URL', 'NODE_OPTIONS'].map((k) => [k, undefined])),
  }, RUN_MS);
  return { code: r.code, out: `${r.stdout}${r.stderr}` };
}

test('two shards at once + the exclusive phase against ONE server: no false failure, merged verdict = unsharded', { timeout: 4 * RUN_MS }, async () => {
  const exclusive = loadSelection(join(REPO_ROOT, 'specs'), { grep: GREP, phase: 'exclusive' }).scenarios.map((s) => s.id);
  assert.ok(exclusive.includes('token.expiry') && exclusive.includes('webhooks.register-delete') && exclusive.length >= 4, `clock movers and webhook registration are selected: ${exclusive.join(', ')}`);
  const [whole, s1, s2, ex, merged] = ['whole', 'shard-1', 'shard-2', 'shard-exclusive', 'merged'].map((n) => join(dir, n)) as [string, string, string, string, string];

  // Without the split the shards are refused, saying why.
  const refused = await cli(s1, 'run', '--grep', GREP, '--shard', '1/2', '--no-report');
  assert.equal(refused.code, 2, refused.out.slice(-2000));
  assert.match(refused.out, /--shard on a shared external target.*token\.expiry/s);

  const unsharded = await cli(whole, 'run', '--grep', GREP, '--no-report');
  assert.equal(unsharded.code, 0, unsharded.out.slice(-3000));

  // The pipeline: the shards of the shared phase at the same time, then the exclusive phase alone, then merge.
  const [first, second] = await Promise.all([
    cli(s1, 'run', '--grep', GREP, '--phase', 'shared', '--shard', '1/2', '--no-report'),
    cli(s2, 'run', '--grep', GREP, '--phase', 'shared', '--shard', '2/2', '--no-report'),
  ]);
  assert.equal(first.code, 0, first.out.slice(-3000));
  assert.equal(second.code, 0, second.out.slice(-3000));
  const alone = await cli(ex, 'run', '--grep', GREP, '--phase', 'exclusive', '--no-report');
  assert.equal(alone.code, 0, alone.out.slice(-3000));

  const ids = (reports: string): string[] => readVerdicts(reports).scenarios.map((s) => s.id).sort();
  // (The selection may hold a scenario's clock-less form under its own id; the verdicts name the scenarios that ran.)
  assert.deepEqual(ids(ex), ids(whole).filter((id) => exclusive.includes(id)), 'the exclusive job ran exactly the @exclusive scenarios');
  assert.ok(ids(ex).includes('token.expiry') && ids(ex).includes('webhooks.register-delete'));
  assert.deepEqual([...ids(s1), ...ids(s2), ...ids(ex)].sort(), ids(whole), 'the parts together are the selection, no scenario twice');
  assert.ok(ids(whole).length >= SCENARIOS - 2, `the unsharded run reported the selection (${ids(whole).length} of ${SCENARIOS})`);

  const m = await cli(merged, 'merge', '--no-report', s1, s2, ex);
  assert.equal(m.code, 0, m.out.slice(-3000));
  assert.match(m.out, /verdict: CONFORMANT/);
  const bad = readVerdicts(merged).scenarios.filter((s) => s.verdict === 'failed' || s.verdict === 'errored').map((s) => `${s.id}: ${s.verdict}`);
  assert.deepEqual(bad, [], 'no false failure');
  assert.deepEqual(comparableVerdicts(readVerdicts(merged)), comparableVerdicts(readVerdicts(whole)));
  assert.deepEqual(junitCases(merged), junitCases(whole));
  assert.deepEqual(allureResults(merged), allureResults(whole), 'one Allure result per test, as unsharded');

  // Without the exclusive phase the merge is not green, and says what is missing.
  const partial = await cli(join(dir, 'partial'), 'merge', '--no-report', s1, s2);
  assert.equal(partial.code, 1, partial.out.slice(-2000));
  assert.match(partial.out, /PROBLEM the exclusive phase .* is missing/);
  assert.equal(readVerdicts(join(dir, 'partial')).overall, 'non-conformant');
});

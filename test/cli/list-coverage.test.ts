import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { cli, FIXTURES, scratch, writeProfile } from './helpers.js';

const dir = scratch('ftf-cli-list-');
after(() => rmSync(dir, { recursive: true, force: true }));
process.env.FTF_SPECS_DIR = join(FIXTURES, 'specs');
process.env.FTF_SPEC_DIR = join(FIXTURES, 'spec');

const readonlyProfile = writeProfile(dir, 'ro.yaml', 'name: read-only sandbox\nbase_url: https://s.test/api/v1\nauth_url: https://s.test\nenvironment: sandbox\ncredentials:\n  primary:\n    kind: client_credentials\n    client_id: a\n    client_secret_env: A\n');

test('list: scenarios with clause ids, tags, needs and what the target skips', async () => {
  const r = await cli('list');
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^demo\.health {2}\(demo\) {2}health answers 200$/m);
  assert.match(r.out, /clauses: RES-HEALTH, AUTH-BEARER {3}tags: @demo @smoke/);
  assert.match(r.out, /needs: production/);
  // The reason the run declares (scenario/plan.ts), and the count of tests a run declares (a clock-less form is none).
  assert.match(r.out, /skipped on FTF reference server \(embedded\): needs production: the target profile does not declare it/);
  assert.match(r.out, /5 scenarios \(0 as clock-less form\), \d+ propert(y|ies); 1 skipped on/);
  const json = JSON.parse((await cli('list', '--json', '--tag', 'smoke')).out) as { scenarios: { id: string }[] };
  assert.deepEqual(json.scenarios.map((s) => s.id), ['demo.health']);
});

test('list: nothing selected exits 2', async () => {
  const r = await cli('list', '--grep', 'no-such-thing');
  assert.equal(r.code, 2);
  assert.match(r.err, /matched no scenario/);
});

test('coverage: testable clauses without a runnable scenario fail (exit 1); untestable ones give the reason', async () => {
  const ref = await cli('coverage');
  assert.equal(ref.code, 1, 'EP-WEBHOOK needs mutation, which the reference has, and nothing covers it');
  assert.match(ref.out, /^uncovered\s+EP-WEBHOOK\s+must\s+-\s+\(no scenario covers it\)$/m);
  assert.match(ref.out, /^uncovered\s+AUTH-API-KEY .*\(its scenarios need production, which FTF reference server \(embedded\) lacks\)$/m);
  assert.match(ref.out, /^covered\s+RES-HEALTH\s+must\s+demo\.wrong-status, demo\.timeout, demo\.health|^covered\s+RES-HEALTH/m);

  const out = join(dir, 'coverage.md');
  const ro = await cli('coverage', '--target', readonlyProfile, '--markdown', out);
  assert.match(ro.out, /^untestable EP-WEBHOOK .*\(needs mutation, which read-only sandbox lacks\)$/m);
  assert.equal(ro.code, 1, 'AUTH-API-KEY is still testable in principle but its only scenario needs production');
  const md = readFileSync(out, 'utf8');
  assert.match(md, /^# Clause coverage/m);
  assert.match(md, /\| Endpoints \| EP-WEBHOOK \| must \| untestable \| - \| needs mutation, which read-only sandbox lacks \|/);
});

test('coverage: exit 0 when every clause the profile could test is covered', async () => {
  const prod = writeProfile(dir, 'prod.yaml', 'name: prod\nbase_url: https://p.test/api/v1\nauth_url: https://p.test\nenvironment: production\ncredentials:\n  primary:\n    kind: client_credentials\n    client_id: a\n    client_secret_env: A\n');
  const r = await cli('coverage', '--target', prod);
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, /5 clauses: 4 covered, 0 uncovered, 1 untestable/);
});
